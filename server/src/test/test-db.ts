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
      await dropWhenClosed(testDb.url, name);
    },
  };
}

/**
 * The pool's `end()` resolves while its connections are still saying goodbye; dropping the database `with (force)`
 * then terminates them mid-close, and the closing client throws an unhandled error. Wait until they are gone.
 */
async function dropWhenClosed(url: string, name: string) {
  for (let attempt = 1; ; attempt++) {
    try {
      await adminQuery(url, `drop database if exists ${name}`);
      return;
    } catch (error) {
      const inUse = (error as { code?: string }).code === '55006';
      if (!inUse || attempt >= 100) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
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
      await dropWhenClosed(testDb.url, name);
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
