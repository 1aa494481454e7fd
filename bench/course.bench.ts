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
    insert into courses (id, customer_id, owner_id, code, name, description, public_scope, status, direction_id, tags, levels, published_at, learner_count)
    select gen_random_uuid(), c.id, (select id from users where username = 'u1'),
      (select string_agg(substr('23456789ABCDEFGHJKMNPQRSTUVWXYZ', ((n / (31 ^ k)::int) % 31) + 1, 1), '' order by k) from generate_series(0, 5) k),
      'Course ' || n, 'About topic ' || n, 'public', 'published',
      (select id from course_categories order by name offset (n % 4) limit 1),
      array['tag' || (n % 20)], '{any}', now() - (n || ' minutes')::interval, n % 300
    from generate_series(1, ${COURSES}) n, customers c where c.code = 'bench2026'`);
  await database.db.execute(sql`
    insert into course_versions (id, course_id, number, status, published_at)
    select gen_random_uuid(), id, 1, 'published', published_at from courses`);
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

const CENTRE_QUERY = (directionId: string) => sql`
  select c.*, coalesce(nullif(u.real_name, ''), u.username) as owner, v.number, count(*) over () as total
  from courses c join users u on u.id = c.owner_id left join course_versions v on v.id = c.published_version_id
  where c.status = 'published' and c.taken_down = false and c.public_scope = 'public' and c.direction_id = ${directionId}
  order by c.published_at desc, c.id desc limit 20`;

/**
 * The course centre (filters, sort, paging) and a course detail through the whole app at 100 connections, next to a
 * bare Fastify route running the same main query on the same database, in the same run.
 */
export async function benchCourses(serverUrl: string | undefined): Promise<string[]> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'aiedu-bench-course-'));
  // On PostgreSQL the seeded rows go to a database of their own, dropped afterwards.
  const scratch = serverUrl ? await createScratchDatabase(serverUrl) : undefined;
  const databaseUrl = scratch?.url;
  const config = { ...loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' }), databaseUrl };
  const database = await openDatabase({ databaseUrl, dataDir: path.join(dataDir, 'db') });
  await database.migrate(MIGRATIONS_FOLDER);
  const records = await seed(database);
  const storage = new LocalDiskStorage(path.join(dataDir, 'files'), 'bench-secret-bench-secret-bench-secret');
  const app = await buildApp({ config, database, storage, logger: false });
  const [direction] = await rowsOf<{ id: string }>(database, sql`select id from course_categories limit 1`);
  const directionId = direction!.id;
  const [newest] = await rowsOf<{ id: string; version: string }>(
    database,
    sql`select id, published_version_id as version from courses order by published_at desc limit 1`,
  );
  const { id: courseId, version: versionId } = newest!;
  const bare = Fastify();
  bare.get('/bare/centre', async () => ({
    errorCode: '1000',
    errorMsg: '',
    data: await rowsOf(database, CENTRE_QUERY(directionId)),
  }));
  bare.get('/bare/detail', async () => ({
    errorCode: '1000',
    errorMsg: '',
    data: await rowsOf(database, sql`select * from course_sections where version_id = ${versionId} order by position`),
  }));
  const kind = database.kind === 'pglite' ? 'PGlite' : 'PostgreSQL';
  const lines = [`${COURSES} published courses, ${records} learning records (${kind}), 100 connections, 5 s each`];
  try {
    const appUrl = await app.listen({ port: 0, host: '127.0.0.1' });
    const bareUrl = await bare.listen({ port: 0, host: '127.0.0.1' });
    const centre = `${appUrl}/api/v1/courses/centre?directionId=${directionId}&sort=publishedAt,desc&size=20`;
    const detail = `${appUrl}/api/v1/courses/${courseId}`;
    const pairs: [string, string, string, string][] = [
      ['bare Fastify+pg: centre query', `${bareUrl}/bare/centre`, 'GET /api/v1/courses/centre (filters)', centre],
      ['bare Fastify+pg: catalogue query', `${bareUrl}/bare/detail`, 'GET /api/v1/courses/:id', detail],
    ];
    for (const [bareLabel, bareTarget, appLabel, appTarget] of pairs) {
      await load('warm-up', bareTarget, { seconds: 1, connections: 10 });
      await load('warm-up', appTarget, { seconds: 1, connections: 10 });
      const bareResult = await load(bareLabel, bareTarget, { connections: 100 });
      const appResult = await load(appLabel, appTarget, { connections: 100 });
      lines.push(formatLoad(bareResult), formatLoad(appResult), ratio(appResult, bareResult));
    }
    return lines;
  } finally {
    await app.close();
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
