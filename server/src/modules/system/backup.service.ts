import { createReadStream, createWriteStream } from 'node:fs';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable, Transform, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import { ERRORS } from '@aiedu/contracts';
import { sql } from 'drizzle-orm';
import tar from 'tar-stream';
import type { Database, Db } from '../../platform/db/client.js';
import { AppError } from '../../platform/errors.js';
import { isValidKey, type FileStorage } from '../../platform/storage/storage.js';
import type { ProjectFolders } from '../runtime/project-folders.js';

/**
 * A backup is one `.tar.gz`:
 * - `backup.json`: the format, when it was made, the database's migration level, and each table's row count;
 * - `database/<table>/<n>.jsonl`: every row of every table as JSON, tables in the order their foreign keys allow;
 * - `files/<key>`: every stored file (avatars, covers, course resources), from the disk or the S3 bucket;
 * - `project-versions/<project>/<version>/…`: the projects' saved versions;
 * - `workspaces/<project>/…`: the projects' workspaces (not their virtual environments).
 * Rows go through PostgreSQL's own JSON (`row_to_json`, `json_populate_recordset`), so a backup of the embedded
 * database restores into PostgreSQL and the other way round, and files move between the disk and S3 the same way.
 */
export const BACKUP_FORMAT = 'aiedu-backup';
export const BACKUP_VERSION = 1;

export interface BackupManifest {
  format: typeof BACKUP_FORMAT;
  version: number;
  createdAt: string;
  /** The database's migration level: how many migrations were applied, and the last one's name. */
  migrations: { count: number; last: string };
  tables: { name: string; rows: number }[];
}

/** Told of each entry once it is written or restored (the commands print how far they are). */
export type BackupProgress = (entry: { name: string; bytes: number }) => void;

/** Where a backup is read from: a running server's, or one the backup command opened. */
export interface BackupSource {
  db: Db;
  storage: FileStorage;
  dataDir: string;
  folders: Pick<ProjectFolders, 'workspaceDir'>;
  migrationsFolder: string;
  progress?: BackupProgress;
}

/** Where a backup is restored to: an empty database, and the storage and folders it will be served from. */
export interface RestoreTarget extends Omit<BackupSource, 'db' | 'folders'> {
  database: Database;
  folders: Pick<ProjectFolders, 'workspaceDir' | 'ensureWorkspace' | 'claim'>;
}

/** A restore refused before anything was written, with what to do instead. */
export class RestoreRefused extends Error {}

/**
 * Tables about this installation's processes and disk rather than its data (the processes running now, the daily
 * backups written to its disk): a restored installation starts its own.
 */
export const NOT_BACKED_UP = new Set(['server_instances', 'scheduled_backups']);

const CHUNK_ROWS = 1000;
const CHUNK_BYTES = 4 * 1024 * 1024;

function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

interface TableInfo {
  name: string;
  /** Columns a row can be written to (generated ones are left out). */
  columns: string[];
  primaryKey: string[];
  /** Columns referring to the same table (a customer's parent): written after every row is in. */
  selfReferences: string[];
  references: Set<string>;
}

/** The public tables, each after every table its foreign keys point to. */
async function tablesInOrder(db: Db): Promise<TableInfo[]> {
  const columns = rowsOf<{ table: string; column: string }>(
    await db.execute(sql`
      select c.relname as "table", a.attname as "column"
      from pg_attribute a join pg_class c on c.oid = a.attrelid join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relkind in ('r', 'p') and a.attnum > 0 and not a.attisdropped
        and a.attgenerated = ''
      order by c.relname, a.attnum`),
  );
  const constraints = rowsOf<{ table: string; kind: string; target: string | null; columns: string[] }>(
    await db.execute(sql`
      select t.relname as "table", con.contype as "kind", r.relname as "target",
        array(select a.attname from unnest(con.conkey) with ordinality k(attnum, i)
              join pg_attribute a on a.attrelid = con.conrelid and a.attnum = k.attnum order by k.i)::text[] as "columns"
      from pg_constraint con join pg_class t on t.oid = con.conrelid join pg_namespace n on n.oid = t.relnamespace
        left join pg_class r on r.oid = con.confrelid
      where n.nspname = 'public' and con.contype in ('f', 'p')`),
  );
  const tables = new Map<string, TableInfo>();
  for (const { table, column } of columns) {
    const info = tables.get(table) ?? {
      name: table,
      columns: [],
      primaryKey: [],
      selfReferences: [],
      references: new Set(),
    };
    info.columns.push(column);
    tables.set(table, info);
  }
  for (const constraint of constraints) {
    const info = tables.get(constraint.table);
    if (!info) continue;
    if (constraint.kind === 'p') info.primaryKey = constraint.columns;
    else if (constraint.target === constraint.table) info.selfReferences.push(...constraint.columns);
    else if (constraint.target) info.references.add(constraint.target);
  }
  const ordered: TableInfo[] = [];
  const placed = new Set<string>();
  while (placed.size < tables.size) {
    const ready = [...tables.values()].filter(
      (t) => !placed.has(t.name) && [...t.references].every((r) => placed.has(r) || !tables.has(r)),
    );
    if (ready.length === 0) {
      const left = [...tables.keys()].filter((name) => !placed.has(name));
      throw new Error(`Tables refer to each other in a cycle: ${left.join(', ')}`);
    }
    for (const table of ready) {
      ordered.push(table);
      placed.add(table.name);
    }
  }
  return ordered;
}

