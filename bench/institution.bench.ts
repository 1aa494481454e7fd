import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { buildApp } from '../server/src/app.js';
import { loadConfig } from '../server/src/config.js';
import { openDatabase } from '../server/src/platform/db/client.js';
import { MIGRATIONS_FOLDER } from '../server/src/platform/db/migrations.js';
import { customers, schools, users } from '../server/src/platform/db/schema/index.js';
import { hashPassword } from '../server/src/platform/passwords.js';
import { LocalDiskStorage } from '../server/src/platform/storage/local-storage.js';
import { createScratchDatabase } from './scratch-database.js';

const STUDENTS = 100_000;
const CLASSES = 1_000;
const RUNS = 40;

function p95(times: number[]): number {
  const sorted = [...times].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(0.95 * sorted.length))]!;
}

/**
 * Seeds 100,000 students in 1,000 classes of one customer (set-based SQL, seconds rather than minutes), then
 * measures the administrator's student list, its search and the statistics call through the whole app. On
 * PostgreSQL it works in a scratch database of the server `serverUrl` names, dropped afterwards.
 */
export async function benchInstitution(serverUrl: string | undefined): Promise<string[]> {
  const scratch = serverUrl ? await createScratchDatabase(serverUrl) : undefined;
  const databaseUrl = scratch?.url;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'aiedu-bench-institution-'));
  const config = { ...loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', RUNTIME_WARM_POOL: '0' }), databaseUrl };
  const database = await openDatabase({ databaseUrl, dataDir: path.join(dataDir, 'db') });
  await database.migrate(MIGRATIONS_FOLDER);
  const storage = new LocalDiskStorage(path.join(dataDir, 'files'), 'bench-secret-bench-secret-bench-secret');
  const app = await buildApp({ config, database, storage, logger: false });
  const code = `seed${Date.now().toString(36)}`;
  const label = databaseUrl ? 'PostgreSQL' : 'PGlite';
  try {
    const db = database.db;
    const [customer] = await db.insert(customers).values({ code, name: 'Seed bench' }).returning();
    const [school] = await db.insert(schools).values({ customerId: customer!.id, name: 'Seed School' }).returning();
    const c = customer!.id;
    const s = school!.id;
    const hash = await hashPassword('Start2026');
    const started = performance.now();
    await db.execute(sql`
      insert into classes (id, customer_id, school_id, edu_stage, grade, class_name, start_year)
      select gen_random_uuid(), ${c}, ${s}, 'primary', 1 + (g % 6), 'Class ' || lpad(g::text, 4, '0'), 2026 - (g % 6)
      from generate_series(1, ${CLASSES}) g`);
    await db.execute(sql`
      insert into users (id, customer_id, school_id, username, password_hash, roles, real_name)
      select gen_random_uuid(), ${c}, ${s}, 'b' || lpad(g::text, 6, '0'), ${hash}, array['ROLE_STUDENT'],
             'Student ' || g
      from generate_series(1, ${STUDENTS}) g`);
    await db.execute(sql`
      with cls as (select array_agg(id order by class_name) as ids from classes where customer_id = ${c})
      insert into students (user_id, customer_id, school_id, class_id, school_number)
      select u.id, u.customer_id, u.school_id, cls.ids[1 + (substr(u.username, 2)::int % ${CLASSES})], u.username
      from users u, cls where u.customer_id = ${c} and u.school_id = ${s}`);
    await db.execute(sql`analyze`);
    const seeded = (performance.now() - started) / 1000;
    await db.insert(users).values({
      customerId: c,
      username: 'admin',
      passwordHash: await hashPassword('Admin#2026'),
      roles: ['ROLE_ADMIN'],
    });
    const login = await app.inject({
      method: 'POST',
      url: '/gw/api/v1/auth/login',
      payload: {
        custcode: code,
        usernameOrEmailOrPhone: 'admin',
        password: Buffer.from('Admin#2026').toString('base64'),
      },
    });
    const token = login.json().data.token as string;
    const measure = async (url: string) => {
      const times: number[] = [];
      for (let i = 0; i < RUNS + 3; i++) {
        const t0 = performance.now();
        const res = await app.inject({ method: 'GET', url, headers: { 'x-authorization': token } });
        if (res.json().errorCode !== '1000') throw new Error(`${url}: ${res.body.slice(0, 200)}`);
        if (i >= 3) times.push(performance.now() - t0);
      }
      return p95(times).toFixed(1);
    };
    const first = await measure('/gw/admin/api/v1/school/students?size=20');
    const deep = await measure('/gw/admin/api/v1/school/students?page=50&size=20');
    const search = await measure('/gw/admin/api/v1/school/students?keyword=b01234&size=20');
    const byName = await measure('/gw/admin/api/v1/school/students?keyword=Student%201234&size=20');
    const stats = await measure('/gw/api/v1/user/stats');
    return [
      `${label}: seeded ${STUDENTS.toLocaleString('en')} students in ${CLASSES.toLocaleString('en')} classes in ${seeded.toFixed(1)} s`,
      `${label}: p95 of ${RUNS} calls (target ≤ 100 ms): student list page 1: ${first} ms · page 50: ${deep} ms · ` +
        `search by username: ${search} ms · by name: ${byName} ms · statistics: ${stats} ms`,
    ];
  } finally {
    await app.close();
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
    await scratch?.drop();
  }
}
