import { createWriteStream } from 'node:fs';
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { sql } from 'drizzle-orm';
import tar from 'tar-stream';
import type { Database, Db } from '../../platform/db/client.js';
import { isValidKey } from '../../platform/storage/storage.js';
import {
  BACKUP_FORMAT,
  BACKUP_VERSION,
  RestoreRefused,
  appliedMigrations,
  readJournal,
  rowsOf,
  tablesInOrder,
  type BackupManifest,
  type Journal,
  type RestoreTarget,
  type TableInfo,
} from './backup.service.js';

// Reading a backup back: a restore into an empty database, and a check that an archive is whole.

/** A path inside the archive, checked: relative, of plain segments, no way out of its folder. */
function safeRelative(name: string): string | null {
  const segments = name.split('/');
  if (segments.some((s) => s === '' || s === '.' || s === '..' || s.includes('\\') || s.includes('\0'))) return null;
  return segments.join(path.sep);
}

/**
 * Restores a backup into an empty site: a database without rows (a new DATA_DIR, or a new PostgreSQL database)
 * and, for files, any storage. The database is first migrated to the backup's level, the rows go in
 * within one transaction with the files, and only then is the database migrated on to this version; so a backup
 * of an older version restores into a newer one, and a restore that fails leaves no rows.
 */
export async function restoreBackup(site: RestoreTarget, input: Readable): Promise<BackupManifest> {
  const { database } = site;
  if (await holdsRows(database.db)) {
    throw new RestoreRefused(
      'The database already holds data. Restore into an empty one: a new DATA_DIR, or a new PostgreSQL database in DATABASE_URL.',
    );
  }
  return readArchive(input, (entries) => restoreEntries(site, entries));
}

/** Reads a backup's entries with `read`; whatever stops it, the file is closed. */
async function readArchive<T>(input: Readable, read: (entries: AsyncIterator<TarEntry>) => Promise<T>): Promise<T> {
  const extract = tar.extract();
  const gunzip = createGunzip();
  input.on('error', (error) => extract.destroy(error));
  gunzip.on('error', (error) => extract.destroy(error));
  input.pipe(gunzip).pipe(extract);
  try {
    return await read(extract[Symbol.asyncIterator]());
  } finally {
    extract.destroy();
    input.destroy();
  }
}

/** The description every backup starts with, checked to be one this version reads. */
async function readManifest(entries: AsyncIterator<TarEntry>): Promise<BackupManifest> {
  const first = await entries.next().catch((error: unknown) => {
    throw new RestoreRefused(`This file is not a backup (${(error as Error).message}).`);
  });
  if (first.done || first.value.header.name !== 'backup.json') throw new RestoreRefused('This file is not a backup.');
  const manifest = JSON.parse(await textOf(first.value)) as BackupManifest;
  if (manifest.format !== BACKUP_FORMAT) throw new RestoreRefused('This file is not a backup.');
  if (manifest.version > BACKUP_VERSION) {
    throw new RestoreRefused(`This backup was made by a newer version (format ${manifest.version}); upgrade first.`);
  }
  return manifest;
}

/**
 * Refuses rows that disagree with the description (a chunk lost from the archive), for the tables before `until`
 * in the archive's order (tables come one after the other, so those are complete), or for all of them.
 */
function checkRowCounts(manifest: BackupManifest, counted: Map<string, number>, until?: string) {
  const end = until === undefined ? -1 : manifest.tables.findIndex((table) => table.name === until);
  if (until !== undefined && end === -1) {
    throw new RestoreRefused(
      `The backup is damaged: it holds rows of table ${until}, which its description does not count.`,
    );
  }
  for (const { name, rows } of end === -1 ? manifest.tables : manifest.tables.slice(0, end)) {
    const found = counted.get(name) ?? 0;
    if (found !== rows) {
      throw new RestoreRefused(`The backup is damaged: table ${name} should hold ${rows} rows, and it holds ${found}.`);
    }
  }
}

/**
 * Reads a whole backup without restoring it: the archive must be complete (gzip knows its end) and hold every row
 * its description counts. Answers the description, the number of other entries and their bytes.
 */
export async function verifyBackup(
  input: Readable,
): Promise<{ manifest: BackupManifest; files: number; bytes: number }> {
  return readArchive(input, async (entries) => {
    const manifest = await readManifest(entries);
    const counted = new Map<string, number>();
    let files = 0;
    let bytes = 0;
    for (let next = await entries.next(); !next.done; next = await entries.next()) {
      const entry = next.value;
      const [area, table] = entry.header.name.split('/');
      if (area === 'database' && table) {
        counted.set(table, (counted.get(table) ?? 0) + rowsIn(await textOf(entry)).length);
        continue;
      }
      for await (const part of entry) bytes += (part as Buffer).length;
      files += 1;
    }
    checkRowCounts(manifest, counted);
    return { manifest, files, bytes };
  });
}

