import { mkdirSync, mkdtempSync, rmSync, statSync, statfsSync } from 'node:fs';
import path from 'node:path';
import { ROLES } from '@aiedu/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCustomer, buildUser, signIn } from '../../test/factories.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

/** A memory-backed folder on a device of its own, where the machine has one. */
const SHM = '/dev/shm';
const otherDevice = (() => {
  try {
    return statSync(SHM).dev !== statSync(process.cwd()).dev ? SHM : null;
  } catch {
    return null;
  }
})();

describe("the server's disks, for the super administrators", () => {
  let t: TestApp;
  const tokens: Record<string, string> = {};
  const disk = (who: string) =>
    t.app.inject({ method: 'GET', url: '/api/v1/admin_super/disk', headers: { 'x-authorization': tokens[who]! } });

  beforeAll(async () => {
    t = await createTestApp({ config: { minFreeDiskMb: 512 } });
    const db = t.database.db;
    const customer = await buildCustomer(db);
    const root = await buildUser(db, { username: 'root', roles: [ROLES.super] });
    const admin = await buildUser(db, { customerId: customer.id, username: 'admin', roles: [ROLES.customerAdmin] });
    tokens.root = await signIn(t.app, '', 'root', root.password);
    tokens.admin = await signIn(t.app, customer.code, 'admin', admin.password);
  });
  afterAll(() => t.close());

  it('answers the data disk and the floor, and only to a super administrator', async () => {
    const res = await disk('root');
    expect(res.statusCode).toBe(200);
    const { floorBytes, disks } = res.json().data;
    expect(floorBytes).toBe(512 * 2 ** 20);
    expect(disks).toHaveLength(1);
    const [data] = disks;
    const stats = statfsSync(t.dataDir);
    expect(data).toMatchObject({ kind: 'data', path: t.dataDir, totalBytes: stats.blocks * stats.bsize });
    expect(data.freeBytes).toBeGreaterThan(0);
    expect(data.freeBytes).toBeLessThanOrEqual(data.totalBytes);
    expect((await disk('admin')).statusCode).toBe(403);

    // Where the data disk stands against the floor: below one larger than the disk, and none at all.
    t.config.minFreeDiskMb = 1_000_000_000;
    expect((await disk('root')).json().data).toMatchObject({ state: 'low', floorBytes: 1_000_000_000 * 2 ** 20 });
    t.config.minFreeDiskMb = 0;
    expect((await disk('root')).json().data).toMatchObject({ state: 'off', floorBytes: 0 });
    t.config.minFreeDiskMb = 512;
  });

  it('adds the daily backups’ disk when it is another one', async () => {
    const sameDisk = path.join(t.dataDir, 'backups');
    mkdirSync(sameDisk);
    t.config.scheduledBackups = { dir: sameDisk, at: '02:00', keep: 7 };
    expect((await disk('root')).json().data.disks.map((d: { kind: string }) => d.kind)).toEqual(['data']);
    if (!otherDevice) return;
    const elsewhere = mkdtempSync(path.join(otherDevice, 'aiedu-backups-'));
    try {
      t.config.scheduledBackups = { dir: elsewhere, at: '02:00', keep: 7 };
      const disks = (await disk('root')).json().data.disks;
      expect(disks.map((d: { kind: string; path: string }) => [d.kind, d.path])).toEqual([
        ['data', t.dataDir],
        ['backups', elsewhere],
      ]);
      const stats = statfsSync(elsewhere);
      expect(disks[1].totalBytes).toBe(stats.blocks * stats.bsize);
    } finally {
      t.config.scheduledBackups = null;
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });
});