interface Journal {
  entries: { idx: number; when: number; tag: string }[];
}

async function readJournal(migrationsFolder: string): Promise<Journal> {
  return JSON.parse(await readFile(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as Journal;
}

/** How many migrations the database has applied, and the last one's name in this version's journal. */
async function migrationLevel(db: Db, migrationsFolder: string): Promise<{ count: number; last: string }> {
  const [applied] = rowsOf<{ count: number; when: string | null }>(
    await db.execute(
      sql`select count(*)::int as "count", max(created_at)::text as "when" from drizzle.__drizzle_migrations`,
    ),
  );
  const journal = await readJournal(migrationsFolder);
  const last = journal.entries.find((entry) => String(entry.when) === applied?.when);
  return { count: applied?.count ?? 0, last: last?.tag ?? `unknown (${applied?.when})` };
}

/** Every regular file under `root`, as paths relative to it with `/` between segments. Symbolic links are skipped. */
async function filesUnder(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'));
}

/**
 * Exactly `size` bytes of what passes: a file that grew or shrank while it was read (a notebook being saved) is cut
 * or padded with zeros to the size its entry announced, rather than failing the whole backup.
 */
export function exactly(size: number): Transform {
  let passed = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      const kept = chunk.subarray(0, Math.max(0, size - passed));
      passed += kept.length;
      callback(null, kept.length > 0 ? kept : undefined);
    },
    flush(callback) {
      callback(null, passed < size ? Buffer.alloc(size - passed) : undefined);
    },
  });
}

/** Adds one entry whose bytes come from a stream of known size, and waits until the archive has taken it. */
function addEntry(pack: tar.Pack, name: string, size: number, body: Readable, mode = 0o644): Promise<void> {
  return new Promise((resolve, reject) => {
    const entry = pack.entry({ name, size, mode, mtime: new Date() }, (error) => (error ? reject(error) : resolve()));
    const sized = exactly(size);
    body.on('error', (error) => {
      entry.destroy(error);
      reject(error);
    });
    body.pipe(sized).pipe(entry);
  });
}

/** Whether an error says a file is gone (deleted after it was listed). */
const isGone = (error: unknown) =>
  (error instanceof AppError && error.code === ERRORS.NOT_FOUND.code) ||
  (error as NodeJS.ErrnoException).code === 'ENOENT';

/**
 * Writes a backup of `site` to `out`. The rows are read in one snapshot first (into a temporary folder, so a slow
 * reader of the archive never holds the database), then the archive is written: rows, files, versions, workspaces.
 * Files written while a backup runs may or may not be in it; rows always agree with each other.
 */
