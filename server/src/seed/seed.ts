import { ROLES, type Language } from '@aiedu/contracts';
import { and, count, eq, sql } from 'drizzle-orm';
import { ConfigError } from '../config.js';
import type { Db } from '../platform/db/client.js';
import {
  classes,
  courseCategories,
  courseDifficulties,
  customers,
  schools,
  students,
  teachers,
  users,
} from '../platform/db/schema/index.js';
import { hashPassword } from '../platform/passwords.js';
import type { StarterOwner } from '../modules/course/starter.service.js';
import { insertDemoEvent } from '../modules/event/event.seed.js';
import { startYearForGrade } from './school-year.js';

export const DEMO = {
  superAdmin: { username: 'super', password: 'Super@2026' },
  customers: [
    { code: 'demo2026', name: 'Demo Education Bureau', schoolName: 'Demo Primary School' },
    { code: 'other2026', name: 'Other Education Bureau', schoolName: 'Other Primary School' },
  ],
  customerAdmin: { username: 'admin', password: 'Admin@2026' },
  schoolAdmin: { username: 'school1', password: 'School@2026' },
  teacher: { username: 'teacher1', password: 'Teacher@2026' },
  className: 'Grade 4 Class 1',
  studentPassword: 'Student@2026',
  studentCount: 30,
  courseDirections: ['Artificial intelligence', 'Programming', 'Robotics'],
  courseStages: ['Primary school', 'Junior high', 'Senior high'],
  courseDifficulties: ['Beginner', 'Intermediate', 'Advanced'],
} as const;

export type SeedResult = 'demo' | 'production' | 'skipped';

/** The language each demo customer's starter courses are seeded in. */
const DEMO_STARTER_LANGUAGES: Record<(typeof DEMO.customers)[number]['code'], Language> = {
  demo2026: 'en',
  other2026: 'zh_CHS',
};

/** The demo teachers who own the seeded starter courses, with their customer's language. */
export async function demoStarterOwners(db: Db): Promise<StarterOwner[]> {
  const owners: StarterOwner[] = [];
  for (const spec of DEMO.customers) {
    const [row] = await db
      .select({ userId: users.id, customerId: users.customerId, roles: users.roles })
      .from(users)
      .innerJoin(customers, eq(customers.id, users.customerId))
      .where(and(eq(customers.code, spec.code), eq(users.username, DEMO.teacher.username)));
    if (!row) continue;
    owners.push({
      auth: {
        userId: row.userId,
        customerId: row.customerId,
        roles: row.roles,
        sessionId: '',
        mustChangePassword: false,
      },
      language: DEMO_STARTER_LANGUAGES[spec.code],
    });
  }
  return owners;
}

/**
 * On the first start (no user at all) creates the super administrator and, unless `seedDemo` is off,
 * the demo customers. Runs in one transaction: a failure leaves the database empty for the next try.
 */
/** Arbitrary but fixed key of the PostgreSQL advisory lock held while seeding. */
const SEED_LOCK = 7_061_202_601;

export async function seedOnFirstStart(
  db: Db,
  options: { seedDemo: boolean; superAdminPassword: string | undefined; today?: Date },
): Promise<SeedResult> {
  const [{ n } = { n: 0 }] = await db.select({ n: count() }).from(users);
  if (n > 0) return 'skipped';
  if (!options.seedDemo && !options.superAdminPassword) {
    throw new ConfigError(
      'SUPER_ADMIN_PASSWORD is required: the database is empty and SEED_DEMO=false, so the super administrator must be created with a chosen password',
    );
  }
  const superPassword = options.superAdminPassword ?? DEMO.superAdmin.password;
  const superHash = await hashPassword(superPassword);
  const demoRows = options.seedDemo ? await buildDemoHashes() : undefined;

  const seeded = await db.transaction(async (tx) => {
    // Processes started together on an empty database: one seeds, the others find it seeded and go on.
    await tx.execute(sql`select pg_advisory_xact_lock(${SEED_LOCK})`);
    const [{ n: now } = { n: 0 }] = await tx.select({ n: count() }).from(users);
    if (now > 0) return false;
    await tx.insert(users).values({
      username: DEMO.superAdmin.username,
      passwordHash: superHash,
      roles: [ROLES.super],
      realName: 'Super Administrator',
    });
    if (!demoRows) return true;
    for (const spec of DEMO.customers) {
      await insertDemoCustomer(tx as unknown as Db, spec, demoRows, options.today ?? new Date());
    }
    await insertDemoCourseCatalogue(tx as unknown as Db);
    return true;
  });
  if (!seeded) return 'skipped';
  return options.seedDemo ? 'demo' : 'production';
}

