import { CERT_API, EVENT_API, ROLES } from '@aiedu/contracts';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from './platform/db/client.js';
import {
  addressRanges,
  certificateAuditors,
  certificateIssuances,
  certificateReviews,
  certificates,
  classes,
  classroomSessions,
  courseCategories,
  courseDifficulties,
  coursePackages,
  courseTags,
  customRoles,
  datasetFiles,
  datasets,
  datasetVersions,
  groupMembers,
  groups,
  periods,
  projects,
  scheduleClasses,
  scheduleCourses,
  scheduleTasks,
  scheduleTeachers,
  teachingSchedules,
  upgradeSchedules,
  ssoProviders,
  students,
  teacherCertifications,
  teachers,
  userCertificates,
} from './platform/db/schema/index.js';
import { buildAttempt, buildCheck, buildCourse } from './test/course-factories.js';
import { buildCustomer, buildSchool, buildUser, signIn } from './test/factories.js';
import { createTestApp, type TestApp } from './test/test-app.js';
import { MATRIX, QUERY_MATRIX, type Kind } from './test/isolation-matrix.js';

type QueryRow = (typeof QUERY_MATRIX)[string];
import { DESIGN } from './modules/certificate/cert-test-world.js';
import { buildEventTargets, EVENT_TABLES } from './test/event-isolation-targets.js';

/**
 * Tenant isolation, route by route: every route that names an object by id is called by each administrator of
 * customer A (and a school administrator of another school of the same customer) with the ids of customer B's
 * objects. Every answer must be a refusal and no table may change. A route with an id that is missing from the
 * matrix (test/isolation-matrix.ts) fails the test.
 */