export async function writeBackup(site: BackupSource, out: Writable): Promise<BackupManifest> {
  const spool = await mkdtemp(path.join(os.tmpdir(), 'aiedu-backup-'));
  try {
    const { manifest, chunks, projects } = await spoolDatabase(site, spool);
    const pack = tar.pack();
    const gzip = createGzip();
    pack.on('error', (error: Error) => gzip.destroy(error));
    pack.pipe(gzip);
    const written = pipeline(gzip, out);
    written.catch(() => undefined);
    const add = async (name: string, size: number, body: Readable, mode?: number) => {
      await addEntry(pack, name, size, body, mode);
      site.progress?.({ name, bytes: size });
    };
    // A file deleted after it was listed (a live server's backup) is left out.
    const addFile = async (name: string, file: string) => {
      const info = await stat(file).catch((error: unknown) => (isGone(error) ? null : Promise.reject(error)));
      if (info) await add(name, info.size, createReadStream(file), info.mode & 0o777);
    };
    try {
      const description = Buffer.from(JSON.stringify(manifest, null, 2));
      await add('backup.json', description.length, Readable.from([description]));
      for (const chunk of chunks) await addFile(chunk, path.join(spool, chunk));
      for await (const file of site.storage.list()) {
        const stored = await site.storage
          .get(file.key)
          .catch((error: unknown) => (isGone(error) ? null : Promise.reject(error)));
        if (stored) await add(`files/${file.key}`, stored.size, stored.stream);
      }
      const versionsRoot = path.join(site.dataDir, 'project-versions');
      for (const file of await filesUnder(versionsRoot)) {
        await addFile(`project-versions/${file}`, path.join(versionsRoot, file));
      }
      for (const project of projects) {
        const root = site.folders.workspaceDir(project);
        for (const file of await filesUnder(root)) {
          await addFile(`workspaces/${project.id}/${file}`, path.join(root, file));
        }
      }
      pack.finalize();
    } catch (error) {
      pack.destroy(error as Error);
      throw error;
    }
    await written;
    return manifest;
  } finally {
    await rm(spool, { recursive: true, force: true });
  }
}

/** Writes every table's rows, in one read-only snapshot, into `spool/database/<table>/<n>.jsonl`. */
async function spoolDatabase(site: BackupSource, spool: string) {
  return site.db.transaction(
    async (tx) => {
      const db = tx as unknown as Db;
      if ((await appliedMigrations(db)) === 0) throw new Error('Nothing to back up: this database was never set up');
      const tables = (await tablesInOrder(db)).filter((table) => !NOT_BACKED_UP.has(table.name));
      const counts: { name: string; rows: number }[] = [];
      const chunks: string[] = [];
      for (const table of tables) {
        let rows = 0;
        let lines: string[] = [];
        let bytes = 0;
        const flush = async () => {
          if (lines.length === 0) return;
          const name = `database/${table.name}/${String(chunks.length).padStart(6, '0')}.jsonl`;
          await mkdir(path.dirname(path.join(spool, name)), { recursive: true });
          await writeFile(path.join(spool, name), lines.join('\n') + '\n');
          chunks.push(name);
          lines = [];
          bytes = 0;
        };
        // Pages by physical position: no primary key needed, and each page starts where the last one ended.
        for (let after = '(0,0)'; ;) {
          const page = rowsOf<{ position: string; row: string }>(
            await db.execute(
              sql`select t.ctid::text as "position", row_to_json(t)::text as "row" from ${sql.identifier(table.name)} t
                  where t.ctid > ${after}::tid order by t.ctid limit ${CHUNK_ROWS}`,
            ),
          );
          for (const { row } of page) {
            lines.push(row);
            bytes += row.length;
            if (lines.length >= CHUNK_ROWS || bytes >= CHUNK_BYTES) await flush();
          }
          rows += page.length;
          if (page.length < CHUNK_ROWS) break;
          after = page[page.length - 1]!.position;
        }
        await flush();
        counts.push({ name: table.name, rows });
      }
      const projects = rowsOf<{ id: string; seq: number }>(await db.execute(sql`select id, seq from projects`));
      const manifest: BackupManifest = {
        format: BACKUP_FORMAT,
        version: BACKUP_VERSION,
        createdAt: new Date().toISOString(),
        migrations: await migrationLevel(db, site.migrationsFolder),
        tables: counts,
      };
      return { manifest, chunks, projects };
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
}

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

/** How many migrations the database has applied; 0 on a new one. */
async function appliedMigrations(db: Db): Promise<number> {
  const [row] = rowsOf<{ count: number }>(
    await db.execute(sql`select count(*)::int as "count" from pg_tables
                         where schemaname = 'drizzle' and tablename = '__drizzle_migrations'`),
  );
  if (!row?.count) return 0;
  return rowsOf<{ count: number }>(
    await db.execute(sql`select count(*)::int as "count" from drizzle.__drizzle_migrations`),
  )[0]!.count;
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