const rowsIn = (text: string) => text.split('\n').filter((line) => line !== '');

async function restoreEntries(site: RestoreTarget, entries: AsyncIterator<TarEntry>): Promise<BackupManifest> {
  const { database } = site;
  const manifest = await readManifest(entries);
  const journal = await readJournal(site.migrationsFolder);
  const level = journal.entries[manifest.migrations.count - 1];
  if (manifest.migrations.count > journal.entries.length) {
    throw new RestoreRefused(
      `This backup was made by a newer version (migration ${manifest.migrations.last}); upgrade this installation first.`,
    );
  }
  if (manifest.migrations.count > 0 && level?.tag !== manifest.migrations.last) {
    throw new RestoreRefused(
      `This backup's migrations (${manifest.migrations.last}) are not this version's (${level?.tag}); it cannot be restored here.`,
    );
  }
  if ((await appliedMigrations(database.db)) > manifest.migrations.count) {
    throw new RestoreRefused(
      'The database was set up by a newer version than the backup. Restore into a new DATA_DIR, or a new PostgreSQL database.',
    );
  }
  await migrateTo(database, site.migrationsFolder, journal, manifest.migrations.count);

  await database.db.transaction(async (tx) => {
    const db = tx as unknown as Db;
    const tables = new Map((await tablesInOrder(db)).map((t) => [t.name, t]));
    const later: Held[] = [];
    const projects = new Map<string, { id: string; seq: number }>();
    let projectsLoaded = false;
    const touched = new Set<string>();
    const counted = new Map<string, number>();
    for (let next = await entries.next(); !next.done; next = await entries.next()) {
      const entry = next.value;
      const name = entry.header.name;
      if (entry.header.type !== 'file') {
        entry.resume();
        continue;
      }
      const [area, ...rest] = name.split('/');
      if (area === 'database') {
        const table = tables.get(rest[0] ?? '');
        if (!table)
          throw new RestoreRefused(`The backup holds rows of a table this version does not have: ${rest[0]}.`);
        // Before the rows of a table go in, those it may refer to are checked whole.
        checkRowCounts(manifest, counted, table.name);
        counted.set(table.name, (counted.get(table.name) ?? 0) + (await insertChunk(db, table, entry, later)));
        site.progress?.({ name, bytes: entry.header.size ?? 0 });
        continue;
      }
      if (!projectsLoaded) {
        await applySelfReferences(db, later);
        for (const row of rowsOf<{ id: string; seq: number }>(await db.execute(sql`select id, seq from projects`))) {
          projects.set(row.id, row);
        }
        projectsLoaded = true;
      }
      const relative = safeRelative(rest.join('/'));
      if (area === 'files' && relative && isValidKey(rest.join('/'))) {
        await site.storage.put(rest.join('/'), Readable.from(entry), { maxBytes: Number.MAX_SAFE_INTEGER });
      } else if (area === 'project-versions' && relative) {
        await writeEntry(entry, path.join(site.dataDir, 'project-versions', relative));
      } else if (area === 'workspaces' && relative && rest.length > 1) {
        const project = projects.get(rest[0]!);
        if (!project)
          throw new RestoreRefused(`The backup holds the workspace of a project it has no row for: ${rest[0]}.`);
        const workspace = site.folders.ensureWorkspace(project);
        await writeEntry(entry, path.join(workspace, safeRelative(rest.slice(1).join('/'))!));
        touched.add(project.id);
      } else {
        throw new RestoreRefused(`The backup holds an entry this version cannot place: ${name}.`);
      }
      site.progress?.({ name, bytes: entry.header.size ?? 0 });
    }
    if (!projectsLoaded) await applySelfReferences(db, later);
    checkRowCounts(manifest, counted);
    for (const id of touched) {
      const project = projects.get(id)!;
      site.folders.claim(project, site.folders.workspaceDir(project));
    }
    await resetSequences(db);
  });
  await database.migrate(site.migrationsFolder);
  return manifest;
}

type TarEntry = AsyncIterable<unknown> & { header: tar.Header; resume(): void };

/** Rows whose references to their own table wait until every row of it is in. */
interface Held {
  table: TableInfo;
  rows: Record<string, unknown>[];
}

