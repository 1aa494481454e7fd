import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import Fastify from 'fastify';
import { buildApp } from '../server/src/app.js';
import { loadConfig } from '../server/src/config.js';
import { openDatabase, type Database } from '../server/src/platform/db/client.js';
import { MIGRATIONS_FOLDER } from '../server/src/platform/db/migrations.js';
import { LocalDiskStorage } from '../server/src/platform/storage/local-storage.js';
import { formatLoad, load, type LoadResult } from './load.js';
import { createScratchDatabase } from './scratch-database.js';

const COURSES = 2_000;
const LEARNERS = 1_000;
const RECORDS_PER_LEARNER = 200;

type Rows<T> = { rows: T[] };
const rowsOf = async <T>(database: Database, query: ReturnType<typeof sql>) =>
  ((await database.db.execute(query)) as unknown as Rows<T>).rows;

/** 2,000 published public courses (5 sections each) and 200,000 learning records, written in a few statements. */
async function seed(database: Database) {
  await database.db.execute(
    sql`insert into customers (id, code, name) values (gen_random_uuid(), 'bench2026', 'Bench')`,
  );
  await database.db.execute(sql`
    insert into users (id, customer_id, username, password_hash, roles, real_name)
    select gen_random_uuid(), (select id from customers where code = 'bench2026'), 'u' || n, 'x', '{ROLE_STUDENT}', 'Learner ' || n
    from generate_series(1, ${LEARNERS}) n`);
  await database.db.execute(
    sql`insert into course_categories (id, kind, name) select gen_random_uuid(), 'direction', 'D' || n from generate_series(1, 4) n`,
  );
  // Course codes spell the row number in the course-code alphabet.
  await database.db.execute(sql`
    insert into courses (id, customer_id, owner_id, code, public_scope, status, direction_id, levels, published_at, learner_count)
    select gen_random_uuid(), c.id, (select id from users where username = 'u1'),
      (select string_agg(substr('23456789ABCDEFGHJKMNPQRSTUVWXYZ', ((n / (31 ^ k)::int) % 31) + 1, 1), '' order by k) from generate_series(0, 5) k),
      'public', 'published',
      (select id from course_categories order by name offset (n % 4) limit 1),
      '{any}', now() - (n || ' minutes')::interval, n % 300
    from generate_series(1, ${COURSES}) n, customers c where c.code = 'bench2026'`);
  await database.db.execute(sql`
    insert into course_versions (id, course_id, number, status, published_at, name, description, tags)
    select gen_random_uuid(), id, 1, 'published', published_at, 'Course ' || n, 'About topic ' || n, array['tag' || (n % 20)]
    from (select id, published_at, row_number() over (order by published_at desc) n from courses) c`);
  await database.db.execute(
    sql`update courses c set published_version_id = v.id from course_versions v where v.course_id = c.id`,
  );
  await database.db.execute(sql`
    insert into course_chapters (id, course_id, version_id, title, position)
    select gen_random_uuid(), course_id, id, 'Chapter', 0 from course_versions`);
  await database.db.execute(sql`
    insert into course_sections (id, course_id, version_id, chapter_id, title, content, position)
    select gen_random_uuid(), ch.course_id, ch.version_id, ch.id, 'Section ' || k, '# Section', k
    from course_chapters ch, generate_series(0, 4) k`);
  await database.db.execute(sql`
    insert into learning_records (id, course_id, user_id, section_id, seconds_spent)
    select gen_random_uuid(), s.course_id, u.id, s.id, 60
    from (select id, row_number() over (order by id) r from users) u
    join (select id, course_id, row_number() over (order by id) r from course_sections) s
      on s.r > (u.r * 7) % 9000 and s.r <= (u.r * 7) % 9000 + ${RECORDS_PER_LEARNER}`);
  const [counted] = await rowsOf<{ n: number }>(database, sql`select count(*)::int n from learning_records`);
  return counted!.n;
}

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
 * The course centre (filters, sort, paging) and a course detail through the whole app at 100 connections, next to a
 * bare Fastify route running the same main query on the same database, in the same run.
 */
