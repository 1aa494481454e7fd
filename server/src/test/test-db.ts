import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { inject } from 'vitest';
import { openDatabase, type Database } from '../platform/db/client.js';
import { withDatabase } from './global-setup.js';

/** A fresh, migrated database for one test file, on PGlite or (server-pg project) real PostgreSQL. */
export async function createTestDatabase(): Promise<Database> {
  const testDb = inject('testDb');
  if (testDb.kind === 'pglite') {
    const blob = new Blob([readFileSync(testDb.dumpFile)]);
    return openDatabase({ dataDir: 'memory://', loadDataDir: blob });
  }
  const name = `aiedu_t_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
  await adminQuery(testDb.url, `create database ${name} template ${testDb.template}`);
  const database = await openDatabase({ databaseUrl: withDatabase(testDb.url, name), poolSize: 4 });
  return {
    ...database,
    async close() {
      await database.close();
      await adminQuery(testDb.url, `drop database if exists ${name} with (force)`);
    },
  };
}

/** An empty, unmigrated database (for migration tests). */
export async function createEmptyDatabase(): Promise<Database> {
  const testDb = inject('testDb');
  if (testDb.kind === 'pglite') return openDatabase({ dataDir: 'memory://' });
  const name = `aiedu_e_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
  await adminQuery(testDb.url, `create database ${name}`);
  const database = await openDatabase({ databaseUrl: withDatabase(testDb.url, name), poolSize: 2 });
  return {
    ...database,
    async close() {
      await database.close();
      await adminQuery(testDb.url, `drop database if exists ${name} with (force)`);
    },
  };
}

async function adminQuery(url: string, sql: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
