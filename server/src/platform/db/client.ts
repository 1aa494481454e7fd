import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import lockfile from 'proper-lockfile';
import { withKeptStatements } from './pglite-statements.js';
import * as schema from './schema/index.js';

/** The one database type used everywhere: PGlite and PostgreSQL share Drizzle's PostgreSQL dialect. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Answers true when the database responds to a trivial query. */
  ping(): Promise<boolean>;
  close(): Promise<void>;
  /** The PostgreSQL pool's connections (the embedded database has none). */
  poolStats?(): { total: number; idle: number; waiting: number };
  /** Runs the migrations in one transaction, holding a lock so that two processes never migrate at once. */
  migrate(migrationsFolder: string): Promise<void>;
}

export interface DatabaseOptions {
  databaseUrl?: string | undefined;
  /** PGlite data directory; `memory://` keeps it in memory. */
  dataDir?: string;
  /** A PGlite data-directory dump to start from (tests clone one migrated template this way). */
  loadDataDir?: Blob;
  poolSize?: number;
  /** How often to try again for the embedded database's folder while another process holds it (about 15 s). */
  lockRetries?: number;
  /** Wraps the client Drizzle sends statements through (the benchmark's statement trace). */
  wrapClient?: <T extends object>(client: T) => T;
}

/**
 * Extensions the migrations rely on, created before them (drizzle-kit does not generate them): pg_trgm for the
 * trigram indexes of `%keyword%` searches. It is a trusted extension (PostgreSQL 13+): a database owner may create it.
 */
const CREATE_EXTENSIONS = 'create extension if not exists pg_trgm';

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  return options.databaseUrl
    ? openPostgres(options.databaseUrl, options.poolSize ?? 10, options.wrapClient ?? ((client) => client))
    : openPglite(options);
}

/** Refused when another process holds the embedded database's folder. */
export class DatabaseInUseError extends Error {}

/**
 * Takes the embedded database's folder for this process. PGlite has no lock of its own, and two processes writing
 * one folder destroy it; so a second server (or a backup) on the same DATA_DIR is refused. The lock is a folder
 * beside it whose time the holder renews every few seconds: a process that died leaves one that goes stale within
 * 10 s, and a start waits that long for it.
 */
async function lockDataDir(dataDir: string, retries: number): Promise<() => Promise<void>> {
  try {
    return await lockfile.lock(dataDir, {
      realpath: false,
      stale: 10_000,
      update: 3_000,
      retries: { retries, factor: 1.3, minTimeout: 500, maxTimeout: 2_500 },
      // Another process took the folder over (this one stood still for longer than the stale time): writing on
      // would destroy the database, so this process stops.
      onCompromised: (error) => {
        console.error(`The embedded database at ${dataDir} was taken over by another process: ${error.message}`);
        process.exit(1);
      },
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOCKED') {
      throw new DatabaseInUseError(
        `The embedded database at ${dataDir} is in use by another process (a server on the same DATA_DIR); stop it first`,
      );
    }
    throw error;
  }
}

async function openPglite(options: DatabaseOptions): Promise<Database> {
  const dataDir = options.dataDir ?? 'memory://';
  const inMemory = dataDir.startsWith('memory://');
  if (!inMemory) mkdirSync(path.dirname(path.resolve(dataDir)), { recursive: true });
  const unlock = inMemory ? async () => undefined : await lockDataDir(path.resolve(dataDir), options.lockRetries ?? 10);
  // pg_trgm backs the trigram indexes of name searches, as on PostgreSQL.
  const client = await PGlite.create(dataDir, {
    extensions: { pg_trgm },
    ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
  }).catch(async (error: unknown) => {
    await unlock();
    throw error;
  });
  const wrap = options.wrapClient ?? ((kept) => kept);
  const db = drizzlePglite({ client: wrap(withKeptStatements(client)), schema }) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    ping: () => ping(db),
    async close() {
      await client.close();
      await unlock();
    },
    async migrate(migrationsFolder) {
      // A PGlite database belongs to this one process, so no cross-process lock is needed.
      const { migrate } = await import('drizzle-orm/pglite/migrator');
      await client.exec(CREATE_EXTENSIONS);
      await migrate(drizzlePglite({ client, schema }), { migrationsFolder });
    },
  };
}

async function openPostgres(
  url: string,
  poolSize: number,
  wrap: <T extends object>(client: T) => T,
): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  const db = drizzlePg({ client: wrap(pool), schema }) as unknown as Db;
  return {
    db,
    kind: 'postgres',
    ping: () => ping(db),
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    close: () => pool.end(),
    async migrate(migrationsFolder) {
      const { migrate } = await import('drizzle-orm/node-postgres/migrator');
      const client = await pool.connect();
      try {
        await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
        await client.query(CREATE_EXTENSIONS);
        await migrate(drizzlePg({ client, schema }), { migrationsFolder });
      } finally {
        await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
        client.release();
      }
    },
  };
}

/** Arbitrary but fixed key of the PostgreSQL advisory lock held while migrating. */
const MIGRATION_LOCK = 7_061_202_600;

async function ping(db: Db): Promise<boolean> {
  try {
    await db.execute(sql`select 1`);
    return true;
  } catch {
    return false;
  }
}