export async function benchCourses(serverUrl: string | undefined): Promise<string[]> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'aiedu-bench-course-'));
  // On PostgreSQL the seeded rows go to a database of their own, dropped afterwards.
  const scratch = serverUrl ? await createScratchDatabase(serverUrl) : undefined;
  const databaseUrl = scratch?.url;
  // No notebook servers started ahead: they would share the cores with the load.
  const env = {
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    DATABASE_POOL_SIZE: process.env.DATABASE_POOL_SIZE,
    RUNTIME_WARM_POOL: '0',
  };
  const config = { ...loadConfig(env), databaseUrl };
  const database = await openDatabase({
    databaseUrl,
    dataDir: path.join(dataDir, 'db'),
    poolSize: config.databasePoolSize,
  });
  await database.migrate(MIGRATIONS_FOLDER);
  const records = await seed(database);
  const storage = new LocalDiskStorage(path.join(dataDir, 'files'), 'bench-secret-bench-secret-bench-secret');
  const app = await buildApp({ config, database, storage, logger: false });
  // The same app with no centre page kept: every request runs the centre's queries.
  const uncached = await buildApp({
    config: { ...config, courseCentreCacheSeconds: 0 },
    database,
    storage,
    logger: false,
  });
  const directions = (await rowsOf<{ id: string }>(database, sql`select id from course_categories order by name`)).map(
    (d) => d.id,
  );
  // Visitors browse: every direction, its first five pages. Details: the twenty newest courses.
  const pages = directions.flatMap((directionId) => [1, 2, 3, 4, 5].map((page) => ({ directionId, page })));
  const newest = await rowsOf<{ id: string; version: string }>(
    database,
    sql`select id, published_version_id as version from courses order by published_at desc limit 20`,
  );
  const bare = Fastify();
  bare.get<{ Querystring: { d: string; page: string } }>('/bare/centre', async (request) => ({
    errorCode: '1000',
    errorMsg: '',
    data: await rowsOf(database, CENTRE_QUERY(request.query.d, (Number(request.query.page) - 1) * 20)),
  }));
  bare.get<{ Querystring: { v: string } }>('/bare/detail', async (request) => ({
    errorCode: '1000',
    errorMsg: '',
    data: await rowsOf(database, CATALOGUE_QUERY(request.query.v)),
  }));
  const kind = database.kind === 'pglite' ? 'PGlite' : 'PostgreSQL';
  const pool = database.kind === 'pglite' ? '' : `, pool of ${config.databasePoolSize} connections`;
  const lines = [
    `${COURSES} published courses, ${records} learning records (${kind}${pool}), 100 connections, 5 s each; ` +
      `the centre: ${pages.length} pages in turn (4 directions × 5), the detail: ${newest.length} courses in turn`,
  ];
  try {
    const appUrl = await app.listen({ port: 0, host: '127.0.0.1' });
    const uncachedUrl = await uncached.listen({ port: 0, host: '127.0.0.1' });
    const bareUrl = await bare.listen({ port: 0, host: '127.0.0.1' });
    const centrePaths = pages.map(
      (p) => `/api/v1/courses/centre?directionId=${p.directionId}&sort=publishedAt,desc&size=20&page=${p.page}`,
    );
    const run = async (label: string, origin: string, paths: string[]) => {
      await load('warm-up', `${origin}/`, { seconds: 1, connections: 10, paths });
      return load(label, `${origin}/`, { connections: 100, paths });
    };
    const bareCentre = await run(
      'bare Fastify+pg: centre query',
      bareUrl,
      pages.map((p) => `/bare/centre?d=${p.directionId}&page=${p.page}`),
    );
    const appCentre = await run(
      `GET /api/v1/courses/centre (kept ${config.courseCentreCacheSeconds} s)`,
      appUrl,
      centrePaths,
    );
    const appCentreUncached = await run('GET /api/v1/courses/centre (not kept)', uncachedUrl, centrePaths);
    lines.push(
      formatLoad(bareCentre),
      formatLoad(appCentre),
      ratio(appCentre, bareCentre),
      formatLoad(appCentreUncached),
      ratio(appCentreUncached, bareCentre),
    );
    const bareDetail = await run(
      'bare Fastify+pg: catalogue query',
      bareUrl,
      newest.map((c) => `/bare/detail?v=${c.version}`),
    );
    const appDetail = await run(
      'GET /api/v1/courses/:id',
      appUrl,
      newest.map((c) => `/api/v1/courses/${c.id}`),
    );
    lines.push(formatLoad(bareDetail), formatLoad(appDetail), ratio(appDetail, bareDetail));
    return lines;
  } finally {
    await app.close();
    await uncached.close();
    await bare.close();
    await database.close();
    await scratch?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function ratio(app: LoadResult, bare: LoadResult): string {
  const pct = (100 * app.requestsPerSecond) / bare.requestsPerSecond;
  return `ratio: ${pct.toFixed(0)} % of the bare route's req/s (target ≥ 50 %), p95 ${app.p95Ms} ms (target ≤ 50 ms on PostgreSQL)`;
}
