import { mkdirSync, mkdtempSync, rmSync, utimesSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { DatabaseInUseError, openDatabase, type Database } from './client.js';

describe('the embedded database in a folder', () => {
  const open: Database[] = [];
  let dir = '';
  afterEach(async () => {
    await Promise.all(open.splice(0).map((database) => database.close()));
    rmSync(dir, { recursive: true, force: true });
  });
  const openIn = async (dataDir: string) => {
    const database = await openDatabase({ dataDir, lockRetries: 0 });
    open.push(database);
    return database;
  };

  it('belongs to one process at a time, and is free again once closed', async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'aiedu-db-lock-'));
    const dataDir = path.join(dir, 'db');
    const first = await openIn(dataDir);
    await first.db.execute(sql`create table notes (body text)`);
    await first.db.execute(sql`insert into notes values ('kept')`);

    const second = openDatabase({ dataDir, lockRetries: 0 });
    await expect(second).rejects.toBeInstanceOf(DatabaseInUseError);
    await expect(second).rejects.toThrow(`The embedded database at ${dataDir} is in use by another process`);

    await open.pop()!.close();
    const again = await openIn(dataDir);
    const rows = await again.db.execute<{ body: string }>(sql`select body from notes`);
    expect((rows as unknown as { rows: { body: string }[] }).rows).toEqual([{ body: 'kept' }]);
  });

  it('is taken from a process that died without letting go, once its lock has gone stale', async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'aiedu-db-lock-'));
    const dataDir = path.join(dir, 'db');
    // What a killed server leaves: the lock folder, no longer renewed.
    mkdirSync(`${dataDir}.lock`, { recursive: true });
    const old = new Date(Date.now() - 60_000);
    utimesSync(`${dataDir}.lock`, old, old);
    const database = await openIn(dataDir);
    expect(await database.ping()).toBe(true);
  });
});