/** One of every kind of object in a customer; `subCustomerId` is the sub-customer the sub-customer routes target. */
async function buildTargets(db: Db, customerId: string, subCustomerId: string): Promise<Record<Kind, string>> {
  const school = await buildSchool(db, customerId);
  const [klass] = await db
    .insert(classes)
    .values({ customerId, schoolId: school.id, eduStage: 'primary', grade: 3, className: 'T-3', startYear: 2024 })
    .returning();
  const teacher = await buildUser(db, { customerId, schoolId: school.id, roles: [ROLES.teacher] });
  await db.insert(teachers).values({ userId: teacher.id, customerId, schoolId: school.id });
  const student = await buildUser(db, { customerId, schoolId: school.id, roles: [ROLES.student] });
  await db.insert(students).values({ userId: student.id, customerId, schoolId: school.id, classId: klass!.id });
  const admin = await buildUser(db, { customerId, schoolId: school.id, roles: [ROLES.schoolAdmin] });
  const first = <T extends { id: string }>(rows: T[]) => rows[0]!.id;
  const course = await buildCourse(db, { customerId, ownerId: teacher.id });
  const [group] = await db
    .insert(groups)
    .values({
      customerId,
      ownerId: teacher.id,
      name: 'Their group',
      inviteCode: `G${customerId.slice(-7).toUpperCase()}`,
    })
    .returning();
  await db.insert(groupMembers).values([
    { groupId: group!.id, userId: teacher.id, customerId, role: 'owner', joinedVia: 'created' },
    { groupId: group!.id, userId: student.id, customerId, joinedVia: 'added' },
  ]);
  // A public dataset with ready data: the school's own people see it, no one of another customer does.
  const [dataset] = await db
    .insert(datasets)
    .values({ customerId, ownerId: teacher.id, name: 'Their dataset', access: 'public' })
    .returning();
  const [datasetVersion] = await db
    .insert(datasetVersions)
    .values({
      datasetId: dataset!.id,
      customerId,
      number: 1,
      state: 'ready',
      zipName: 'data.zip',
      storagePrefix: `datasets/${dataset!.id}/v1/`,
      createdBy: teacher.id,
    })
    .returning();
  await db.insert(datasetFiles).values({ versionId: datasetVersion!.id, path: 'data.csv', size: 4 });
  await db.update(datasets).set({ currentVersionId: datasetVersion!.id }).where(eq(datasets.id, dataset!.id));
  const [teaching] = await db
    .insert(teachingSchedules)
    .values({ customerId, schoolId: school.id, name: 'Their schedule', startAt: new Date('2026-09-01T08:00:00Z') })
    .returning();
  await db.insert(scheduleTeachers).values({ scheduleId: teaching!.id, userId: teacher.id });
  await db.insert(scheduleClasses).values({ scheduleId: teaching!.id, classId: klass!.id });
  await db
    .insert(scheduleCourses)
    .values({ scheduleId: teaching!.id, courseId: course.courseId, versionId: course.versionId, position: 0 });
  const [given] = await db
    .insert(scheduleTasks)
    .values({ scheduleId: teaching!.id, courseId: course.courseId, taskId: course.taskId })
    .returning();
  // Catalogue entries are the platform's (super administrators'); names are unique, so each set is its own.
  const suffix = customerId.slice(-8);
  const certs = await buildCertificateTargets(db, customerId, teacher.id, student.id, suffix);
  return {
    course: course.courseId,
    chapter: course.chapterId,
    section: course.sectionId,
    task: course.taskId,
    resource: course.resourceId,
    attempt: (await buildAttempt(db, course, student.id)).id,
    check: (await buildCheck(db, course, student.id)).id,
    category: first(
      await db
        .insert(courseCategories)
        .values({ kind: 'direction', name: `AI ${suffix}` })
        .returning(),
    ),
    difficulty: first(
      await db
        .insert(courseDifficulties)
        .values({ name: `Easy ${suffix}` })
        .returning(),
    ),
    tag: first(
      await db
        .insert(courseTags)
        .values({ name: `Python ${suffix}` })
        .returning(),
    ),
    package: first(
      await db
        .insert(coursePackages)
        .values({ name: `Pack ${suffix}`, courseIds: [course.courseId], customerIds: [customerId] })
        .returning(),
    ),
    project: first(
      await db.insert(projects).values({ customerId, ownerId: student.id, name: 'Their project' }).returning(),
    ),
    teachingSchedule: teaching!.id,
    scheduleTask: given!.id,
    classroomSession: first(
      await db
        .insert(classroomSessions)
        .values({
          scheduleId: teaching!.id,
          customerId,
          schoolId: school.id,
          status: 'teaching',
          startedBy: teacher.id,
          startedAt: new Date(),
        })
        .returning(),
    ),
    customRole: first(
      await db
        .insert(customRoles)
        .values({ name: `Readers ${suffix}`, baseRole: ROLES.customerAdmin, permissions: ['log.view'] })
        .returning(),
    ),
    group: group!.id,
    dataset: dataset!.id,
    ...certs,
    ...(await buildEventTargets(db, {
      customerId,
      schoolId: school.id,
      organiserId: admin.id,
      teacherId: teacher.id,
      studentId: student.id,
    })),
    customer: customerId,
    subCustomer: subCustomerId,
    school: school.id,
    class: klass!.id,
    teacher: teacher.id,
    student: student.id,
    adminUser: admin.id,
    range: first(await db.insert(addressRanges).values({ customerId, range: '198.51.100.0/24' }).returning()),
    provider: first(
      await db
        .insert(ssoProviders)
        .values({ customerId, type: 'idp', name: 'B', issuer: 'https://idp.b.test', clientId: 'b', clientSecret: 's' })
        .returning(),
    ),
    certification: first(
      await db
        .insert(teacherCertifications)
        .values({ userId: teacher.id, customerId, region: 'other', schoolName: 'B', documentType: 'passport' })
        .returning(),
    ),
    period: first(
      await db
        .insert(periods)
        .values({ customerId, schoolId: school.id, name: 'Autumn', startDate: '2026-09-01', endDate: '2027-01-31' })
        .returning(),
    ),
    schedule: first(
      await db
        .insert(upgradeSchedules)
        .values({ customerId, runAt: new Date('2027-08-31T00:00:00+08:00'), repeat: 'yearly' })
        .returning(),
    ),
  };
}

/** A template, an issued issuance with its numbered certificate, a pending one with its review, and an auditor. */
async function buildCertificateTargets(
  db: Db,
  customerId: string,
  teacherId: string,
  studentId: string,
  suffix: string,
) {
  const [template] = await db
    .insert(certificates)
    .values({
      customerId,
      name: 'Their award',
      type: 'activity',
      creatorId: teacherId,
      layout: 'portrait',
      design: DESIGN,
    })
    .returning();
  const issuance = (state: 'issued' | 'pending') => ({
    customerId,
    certificateId: template!.id,
    issuerId: teacherId,
    awardFor: 'Theirs',
    issueDate: '2026-11-20',
    source: 'manual' as const,
    state,
  });
  const [issued, pending] = await db
    .insert(certificateIssuances)
    .values([issuance('issued'), issuance('pending')])
    .returning();
  const holder = {
    customerId,
    certificateId: template!.id,
    userId: studentId,
    holderName: 'Theirs',
    awardFor: 'Theirs',
  };
  const [userCert] = await db
    .insert(userCertificates)
    .values([
      { ...holder, issuanceId: issued!.id, number: `T${suffix.toUpperCase()}`, design: DESIGN, issuedAt: new Date() },
      { ...holder, issuanceId: pending!.id },
    ])
    .returning();
  const [review] = await db
    .insert(certificateReviews)
    .values({ issuanceId: pending!.id, customerId, state: 'pending' })
    .returning();
  const [auditor] = await db.insert(certificateAuditors).values({ customerId, userId: teacherId }).returning();
  return {
    certificate: template!.id,
    certIssuance: issued!.id,
    userCert: userCert!.id,
    certReview: review!.id,
    certAuditor: auditor!.id,
  };
}

