import { createReadStream } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable, Transform, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { ERRORS } from '@aiedu/contracts';
import { sql } from 'drizzle-orm';
import tar from 'tar-stream';
import type { Database, Db } from '../../platform/db/client.js';
import { AppError } from '../../platform/errors.js';
import { type FileStorage } from '../../platform/storage/storage.js';
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

export function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

export interface TableInfo {
  name: string;
  /** Columns a row can be written to (generated ones are left out). */
  columns: string[];
  primaryKey: string[];
  /**
   * Columns written after every row is in: references to the same table (a customer's parent), and nullable ones
   * that close a cycle between tables (a customer's creator, a user of a customer).
   */
  selfReferences: string[];
  references: Set<string>;
  /** Foreign keys to other tables, with whether every column of each may be null. */
  foreignKeys: { target: string; columns: string[]; nullable: boolean }[];
}

/** The public tables, each after every table its foreign keys point to. */
export async function tablesInOrder(db: Db): Promise<TableInfo[]> {
  const columns = rowsOf<{ table: string; column: string; nullable: boolean }>(
    await db.execute(sql`
      select c.relname as "table", a.attname as "column", not a.attnotnull as "nullable"
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
  const nullable = new Set<string>();
  for (const { table, column, nullable: mayBeNull } of columns) {
    const info = tables.get(table) ?? {
      name: table,
      columns: [],
      primaryKey: [],
      selfReferences: [],
      references: new Set(),
      foreignKeys: [],
    };
    info.columns.push(column);
    tables.set(table, info);
    if (mayBeNull) nullable.add(`${table}.${column}`);
  }
  for (const constraint of constraints) {
    const info = tables.get(constraint.table);
    if (!info) continue;
    if (constraint.kind === 'p') info.primaryKey = constraint.columns;
    else if (constraint.target === constraint.table) info.selfReferences.push(...constraint.columns);
    else if (constraint.target) {
      info.references.add(constraint.target);
      info.foreignKeys.push({
        target: constraint.target,
        columns: constraint.columns,
        nullable: constraint.columns.every((column) => nullable.has(`${constraint.table}.${column}`)),
      });
    }
  }
  const ordered: TableInfo[] = [];
  const placed = new Set<string>();
  while (placed.size < tables.size) {
    const ready = [...tables.values()].filter(
      (t) => !placed.has(t.name) && [...t.references].every((r) => placed.has(r) || !tables.has(r)),
    );
    if (ready.length === 0) {
      // A cycle: one nullable reference in it is written after every row is in, as references to the same table are.
      const left = [...tables.values()].filter((t) => !placed.has(t.name));
      const late = left
        .flatMap((table) => table.foreignKeys.map((key) => ({ table, key })))
        .find(({ key }) => key.nullable && !placed.has(key.target) && tables.has(key.target));
      if (!late) throw new Error(`Tables refer to each other in a cycle: ${left.map((t) => t.name).join(', ')}`);
      late.table.selfReferences.push(...late.key.columns.filter((c) => !late.table.selfReferences.includes(c)));
      late.table.foreignKeys = late.table.foreignKeys.filter((key) => key !== late.key);
      if (!late.table.foreignKeys.some((key) => key.target === late.key.target)) {
        late.table.references.delete(late.key.target);
      }
      continue;
    }
    for (const table of ready) {
      ordered.push(table);
      placed.add(table.name);
    }
  }
  return ordered;
}

export interface Journal {
  entries: { idx: number; when: number; tag: string }[];
}

export async function readJournal(migrationsFolder: string): Promise<Journal> {
  return JSON.parse(await readFile(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as Journal;
}

/** How many migrations the database has applied, and the last one's name in this version's journal. */
export async function migrationLevel(db: Db, migrationsFolder: string): Promise<{ count: number; last: string }> {
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
    // An archive that failed on its way out (a full disk, a lost share) destroys the entry being written: a failure
    // of the backup, not an unhandled error that would end the process.
    entry.on('error', reject);
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

/** How many migrations the database has applied; 0 on a new one. */
export async function appliedMigrations(db: Db): Promise<number> {
  const [row] = rowsOf<{ count: number }>(
    await db.execute(sql`select count(*)::int as "count" from pg_tables
                         where schemaname = 'drizzle' and tablename = '__drizzle_migrations'`),
  );
  if (!row?.count) return 0;
  return rowsOf<{ count: number }>(
    await db.execute(sql`select count(*)::int as "count" from drizzle.__drizzle_migrations`),
  )[0]!.count;
}