async function textOf(stream: AsyncIterable<unknown>): Promise<string> {
  const parts: Buffer[] = [];
  for await (const part of stream) parts.push(part as Buffer);
  return Buffer.concat(parts).toString('utf8');
}

async function writeEntry(entry: TarEntry, target: string) {
  await mkdir(path.dirname(target), { recursive: true });
  await pipeline(Readable.from(entry), createWriteStream(target, { mode: (entry.header.mode ?? 0o644) & 0o777 }));
}

/** Whether any table of the product holds a row. */
async function holdsRows(db: Db): Promise<boolean> {
  const tables = rowsOf<{ name: string }>(
    await db.execute(sql`select tablename as "name" from pg_tables where schemaname = 'public'`),
  );
  for (const { name } of tables) {
    const [row] = rowsOf<{ found: boolean }>(
      await db.execute(sql`select exists (select 1 from ${sql.identifier(name)}) as "found"`),
    );
    if (row?.found) return true;
  }
  return false;
}

/** Applies the first `count` migrations only: the level the backup's rows were written at. */
async function migrateTo(database: Database, migrationsFolder: string, journal: Journal, count: number) {
  const folder = await mkdtemp(path.join(os.tmpdir(), 'aiedu-restore-'));
  try {
    await cp(migrationsFolder, folder, { recursive: true });
    const entries = journal.entries.slice(0, count);
    await writeFile(path.join(folder, 'meta', '_journal.json'), JSON.stringify({ ...journal, entries }));
    await database.migrate(folder);
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

/** Inserts one chunk of rows; references to the same table are held back for `applySelfReferences`. */
async function insertChunk(db: Db, table: TableInfo, entry: TarEntry, later: Held[]): Promise<number> {
  const rows = rowsIn(await textOf(entry)).map((line) => JSON.parse(line) as Record<string, unknown>);
  if (rows.length === 0) return 0;
  if (table.selfReferences.length > 0) {
    const held = rows.filter((row) =>
      table.selfReferences.some((column) => row[column] !== null && row[column] !== undefined),
    );
    if (held.length > 0)
      later.push({ table, rows: held.map((row) => pick(row, [...table.primaryKey, ...table.selfReferences])) });
    for (const row of rows) for (const column of table.selfReferences) row[column] = null;
  }
  const columns = sql.join(
    table.columns.map((column) => sql.identifier(column)),
    sql`, `,
  );
  await db.execute(
    sql`insert into ${sql.identifier(table.name)} (${columns})
        select ${columns} from json_populate_recordset(null::${sql.identifier(table.name)}, ${JSON.stringify(rows)}::json)`,
  );
  return rows.length;
}

const pick = (row: Record<string, unknown>, columns: string[]) => Object.fromEntries(columns.map((c) => [c, row[c]]));

/** Sets the references rows make to rows of their own table (parents, forks) once all of them exist. */
async function applySelfReferences(db: Db, later: Held[]) {
  for (const { table, rows } of later.splice(0)) {
    const name = sql.identifier(table.name);
    const assignments = sql.join(
      table.selfReferences.map((column) => sql`${sql.identifier(column)} = src.${sql.identifier(column)}`),
      sql`, `,
    );
    const match = sql.join(
      table.primaryKey.map((column) => sql`t.${sql.identifier(column)} = src.${sql.identifier(column)}`),
      sql` and `,
    );
    await db.execute(
      sql`update ${name} t set ${assignments}
          from json_populate_recordset(null::${name}, ${JSON.stringify(rows)}::json) src where ${match}`,
    );
  }
}

/** Moves every sequence owned by a column (`projects.seq`) past the largest value restored. */
async function resetSequences(db: Db) {
  const owned = rowsOf<{ sequence: string; table: string; column: string }>(
    await db.execute(sql`
      select s.relname as "sequence", t.relname as "table", a.attname as "column"
      from pg_depend d join pg_class s on s.oid = d.objid and s.relkind = 'S'
        join pg_class t on t.oid = d.refobjid join pg_namespace n on n.oid = t.relnamespace
        join pg_attribute a on a.attrelid = t.oid and a.attnum = d.refobjsubid
      where n.nspname = 'public' and d.deptype in ('a', 'i')`),
  );
  for (const { sequence, table, column } of owned) {
    await db.execute(
      sql`select setval(${sequence}::regclass, coalesce((select max(${sql.identifier(column)}) from ${sql.identifier(table)}), 0) + 1, false)`,
    );
  }
}
