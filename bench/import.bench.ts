import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { buildApp } from '../server/src/app.js';
import { loadConfig } from '../server/src/config.js';
import { openDatabase } from '../server/src/platform/db/client.js';
import { MIGRATIONS_FOLDER } from '../server/src/platform/db/migrations.js';
import { classes, customers, schools, users } from '../server/src/platform/db/schema/index.js';
import { hashPassword } from '../server/src/platform/passwords.js';
import { LocalDiskStorage } from '../server/src/platform/storage/local-storage.js';
import { createScratchDatabase } from './scratch-database.js';

const ROWS = 10_000;

/** Imports 10,000 students from one xlsx file through the real call: dry run, then the all-or-nothing import. */
export async function benchImport(serverUrl: string | undefined): Promise<string[]> {
  // On PostgreSQL, a database of its own: nothing is migrated or written into the one DATABASE_URL names.
  const scratch = serverUrl ? await createScratchDatabase(serverUrl) : undefined;
  const databaseUrl = scratch?.url;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'aiedu-bench-import-'));
  const config = { ...loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', RUNTIME_WARM_POOL: '0' }), databaseUrl };
  const database = await openDatabase({ databaseUrl, dataDir: path.join(dataDir, 'db') });
  await database.migrate(MIGRATIONS_FOLDER);
  const storage = new LocalDiskStorage(path.join(dataDir, 'files'), 'bench-secret-bench-secret-bench-secret');
  const app = await buildApp({ config, database, storage, logger: false });
  const code = `imp${Date.now().toString(36)}`;
  try {
    const db = database.db;
    const [customer] = await db.insert(customers).values({ code, name: 'Import bench' }).returning();
    const [school] = await db.insert(schools).values({ customerId: customer!.id, name: 'Bench School' }).returning();
    const classNames = Array.from({ length: 20 }, (_, i) => `Class ${i + 1}`);
    await db.insert(classes).values(
      classNames.map((className) => ({
        customerId: customer!.id,
        schoolId: school!.id,
        eduStage: 'primary',
        grade: 4,
        className,
        startYear: 2023,
      })),
    );
    await db.insert(users).values({
      customerId: customer!.id,
      schoolId: school!.id,
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

    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Students');
    sheet.addRow(['Username', 'Name', 'Class', 'School number', 'Initial password']);
    for (let i = 0; i < ROWS; i++)
      sheet.addRow([`s${String(i).padStart(5, '0')}`, `Student ${i}`, classNames[i % 20], `N${i}`, 'Start2026']);
    const file = Buffer.from(await workbook.xlsx.writeBuffer());
    const boundary = '----bench';
    const body = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="students.xlsx"\r\n\r\n`),
      file,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const run = async (dryRun: boolean) => {
      const started = performance.now();
      const res = await app.inject({
        method: 'POST',
        url: `/gw/admin/api/v1/school/students/import?schoolId=${school!.id}&dryRun=${dryRun}`,
        payload: body,
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'x-authorization': token },
      });
      const data = res.json().data;
      return { seconds: (performance.now() - started) / 1000, imported: data.imported, problems: data.problems.length };
    };
    const dry = await run(true);
    const real = await run(false);
    const kind = database.kind === 'pglite' ? 'PGlite' : 'PostgreSQL';
    return [
      `${ROWS.toLocaleString('en')} students from xlsx (${(file.length / 1024).toFixed(0)} KB) on ${kind}: dry run ${dry.seconds.toFixed(1)} s (${dry.problems} problems), import ${real.seconds.toFixed(1)} s (${real.imported} imported; target < 60 s)`,
    ];
  } finally {
    await app.close();
    await database.close();
    await scratch?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
