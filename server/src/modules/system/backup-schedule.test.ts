import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { ROLES } from '@aiedu/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scheduledBackups } from '../../platform/db/schema/index.js';
import { buildUser, signIn } from '../../test/factories.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

describe('daily backups', () => {
  let t: TestApp;
  let dir = '';
  // The server's local time: the schedule counts days and hours as the school's clock does.
  let clock = new Date(2026, 10, 24, 1, 0);
  let password = '';

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'aiedu-daily-'));
    t = await createTestApp({
      now: () => clock,
      config: { scheduledBackups: { dir: path.join(dir, 'backups'), at: '02:00', keep: 2 } },
    });
    const root = await buildUser(t.database.db, { username: 'root', roles: [ROLES.super] });
    password = root.password;
  });
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const files = () => readdirSync(path.join(dir, 'backups')).sort();
  // Signed in afresh each time: the test's clock moves by days.
  const status = async () =>
    (
      await t.app.inject({
        method: 'GET',
        url: '/api/v1/admin_super/backup/schedule',
        headers: { 'x-authorization': await signIn(t.app, '', 'root', password) },
      })
    ).json();

  it('writes one backup a day once its time has come, and keeps the newest', async () => {
    const backups = t.app.backups!;
    clock = new Date(2026, 10, 24, 1, 59);
    expect(await backups.runDue()).toBe('not-due');
    expect(await status()).toMatchObject({ errorCode: '1000', data: { last: null } });

    clock = new Date(2026, 10, 24, 2, 0);
    expect(await backups.runDue()).toBe('written');
    expect(files()).toEqual(['aiedu-backup-20261124-0200.tar.gz']);
    // It holds password hashes: only the server's user may read it.
    expect(statSync(path.join(dir, 'backups', files()[0]!)).mode & 0o777).toBe(0o600);
    const archive = gunzipSync(readFileSync(path.join(dir, 'backups', files()[0]!)));
    expect(archive.subarray(0, 11).toString()).toBe('backup.json');
    // The record of daily backups stays with this installation: a restored one starts its own.
    const size = parseInt(archive.subarray(124, 136).toString(), 8);
    const tables = (JSON.parse(archive.subarray(512, 512 + size).toString()) as { tables: { name: string }[] }).tables;
    expect(tables.map((table) => table.name)).toContain('users');
    expect(tables.map((table) => table.name)).not.toContain('scheduled_backups');
    // The day is taken: later in the day, or by another process, nothing is written again.
    clock = new Date(2026, 10, 24, 17, 30);
    expect(await backups.runDue()).toBe('taken');

    for (const day of [25, 26]) {
      clock = new Date(2026, 10, day, 2, 1);
      expect(await backups.runDue()).toBe('written');
    }
    expect(files()).toEqual(['aiedu-backup-20261125-0201.tar.gz', 'aiedu-backup-20261126-0201.tar.gz']);
    expect((await status()).data).toMatchObject({
      enabled: true,
      dir: path.join(dir, 'backups'),
      at: '02:00',
      keep: 2,
      last: {
        day: '2026-11-26',
        file: path.join(dir, 'backups', 'aiedu-backup-20261126-0201.tar.gz'),
        bytes: expect.any(Number),
        error: null,
      },
    });
  });

  it('lists the daily backups kept, and a super administrator downloads one by its own link', async () => {
    const token = await signIn(t.app, '', 'root', password);
    const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
      t.app.inject({ method, url, payload, headers: { 'x-authorization': token } });
    const { files } = (await status()).data as { files: { name: string; bytes: number }[] };
    expect(files.map((f) => f.name)).toEqual([
      'aiedu-backup-20261126-0201.tar.gz',
      'aiedu-backup-20261125-0201.tar.gz',
    ]);
    const [newest, older] = files as [{ name: string; bytes: number }, { name: string; bytes: number }];

    const link = await call('POST', '/api/v1/admin_super/backup/link', { file: newest.name });
    const { url } = link.json().data as { url: string };
    const download = await t.app.inject({ method: 'GET', url });
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-disposition']).toBe(`attachment; filename="${newest.name}"`);
    expect(download.rawPayload.equals(readFileSync(path.join(dir, 'backups', newest.name)))).toBe(true);

    // The ticket is for that file only; names of other forms, and files not kept, are not found.
    expect((await t.app.inject({ method: 'GET', url: url.replace(newest.name, older.name) })).statusCode).toBe(401);
    for (const file of ['../secrets/jwt.key', 'aiedu-backup-20990101-0000.tar.gz']) {
      expect((await call('POST', '/api/v1/admin_super/backup/link', { file })).statusCode).toBe(404);
    }
  });

  it('records why a day’s backup failed, and leaves no partial file', async () => {
    const blocked = path.join(dir, 'not-a-folder');
    writeFileSync(blocked, 'x');
    const other = await createTestApp({
      now: () => new Date(2026, 10, 24, 3, 0),
      config: { scheduledBackups: { dir: path.join(blocked, 'backups'), at: '02:00', keep: 7 } },
    });
    try {
      expect(await other.app.backups!.runDue()).toBe('failed');
      const root = await buildUser(other.database.db, { username: 'root', roles: [ROLES.super] });
      const res = await other.app.inject({
        method: 'GET',
        url: '/api/v1/admin_super/backup/schedule',
        headers: { 'x-authorization': await signIn(other.app, '', 'root', root.password) },
      });
      expect(res.json().data.last).toMatchObject({
        day: '2026-11-24',
        file: null,
        error: expect.stringMatching(/ENOTDIR/),
      });
    } finally {
      await other.close();
    }
  });

  it('stops a backup on the database’s disk once that disk is below its floor, and keeps nothing of it', async () => {
    const backups = path.join(dir, 'floor', 'backups');
    const other = await createTestApp({
      now: () => new Date(2026, 10, 24, 3, 0),
      // The test's data folder and this backups folder are both under the machine's temporary folder: one disk.
      config: { scheduledBackups: { dir: backups, at: '02:00', keep: 7 }, minFreeDiskMb: 1_000_000_000 },
    });
    try {
      expect(await other.app.backups!.runDue()).toBe('failed');
      const [row] = await other.database.db.select().from(scheduledBackups);
      expect(row).toMatchObject({ day: '2026-11-24', file: null });
      expect(row!.error).toMatch(/fell below MIN_FREE_DISK_MB .* the write stopped so the database keeps its room$/);
      expect(readdirSync(backups)).toEqual([]);
    } finally {
      await other.close();
    }
  });
});
