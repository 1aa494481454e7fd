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

  it('give every course version its course’s name, description, cover and tags when they move to versions', async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'aiedu-migrations-'));
    cpSync(MIGRATIONS_FOLDER, dir, { recursive: true });
    const journalFile = path.join(dir, 'meta', '_journal.json');
    const journal = JSON.parse(readFileSync(journalFile, 'utf8'));
    const at = journal.entries.findIndex((e: { tag: string }) => e.tag.endsWith('_course_version_info'));
    expect(at).toBeGreaterThan(0);
    writeFileSync(journalFile, JSON.stringify({ ...journal, entries: journal.entries.slice(0, at) }));
    database = await createEmptyDatabase();
    await database.migrate(dir);
    await database.db.execute(sql`
      insert into users (id, username, password_hash, roles)
      values ('0192f7a0-0000-7000-8000-000000000001', 'author', 'x', '{ROLE_TEACHER}')`);
    await database.db.execute(sql`
      insert into courses (id, owner_id, code, name, description, cover_key, thumb_key, tags)
      values ('0192f7a0-0000-7000-8000-000000000002', '0192f7a0-0000-7000-8000-000000000001', 'ABCDEF',
        'Robots', 'About robots', 'courses/c/cover.png', 'courses/c/thumb.png', '{Arms,Sensors}')`);
    await database.db.execute(sql`
      insert into course_versions (id, course_id, number, status) values
        ('0192f7a0-0000-7000-8000-000000000003', '0192f7a0-0000-7000-8000-000000000002', 1, 'published'),
        ('0192f7a0-0000-7000-8000-000000000004', '0192f7a0-0000-7000-8000-000000000002', null, 'draft')`);

    await database.migrate(MIGRATIONS_FOLDER);
    const versions = await database.db.execute(
      sql`select name, description, cover_key, thumb_key, tags from course_versions order by id`,
    );
    const copied = { name: 'Robots', description: 'About robots', cover_key: 'courses/c/cover.png' };
    expect((versions as unknown as { rows: unknown[] }).rows).toEqual([
      { ...copied, thumb_key: 'courses/c/thumb.png', tags: ['Arms', 'Sensors'] },
      { ...copied, thumb_key: 'courses/c/thumb.png', tags: ['Arms', 'Sensors'] },
    ]);
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
