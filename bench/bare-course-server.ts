import path from 'node:path';
import { sql } from 'drizzle-orm';
import Fastify from 'fastify';
import { isMain, serveUntilStopped } from './bare-server.js';
import { openDatabase, type Database } from '../server/src/platform/db/client.js';

type Rows<T> = { rows: T[] };
export const rowsOf = async <T>(database: Database, query: ReturnType<typeof sql>) =>
  ((await database.db.execute(query)) as unknown as Rows<T>).rows;

/** The centre's main query as the app runs it: the page's ids and the total on the courses, then their rows. */
const CENTRE_QUERY = (directionId: string, offset: number) => sql`
  select c.*, coalesce(nullif(u.real_name, ''), u.username) as owner, v.name, v.description, v.cover_key,
    v.thumb_key, v.tags, v.number, p.total
  from (select id, count(*) over () as total from courses
    where status = 'published' and taken_down = false and public_scope = 'public' and direction_id = ${directionId}
    order by published_at desc, id desc limit 20 offset ${offset}) p
  join courses c on c.id = p.id join users u on u.id = c.owner_id join course_versions v on v.id = c.published_version_id
  order by c.published_at desc, c.id desc`;

/** The detail's catalogue query as the app runs it when its cache has not got the version: one query, in order. */
const CATALOGUE_QUERY = (versionId: string) => sql`
  select v.number, v.status, v.name, v.description, v.cover_key, v.thumb_key, v.tags, ch.id, ch.title, s.id, s.title,
    (select count(*) from course_tasks t where t.section_id = s.id) as task_count
  from course_versions v left join course_chapters ch on ch.version_id = v.id left join course_sections s on s.chapter_id = ch.id
  where v.id = ${versionId} order by ch.position, ch.id, s.position, s.id`;

/**
 * The bare routes the course benchmark sets the app against: Fastify and the same main queries on the same
 * database (`DATABASE_URL`, else PGlite in `DATA_DIR/db`) and pool size, nothing else. Run in a process of its own,
 * as the app is.
 */
async function main() {
  const database = await openDatabase({
    databaseUrl: process.env.DATABASE_URL,
    dataDir: path.join(process.env.DATA_DIR!, 'db'),
    poolSize: Number(process.env.DATABASE_POOL_SIZE ?? 10),
  });
  const app = Fastify();
  app.get('/readyz', async () => ({ status: 'ready' }));
  app.get<{ Querystring: { d: string; page: string } }>('/bare/centre', async (request) => ({
    errorCode: '1000',
    errorMsg: '',
    data: await rowsOf(database, CENTRE_QUERY(request.query.d, (Number(request.query.page) - 1) * 20)),
  }));
  app.get<{ Querystring: { v: string } }>('/bare/detail', async (request) => ({
    errorCode: '1000',
    errorMsg: '',
    data: await rowsOf(database, CATALOGUE_QUERY(request.query.v)),
  }));
  await serveUntilStopped(app, () => database.close());
}

if (isMain(import.meta.url)) void main();
