import { randomUUID } from 'node:crypto';
import pg from 'pg';

/** A database of its own on the PostgreSQL server of `serverUrl`, for one benchmark; dropped afterwards. */
export async function createScratchDatabase(serverUrl: string) {
  const name = `aiedu_bench_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`drop database if exists ${name} with (force)`) };
}