describe('tenant isolation matrix', () => {
  let t: TestApp;
  const targets = {} as Record<'otherCustomer' | 'siblingSubCustomer', Record<Kind, string>>;
  const callers: Record<string, string> = {};

  beforeAll(async () => {
    // Queued runs stay queued: the snapshot compares the tables before and after the calls.
    t = await createTestApp({ config: { eventRuns: { concurrency: 0, timeoutSeconds: 60 } } });
    const db = t.database.db;
    const a = await buildCustomer(db);
    const subA1 = await buildCustomer(db, { parentId: a.id });
    const subA2 = await buildCustomer(db, { parentId: a.id });
    const b = await buildCustomer(db);
    const schoolA1 = await buildSchool(db, a.id);
    const schoolA2 = await buildSchool(db, a.id);
    const schoolSub1 = await buildSchool(db, subA1.id);
    // Customer B's objects, and a sibling sub-customer's, are the targets.
    targets.otherCustomer = await buildTargets(db, b.id, (await buildCustomer(db, { parentId: b.id })).id);
    targets.siblingSubCustomer = await buildTargets(db, subA2.id, subA2.id);
    // Customer A's staff, the callers; school staff also try a sibling school of the same customer.
    const roles: [string, string, string | null, string][] = [
      ['customerAdmin', ROLES.customerAdmin, null, a.id],
      ['subCustomerAdmin', ROLES.subCustomerAdmin, null, subA1.id],
      ['subSchoolAdmin', ROLES.schoolAdmin, schoolSub1.id, subA1.id],
      ['schoolAdmin', ROLES.schoolAdmin, schoolA1.id, a.id],
      ['organizeAdmin', ROLES.organizeAdmin, schoolA1.id, a.id],
      ['teacher', ROLES.teacher, schoolA1.id, a.id],
      ['student', ROLES.student, schoolA1.id, a.id],
      ['siblingSchoolAdmin', ROLES.schoolAdmin, schoolA2.id, a.id],
    ];
    for (const [name, role, schoolId, customerId] of roles) {
      const user = await buildUser(db, { customerId, schoolId, username: name, roles: [role] });
      const code = customerId === a.id ? a.code : subA1.code;
      callers[name] = await signIn(t.app, code, name, user.password);
    }
  });
  afterAll(() => t.close());

  async function snapshot(): Promise<string> {
    const tables = [
      'periods',
      'upgrade_schedules',
      'customers',
      'customer_homes',
      'system_settings',
      'schools',
      'classes',
      'users',
      'teachers',
      'students',
      'address_ranges',
      'sso_providers',
      'teacher_certifications',
      'courses',
      'course_versions',
      'course_chapters',
      'course_sections',
      'course_tasks',
      'course_resources',
      'course_collaborators',
      'course_enrolments',
      'learning_records',
      'task_attempts',
      'experiment_checks',
      'course_class_assignments',
      'course_categories',
      'course_difficulties',
      'course_tags',
      'course_packages',
      'custom_roles',
      'experiment_copies',
      'projects',
      'project_collaborators',
      'project_versions',
      'runtimes',
      'package_operations',
      'teaching_schedules',
      'schedule_courses',
      'schedule_teachers',
      'schedule_classes',
      'schedule_students',
      'schedule_tasks',
      'schedule_task_reopenings',
      'classroom_sessions',
      'lesson_notes',
      'groups',
      'group_members',
      'group_join_requests',
      'datasets',
      'dataset_versions',
      'dataset_files',
      'certificates',
      'certificate_counters',
      'certificate_issuances',
      'user_certificates',
      'certificate_reviews',
      'certificate_auditors',
      'certificate_settings',
      ...EVENT_TABLES,
    ];
    const parts = [];
    for (const table of tables) {
      const result = await t.database.db.execute(sql.raw(`select * from ${table} order by 1`));
      parts.push(JSON.stringify((result as unknown as { rows: unknown[] }).rows));
    }
    return parts.join('\n');
  }

  it('has a row for every route that names an object by id', () => {
    const withIds = t.app.routeTable.filter((r) => r.url.includes(':id')).map((r) => `${r.method} ${r.url}`);
    expect(withIds.sort()).toEqual(Object.keys(MATRIX).sort());
  });

  it('has a row for every certificate and event route whose query (or an event body) requires an id', () => {
    type Schema = { shape?: Record<string, { isOptional(): boolean }>; options?: Schema[] } | undefined;
    const required = (schema: Schema): boolean =>
      schema?.options
        ? schema.options.some(required)
        : Object.entries(schema?.shape ?? {}).some(
            ([key, field]) => (key === 'id' || key.endsWith('Id')) && !field.isOptional(),
          );
    const certificateRoutes: string[] = Object.values(CERT_API);
    const eventRoutes: string[] = Object.values(EVENT_API);
    const withIds = t.app.routeTable
      .filter(
        (r) =>
          (certificateRoutes.includes(r.url) && required(r.schema?.querystring as Schema)) ||
          (eventRoutes.includes(r.url) &&
            (required(r.schema?.querystring as Schema) || required(r.schema?.body as Schema))),
      )
      .map((r) => `${r.method} ${r.url}`);
    const among = (urls: string[]) => withIds.filter((route) => urls.includes(route.split(' ')[1]!)).length;
    expect(among(certificateRoutes)).toBeGreaterThan(5);
    expect(among(eventRoutes)).toBeGreaterThan(30);
    const rows = Object.keys(QUERY_MATRIX).map((key) => key.split('?')[0]!);
    expect(withIds.filter((route) => !rows.includes(route))).toEqual([]);
  });

  it.each([
    ['otherCustomer', 'customer B'],
    ['siblingSubCustomer', 'a sibling sub-customer'],
  ] as const)(
    'refuses every caller of customer A on every object of %s, changing nothing',
    async (target, _label) => {
      const ids = targets[target];
      // The customer administrator of A rightly reaches its own sub-customers; everyone else must be refused there too.
      const tried = Object.entries(callers).filter(([name]) => target === 'otherCustomer' || name !== 'customerAdmin');
      const before = await snapshot();
      const rows: [string, { kind: Kind; body?: object; query?: string; headers?: QueryRow['headers'] }][] = [
        ...Object.entries(MATRIX),
        ...Object.entries(QUERY_MATRIX),
      ];
      for (const [route, { kind, body, query, headers }] of rows) {
        const [method, url] = route.split(' ') as ['GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', string];
        const payload = JSON.parse(JSON.stringify(body ?? {}).replaceAll(':id', ids[kind])) as object;
        for (const [caller, token] of tried) {
          const res = await t.app.inject({
            method,
            url: url.replaceAll(':id', ids[kind]) + (query ?? ''),
            payload,
            headers: { ...headers?.(ids[kind]), 'x-authorization': token },
          });
          expect({ route, caller, target, refused: [403, 404].includes(res.statusCode) }).toEqual({
            route,
            caller,
            target,
            refused: true,
          });
        }
      }
      expect(await snapshot()).toBe(before);
    },
    120_000,
  );

  it("answers 1004 to visitors and customer A's people on the public event routes, listing none of B's events", async () => {
    const ids = targets.otherCustomer;
    const open = t.app.routeTable
      .filter((r) => r.url.startsWith(EVENT_API.events) && !r.permission && r.auth !== 'required')
      .map((r) => `${r.method} ${r.url}`);
    const rows = Object.entries(QUERY_MATRIX).filter(([route]) => open.includes(route.split('?')[0]!));
    expect(rows.length).toBeGreaterThanOrEqual(5);
    for (const token of [undefined, ...Object.values(callers)]) {
      const headers = token ? { 'x-authorization': token } : {};
      for (const [route, { kind }] of rows) {
        const [method, url] = route.split(' ') as ['GET', string];
        const res = await t.app.inject({ method, url: url.replaceAll(':id', ids[kind]), headers });
        expect({ route, code: res.json().errorCode }).toEqual({ route, code: '1004' });
      }
      const list = await t.app.inject({ method: 'GET', url: `${EVENT_API.events}?size=100`, headers });
      expect(list.json().errorCode).toBe('1000');
      expect(list.body.includes(ids.event)).toBe(false);
    }
  });

  it.each([
    ['otherCustomer', 'customer B'],
    ['siblingSubCustomer', 'a sibling sub-customer'],
  ] as const)('lists, searches and counts nothing of %s for any caller of customer A', async (target, _label) => {
    // Custom roles are the platform's, like the course catalogue: every administrator who assigns roles reads them.
    const hidden = Object.entries(targets[target]).flatMap(([kind, id]) => (kind === 'customRole' ? [] : [id]));
    const reads = t.app.routeTable.filter(
      (r) => r.method === 'GET' && !r.url.includes(':') && (r.auth === 'required' || r.permission),
    );
    expect(reads.length).toBeGreaterThan(10);
    const tried = Object.entries(callers).filter(([name]) => target === 'otherCustomer' || name !== 'customerAdmin');
    for (const route of reads) {
      for (const [caller, token] of tried) {
        const res = await t.app.inject({ method: 'GET', url: route.url, headers: { 'x-authorization': token } });
        const leaked = hidden.filter((id) => res.body.includes(id));
        expect({ route: route.url, caller, target, leaked }).toEqual({ route: route.url, caller, target, leaked: [] });
      }
    }
  });
});
