import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
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
}

/**
 * Extensions the migrations rely on, created before them (drizzle-kit does not generate them): pg_trgm for the
 * trigram indexes of `%keyword%` searches. It is a trusted extension (PostgreSQL 13+): a database owner may create it.
 */
const CREATE_EXTENSIONS = 'create extension if not exists pg_trgm';

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  return options.databaseUrl ? openPostgres(options.databaseUrl, options.poolSize ?? 10) : openPglite(options);
}

async function openPglite(options: DatabaseOptions): Promise<Database> {
  const dataDir = options.dataDir ?? 'memory://';
  if (!dataDir.startsWith('memory://')) mkdirSync(path.dirname(path.resolve(dataDir)), { recursive: true });
  // pg_trgm backs the trigram indexes of name searches, as on PostgreSQL.
  const client = await PGlite.create(dataDir, {
    extensions: { pg_trgm },
    ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
  });
  const db = drizzlePglite({ client: withKeptStatements(client), schema }) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    ping: () => ping(db),
    close: () => client.close(),
    async migrate(migrationsFolder) {
      // A PGlite database belongs to this one process, so no cross-process lock is needed.
      const { migrate } = await import('drizzle-orm/pglite/migrator');
      await client.exec(CREATE_EXTENSIONS);
      await migrate(drizzlePglite({ client, schema }), { migrationsFolder });
    },
  };
}

async function openPostgres(url: string, poolSize: number): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  const db = drizzlePg({ client: pool, schema }) as unknown as Db;
  return {
    db,
    kind: 'postgres',
    ping: () => ping(db),
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
