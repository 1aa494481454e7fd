import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { createEmptyDatabase } from '../../test/test-db.js';
import type { Database } from './client.js';
import { MIGRATIONS_FOLDER } from './migrations.js';

async function tableNames(database: Database): Promise<string[]> {
  const result = await database.db.execute<{ table_name: string }>(
    sql`select table_name from information_schema.tables where table_schema = 'public' order by table_name`,
  );
  return (result as unknown as { rows: { table_name: string }[] }).rows.map((r) => r.table_name);
}

describe('migrations', () => {
  let database: Database | undefined;
  let dir: string | undefined;
  afterEach(async () => {
    await database?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('create every table on an empty database, and running them again changes nothing', async () => {
    database = await createEmptyDatabase();
    await database.migrate(MIGRATIONS_FOLDER);
    const tables = await tableNames(database);
    expect(tables).toEqual(
      expect.arrayContaining(['customers', 'schools', 'classes', 'users', 'teachers', 'students']),
    );
    await database.migrate(MIGRATIONS_FOLDER);
    expect(await tableNames(database)).toEqual(tables);
  });

  it('leave the database unchanged when one migration fails', async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'aiedu-migrations-'));
    cpSync(MIGRATIONS_FOLDER, dir, { recursive: true });
    const journalFile = path.join(dir, 'meta', '_journal.json');
    const journal = JSON.parse(readFileSync(journalFile, 'utf8'));
    const last = journal.entries.at(-1);
    journal.entries.push({ ...last, idx: last.idx + 1, when: last.when + 1, tag: '9999_broken' });
    writeFileSync(journalFile, JSON.stringify(journal));
    writeFileSync(
      path.join(dir, '9999_broken.sql'),
      'CREATE TABLE half_done (id int);\n--> statement-breakpoint\nSELECT * FROM no_such_table;',
    );

    database = await createEmptyDatabase();
    await expect(database.migrate(dir)).rejects.toThrow();
    expect(await tableNames(database)).toEqual([]);
  });
});