interface DemoHashes {
  admin: string[];
  school: string[];
  teacher: string[];
  students: string[][];
}

/** Every account gets its own salt, so equal passwords never share a hash. */
async function buildDemoHashes(): Promise<DemoHashes> {
  const many = (password: string, n: number) => Promise.all(Array.from({ length: n }, () => hashPassword(password)));
  const perCustomer = DEMO.customers.length;
  const [admin, school, teacher, studentHashes] = await Promise.all([
    many(DEMO.customerAdmin.password, perCustomer),
    many(DEMO.schoolAdmin.password, perCustomer),
    many(DEMO.teacher.password, perCustomer),
    many(DEMO.studentPassword, perCustomer * DEMO.studentCount),
  ]);
  const students = DEMO.customers.map((_, i) =>
    studentHashes.slice(i * DEMO.studentCount, (i + 1) * DEMO.studentCount),
  );
  return { admin, school, teacher, students };
}

async function insertDemoCustomer(db: Db, spec: (typeof DEMO.customers)[number], hashes: DemoHashes, today: Date) {
  const i = DEMO.customers.indexOf(spec);
  const [customer] = await db
    .insert(customers)
    .values({ code: spec.code, name: spec.name, schoolQuota: 10, teacherQuota: 200, studentQuota: 5000 })
    .returning();
  const customerId = customer!.id;
  const [school] = await db
    .insert(schools)
    .values({ customerId, name: spec.schoolName, eduStages: ['primary'] })
    .returning();
  const schoolId = school!.id;
  const [admin] = await db
    .insert(users)
    .values({
      customerId,
      username: DEMO.customerAdmin.username,
      passwordHash: hashes.admin[i]!,
      roles: [ROLES.customerAdmin],
      realName: 'Customer Administrator',
    })
    .returning({ id: users.id });
  if (spec.code === 'demo2026') await insertDemoEvent(db, customerId, admin!.id, today);
  await db.insert(users).values({
    customerId,
    schoolId,
    username: DEMO.schoolAdmin.username,
    passwordHash: hashes.school[i]!,
    roles: [ROLES.schoolAdmin],
    realName: 'School Administrator',
  });
  const [teacher] = await db
    .insert(users)
    .values({
      customerId,
      schoolId,
      username: DEMO.teacher.username,
      passwordHash: hashes.teacher[i]!,
      roles: [ROLES.teacher],
      realName: 'Teacher One',
    })
    .returning();
  await db.insert(teachers).values({ userId: teacher!.id, customerId, schoolId, certified: true });
  const [klass] = await db
    .insert(classes)
    .values({
      customerId,
      schoolId,
      eduStage: 'primary',
      grade: 4,
      className: DEMO.className,
      startYear: startYearForGrade(4, today),
    })
    .returning();
  const studentUsers = await db
    .insert(users)
    .values(
      hashes.students[i]!.map((passwordHash, n) => ({
        customerId,
        schoolId,
        username: `student${String(n + 1).padStart(2, '0')}`,
        passwordHash,
        roles: [ROLES.student],
        realName: `Student ${String(n + 1).padStart(2, '0')}`,
      })),
    )
    .returning({ id: users.id, username: users.username });
  await db
    .insert(students)
    .values(
      studentUsers.map((u) => ({ userId: u.id, customerId, schoolId, classId: klass!.id, schoolNumber: u.username })),
    );
}

/** The course centre's filters: directions, stages and difficulties a super administrator would set up. */
async function insertDemoCourseCatalogue(db: Db) {
  await db
    .insert(courseCategories)
    .values([
      ...DEMO.courseDirections.map((name) => ({ kind: 'direction' as const, name })),
      ...DEMO.courseStages.map((name) => ({ kind: 'stage' as const, name })),
    ]);
  await db.insert(courseDifficulties).values(DEMO.courseDifficulties.map((name) => ({ name })));
}
