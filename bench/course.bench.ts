import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { fileURLToPath } from 'node:url';
import { openDatabase, type Database } from '../server/src/platform/db/client.js';
import { MIGRATIONS_FOLDER } from '../server/src/platform/db/migrations.js';
import { rowsOf } from './bare-course-server.js';
import { formatLoad, load, type LoadResult } from './load.js';
import { createScratchDatabase } from './scratch-database.js';
import { startServerProcess, stopServerProcess } from './server-process.js';

const BARE_SERVER = fileURLToPath(new URL('./bare-course-server.ts', import.meta.url));

const COURSES = 2_000;
const LEARNERS = 1_000;
const RECORDS_PER_LEARNER = 200;

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

/**
 * The course centre (filters, sort, paging) and a course detail through the built server in a process of its own,
 * 100 connections, next to bare Fastify routes running the same main queries on the same database (also in a process
 * of their own), in the same run. The load generator stays in this process. The servers run one after the other: on
 * PGlite only one process may open the database.
 */
export async function benchCourses(serverUrl: string | undefined): Promise<string[]> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'aiedu-bench-course-'));
  // On PostgreSQL the seeded rows go to a database of their own, dropped afterwards.
  const scratch = serverUrl ? await createScratchDatabase(serverUrl) : undefined;
  const databaseUrl = scratch?.url;
  const poolSize = Number(process.env.DATABASE_POOL_SIZE ?? 10);
  try {
    const database = await openDatabase({ databaseUrl, dataDir: path.join(dataDir, 'db'), poolSize });
    let records: number;
    let directions: string[];
    let newest: { id: string; version: string }[];
    try {
      await database.migrate(MIGRATIONS_FOLDER);
      records = await seed(database);
      directions = (await rowsOf<{ id: string }>(database, sql`select id from course_categories order by name`)).map(
        (d) => d.id,
      );
      newest = await rowsOf<{ id: string; version: string }>(
        database,
        sql`select id, published_version_id as version from courses order by published_at desc limit 20`,
      );
    } finally {
      await database.close();
    }
    // Visitors browse: every direction, its first five pages. Details: the twenty newest courses.
    const pages = directions.flatMap((directionId) => [1, 2, 3, 4, 5].map((page) => ({ directionId, page })));
    const env = {
      DATA_DIR: dataDir,
      DATABASE_POOL_SIZE: String(poolSize),
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    };
    /** Starts a server, puts each load on it (after a second's warm-up), stops it. */
    const measure = async (args: string[] | undefined, extra: Record<string, string>, runs: [string, string[]][]) => {
      const server = await startServerProcess({ ...env, ...extra }, args);
      try {
        const results: LoadResult[] = [];
        for (const [label, paths] of runs) {
          await load('warm-up', `${server.url}/`, { seconds: 1, connections: 10, paths });
          results.push(await load(label, `${server.url}/`, { connections: 100, paths }));
        }
        return results;
      } finally {
        await stopServerProcess(server.child);
      }
    };
    const centrePaths = pages.map(
      (p) => `/api/v1/courses/centre?directionId=${p.directionId}&sort=publishedAt,desc&size=20&page=${p.page}`,
    );
    const detailPaths = newest.map((c) => `/api/v1/courses/${c.id}`);
    const [bareCentre, bareDetail] = await measure(['--conditions=source', '--import', 'tsx', BARE_SERVER], {}, [
      ['bare Fastify+pg: centre query', pages.map((p) => `/bare/centre?d=${p.directionId}&page=${p.page}`)],
      ['bare Fastify+pg: catalogue query', newest.map((c) => `/bare/detail?v=${c.version}`)],
    ]);
    const [appCentre, appDetail] = await measure(undefined, {}, [
      ['GET /api/v1/courses/centre (kept 5 s)', centrePaths],
      ['GET /api/v1/courses/:id', detailPaths],
    ]);
    const [appCentreUncached] = await measure(undefined, { COURSE_CENTRE_CACHE_SECONDS: '0' }, [
      ['GET /api/v1/courses/centre (not kept)', centrePaths],
    ]);
    const kind = databaseUrl ? 'PostgreSQL' : 'PGlite';
    const pool = databaseUrl ? `, pool of ${poolSize} connections` : '';
    return [
      `${COURSES} published courses, ${records} learning records (${kind}${pool}), 100 connections, 5 s each; ` +
        `the centre: ${pages.length} pages in turn (4 directions × 5), the detail: ${newest.length} courses in turn; ` +
        'servers in their own processes',
      formatLoad(bareCentre!),
      formatLoad(appCentre!),
      ratio(appCentre!, bareCentre!),
      formatLoad(appCentreUncached!),
      ratio(appCentreUncached!, bareCentre!),
      formatLoad(bareDetail!),
      formatLoad(appDetail!),
      ratio(appDetail!, bareDetail!),
    ];
  } finally {
    await scratch?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function ratio(app: LoadResult, bare: LoadResult): string {
  const pct = (100 * app.requestsPerSecond) / bare.requestsPerSecond;
  return `ratio: ${pct.toFixed(0)} % of the bare route's req/s (target ≥ 50 %), p95 ${app.p95Ms} ms (target ≤ 50 ms on PostgreSQL)`;
}
