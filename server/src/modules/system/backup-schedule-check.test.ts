import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import type * as BackupService from './backup.service.js';

/** Set by a test: the next backup loses its last bytes on the way to the disk, and says nothing. */
const damage = vi.hoisted(() => ({ next: false }));

vi.mock('./backup.service.js', async (original) => {
  const real = await original<typeof BackupService>();
  return {
    ...real,
    writeBackup: async (...[source, output]: Parameters<typeof real.writeBackup>) => {
      if (!damage.next) return real.writeBackup(source, output);
      damage.next = false;
      const parts: Buffer[] = [];
      const held = new Writable({ write: (chunk: Buffer, _encoding, done) => done(void parts.push(chunk)) });
      const manifest = await real.writeBackup(source, held);
      const whole = Buffer.concat(parts);
      output.end(whole.subarray(0, whole.length - 200));
      await finished(output);
      return manifest;
    },
  };
});

describe('a daily backup read back before it counts', () => {
  let t: TestApp;
  let dir = '';
  let clock = new Date(2026, 10, 24, 2, 0);

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'aiedu-daily-check-'));
    t = await createTestApp({
      now: () => clock,
      config: { scheduledBackups: { dir, at: '02:00', keep: 1 } },
    });
  });
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps the good backup and records the failure when the new one does not read back whole', async () => {
    expect(await t.app.backups!.runDue()).toBe('written');
    expect(readdirSync(dir)).toEqual(['aiedu-backup-20261124-0200.tar.gz']);

    clock = new Date(2026, 10, 25, 2, 0);
    damage.next = true;
    expect(await t.app.backups!.runDue()).toBe('failed');
    // With one backup kept, the damaged one would have pushed the good one out.
    expect(readdirSync(dir)).toEqual(['aiedu-backup-20261124-0200.tar.gz']);
    const [last] = await t.database.db.query.scheduledBackups.findMany({
      orderBy: (row, { desc }) => desc(row.day),
      limit: 1,
    });
    expect(last).toMatchObject({
      day: '2026-11-25',
      file: null,
      error: expect.stringMatching(/does not read back whole/),
    });
  });
});
