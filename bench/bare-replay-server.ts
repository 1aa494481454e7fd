import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import Fastify from 'fastify';
import { isMain, serveUntilStopped } from './bare-server.js';
import pg from 'pg';
import { withKeptStatements } from '../server/src/platform/db/pglite-statements.js';

/** A route's statements as the app sent them: each group's statements were in flight together. */
export interface ReplayRoute {
  name: string;
  groups: { text: string; params: unknown[] }[][];
  /** The app's answer, sent back as the bare route's own. */
  body: unknown;
}

type Query = (text: string, params: unknown[]) => Promise<unknown>;

/** The database as a bare route reaches it: node-postgres's pool, or PGlite with its statements kept prepared. */
async function connect(): Promise<{ query: Query; close: () => Promise<unknown> }> {
  const poolSize = Number(process.env.DATABASE_POOL_SIZE ?? 10);
  if (process.env.DATABASE_URL) {
    const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: poolSize });
    return { query: (text, params) => pool.query(text, params), close: () => pool.end() };
  }
  const client = await PGlite.create(path.join(process.env.DATA_DIR!, 'db'), { extensions: { pg_trgm } });
  const kept = withKeptStatements(client);
  return { query: (text, params) => kept.query(text, params), close: () => client.close() };
}

/**
 * Bare Fastify routes, one per measured route of the app (`/bare/<name>`), each sending the statements the app's
 * route sent (captured from the app by `SQL_TRACE_FILE`, in the same order and grouping) with the same parameters,
 * then answering the app's JSON: what the route costs without the app around it. In a process of its own, as the
 * app is, on the same database and pool size.
 */
async function main() {
  const routes = JSON.parse(readFileSync(process.env.REPLAY_PLAN!, 'utf8')) as ReplayRoute[];
  const database = await connect();
  const app = Fastify();
  app.get('/readyz', async () => ({ status: 'ready' }));
  for (const route of routes) {
    app.get(`/bare/${route.name}`, async () => {
      for (const group of route.groups) {
        await Promise.all(group.map((statement) => database.query(statement.text, statement.params)));
      }
      return route.body;
    });
  }
  await serveUntilStopped(app, () => database.close());
}

if (isMain(import.meta.url)) void main();
