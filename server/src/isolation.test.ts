import { ROLES } from '@aiedu/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from './platform/db/client.js';
import {
  addressRanges,
  classes,
  classroomSessions,
  courseCategories,
  courseDifficulties,
  coursePackages,
  courseTags,
  customRoles,
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
} from './platform/db/schema/index.js';
import { buildAttempt, buildCheck, buildCourse } from './test/course-factories.js';
import { b64, buildCustomer, buildSchool, buildUser, signIn } from './test/factories.js';
import { createTestApp, type TestApp } from './test/test-app.js';

/**
 * Tenant isolation, route by route: every route that names an object by id is called by each administrator of
 * customer A (and a school administrator of another school of the same customer) with the ids of customer B's
 * objects. Every answer must be a refusal and no table may change. A route with an id that is missing from the
 * matrix below fails the test.
 */
type Kind =
  | 'customer'
  | 'subCustomer'
  | 'school'
  | 'class'
  | 'teacher'
  | 'student'
  | 'range'
  | 'provider'
  | 'certification'
  | 'period'
  | 'schedule'
  | 'adminUser'
  | 'course'
  | 'chapter'
  | 'section'
  | 'task'
  | 'resource'
  | 'attempt'
  | 'check'
  | 'category'
  | 'difficulty'
  | 'tag'
  | 'package'
  | 'project'
  | 'teachingSchedule'
  | 'scheduleTask'
  | 'classroomSession'
  | 'customRole';

const C = '/api/v1/courses';
const QUIZ = {
  title: 'Taken',
  questions: [{ id: 'q', type: 'single', prompt: 'p', options: ['a', 'b'], answer: [0] }],
};
const UNKNOWN = '0192f7a0-0000-7000-8000-000000000000';

const MATRIX: Record<string, { kind: Kind; body?: object; query?: string }> = {
  'PUT /api/v1/admin_super/organizes/:id': { kind: 'customer', body: { name: 'Taken' } },
  'PUT /api/v1/admin_super/organizes/:id/status': { kind: 'customer', body: { enabled: false } },
  'GET /api/v1/admin_super/organizes/:id/modules': { kind: 'customer' },
  'PUT /api/v1/admin_super/organizes/:id/modules': { kind: 'customer', body: { teacher: [], student: [] } },
  'PUT /api/v1/admin_organize/schools/:id': { kind: 'school', body: { name: 'Taken' } },
  'PUT /api/v1/admin_organize/schools/:id/status': { kind: 'school', body: { enabled: false } },
  'PUT /gw/admin/api/v1/school/classes/:id/dismiss': { kind: 'class' },
  'DELETE /gw/admin/api/v1/school/classes/:id': { kind: 'class' },
  'PUT /api/v1/admin_organize/teachers/:id/status': { kind: 'teacher', body: { enabled: false } },
  'PUT /api/v1/admin_organize/teachers/:id/password': { kind: 'teacher', body: { password: b64('Hacked2026') } },
  'PUT /api/v1/admin_organize/teachers/:id': { kind: 'teacher', body: { realName: 'Taken' } },
  'GET /api/v1/student/:id': { kind: 'student' },
  'GET /api/v1/classes/:id/stats': { kind: 'class' },
  'PUT /api/v1/student/:id/status': { kind: 'student', body: { enabled: false } },
  'PUT /api/v1/student/:id/password': { kind: 'student', body: { password: b64('Hacked2026') } },
  'PUT /gw/admin/api/v1/school/teachers/:id/status': { kind: 'teacher', body: { enabled: false } },
  'PUT /gw/admin/api/v1/school/teachers/:id/password': { kind: 'teacher', body: { password: b64('Hacked2026') } },
  'PUT /gw/admin/api/v1/school/students/:id/status': { kind: 'student', body: { enabled: false } },
  'PUT /gw/admin/api/v1/school/students/:id/password': { kind: 'student', body: { password: b64('Hacked2026') } },
  'PUT /gw/admin/api/v1/school/teachers/:id': { kind: 'teacher', body: { realName: 'Taken' } },
  'PUT /gw/admin/api/v1/school/students/:id': { kind: 'student', body: { realName: 'Taken' } },
  'PUT /api/v1/admin/sub-customers/:id': { kind: 'subCustomer', body: { name: 'Taken' } },
  'PUT /api/v1/admin/sub-customers/:id/status': { kind: 'subCustomer', body: { enabled: false } },
  'PUT /api/v1/admin_organize/periods/:id': {
    kind: 'period',
    body: { name: 'Taken', startDate: '2026-09-01', endDate: '2027-01-31' },
  },
  'DELETE /api/v1/admin_organize/periods/:id': { kind: 'period' },
  'DELETE /gw/admin/api/v1/school/classes/upgrade-schedules/:id': { kind: 'schedule' },
  'PUT /api/v1/user/:id': { kind: 'adminUser', body: { realName: 'Taken' } },
  'PUT /api/v1/user/:id/status': { kind: 'adminUser', body: { enabled: false } },
  'PUT /api/v1/user/:id/password': { kind: 'adminUser', body: { password: b64('Hacked2026') } },
  'DELETE /api/v1/user/:id': { kind: 'adminUser' },
  'PUT /api/v1/role/:id': { kind: 'customRole', body: { name: 'Taken' } },
  'PUT /api/v1/role/:id/status': { kind: 'customRole', body: { enabled: false } },
  'DELETE /api/v1/role/:id': { kind: 'customRole' },
  'DELETE /gw/api/v1/sys/shield/ranges/:id': { kind: 'range' },
  'DELETE /gw/api/v1/sys/sso/providers/:id': { kind: 'provider' },
  'PUT /gw/api/v1/user/teacher/:id/review': { kind: 'certification', body: { status: 'certified' } },
  [`GET ${C}/:id`]: { kind: 'course' },
  [`GET ${C}/:id/edit`]: { kind: 'course' },
  [`PUT ${C}/:id`]: { kind: 'course', body: { name: 'Taken' } },
  [`PUT ${C}/:id/cover`]: { kind: 'course' },
  [`PUT ${C}/:id/collaborators`]: { kind: 'course', body: { usernames: [] } },
  [`GET ${C}/:id/collaborators/candidates`]: { kind: 'course' },
  [`GET ${C}/:id/versions`]: { kind: 'course' },
  [`PUT ${C}/:id/outline`]: { kind: 'course', body: { chapters: [] } },
  [`POST ${C}/:id/publish`]: { kind: 'course' },
  [`POST ${C}/:id/revision`]: { kind: 'course' },
  [`POST ${C}/:id/abandon-revision`]: { kind: 'course' },
  [`POST ${C}/:id/close`]: { kind: 'course' },
  [`POST ${C}/:id/learners/move`]: { kind: 'course', body: {} },
  [`POST ${C}/:id/classes`]: { kind: 'course', body: { classId: '0192f7a0-0000-7000-8000-000000000000' } },
  [`GET ${C}/:id/results`]: { kind: 'course' },
  [`GET ${C}/:id/experiment-copies`]: { kind: 'course' },
  [`POST ${C}/:id/chapters`]: { kind: 'course', body: { title: 'Taken' } },
  [`POST ${C}/:id/join`]: { kind: 'course' },
  [`GET ${C}/:id/record`]: { kind: 'course' },
  [`PUT ${C}/:id/taken-down`]: { kind: 'course', body: { takenDown: true } },
  [`PUT ${C}/chapters/:id`]: { kind: 'chapter', body: { title: 'Taken' } },
  [`DELETE ${C}/chapters/:id`]: { kind: 'chapter' },
  [`POST ${C}/chapters/:id/sections`]: { kind: 'chapter', body: { title: 'Taken' } },
  [`PUT ${C}/sections/:id`]: { kind: 'section', body: { title: 'Taken' } },
  [`DELETE ${C}/sections/:id`]: { kind: 'section' },
  [`POST ${C}/sections/:id/tasks`]: { kind: 'section', body: QUIZ },
  [`PUT ${C}/sections/:id/tasks/order`]: { kind: 'section', body: { ids: [] } },
  [`GET ${C}/sections/:id/learn`]: { kind: 'section' },
  [`POST ${C}/sections/:id/record`]: { kind: 'section', body: { completed: true } },
  [`PUT ${C}/tasks/:id`]: { kind: 'task', body: QUIZ },
  [`DELETE ${C}/tasks/:id`]: { kind: 'task' },
  [`POST ${C}/tasks/:id/attempts`]: { kind: 'task', body: { answers: [] } },
  [`POST ${C}/tasks/:id/experiment/start`]: { kind: 'task', body: { questionId: 'q' } },
  [`POST ${C}/tasks/:id/experiment/check`]: { kind: 'task', body: { questionId: 'q' } },
  [`GET ${C}/tasks/:id/experiment/check`]: { kind: 'task', query: '?questionId=q' },
  [`POST ${C}/tasks/:id/experiment/check-trial`]: { kind: 'task', body: { questionId: 'q', against: 'template' } },
  [`GET ${C}/checks/:id`]: { kind: 'check' },
  [`DELETE ${C}/resources/:id`]: { kind: 'resource' },
  [`GET ${C}/resources/:id/url`]: { kind: 'resource' },
  [`PUT ${C}/attempts/:id/grade`]: { kind: 'attempt', body: { score: 100 } },
  [`PUT ${C}/categories/:id`]: { kind: 'category', body: { name: 'Taken', kind: 'stage' } },
  [`DELETE ${C}/categories/:id`]: { kind: 'category' },
  [`PUT ${C}/difficulties/:id`]: { kind: 'difficulty', body: { name: 'Taken' } },
  [`DELETE ${C}/difficulties/:id`]: { kind: 'difficulty' },
  [`PUT ${C}/tags/:id`]: { kind: 'tag', body: { name: 'Taken' } },
  [`DELETE ${C}/tags/:id`]: { kind: 'tag' },
  [`PUT ${C}/packages/:id`]: { kind: 'package', body: { name: 'Taken', courseIds: [] } },
  [`PUT ${C}/packages/:id/customers`]: { kind: 'package', body: { customerIds: [] } },
  [`DELETE ${C}/packages/:id`]: { kind: 'package' },
  'GET /api/v1/schedules/:id': { kind: 'teachingSchedule' },
  'PUT /api/v1/schedules/:id': { kind: 'teachingSchedule', body: { name: 'Taken' } },
  'POST /api/v1/schedules/:id/start': { kind: 'teachingSchedule' },
  'POST /api/v1/schedules/:id/finish': { kind: 'teachingSchedule' },
  'DELETE /api/v1/schedules/:id': { kind: 'teachingSchedule' },
  'GET /api/v1/schedules/:id/tasks': { kind: 'teachingSchedule' },
  'GET /api/v1/schedules/:id/students': { kind: 'teachingSchedule' },
  'GET /api/v1/schedules/:id/students/export': { kind: 'teachingSchedule' },
  'GET /api/v1/schedules/:id/statistics': { kind: 'teachingSchedule' },
  'POST /api/v1/schedules/:id/tasks': { kind: 'teachingSchedule', body: { taskId: UNKNOWN } },
  'PUT /api/v1/schedules/tasks/:id': { kind: 'scheduleTask', body: { dueAt: null } },
  'DELETE /api/v1/schedules/tasks/:id': { kind: 'scheduleTask' },
  'POST /api/v1/schedules/tasks/:id/reopen': { kind: 'scheduleTask', body: { userId: UNKNOWN, dueAt: null } },
  'GET /api/v1/schedules/tasks/:id/submissions': { kind: 'scheduleTask' },
  'PUT /api/v1/schedules/tasks/:id/scores': {
    kind: 'scheduleTask',
    body: { scores: [{ attemptId: UNKNOWN, score: 1 }] },
  },
  'GET /api/v1/schedules/:id/classroom': { kind: 'teachingSchedule' },
  'POST /api/v1/schedules/:id/classroom/sessions': { kind: 'teachingSchedule' },
  'GET /api/v1/schedules/:id/classroom/roster': { kind: 'teachingSchedule' },
  'POST /api/v1/schedules/:id/classroom/presence': { kind: 'teachingSchedule', body: { sectionId: null } },
  'GET /api/v1/schedules/:id/classroom/notes': { kind: 'teachingSchedule' },
  'PUT /api/v1/schedules/:id/classroom/notes': { kind: 'teachingSchedule', body: { sectionId: UNKNOWN, body: 'x' } },
  'GET /api/v1/schedules/:id/classroom/section': { kind: 'teachingSchedule' },
  'GET /api/v1/schedules/:id/classroom/resource': { kind: 'teachingSchedule' },
  'POST /api/v1/schedules/sessions/:id/start': { kind: 'classroomSession' },
  'POST /api/v1/schedules/sessions/:id/finish': { kind: 'classroomSession' },
  'PUT /api/v1/schedules/sessions/:id/section': { kind: 'classroomSession', body: { sectionId: UNKNOWN } },
  'PUT /api/v1/schedules/sessions/:id/mode': { kind: 'classroomSession', body: { mode: 'free' } },
  'GET /gw/api/v1/projects/:id': { kind: 'project' },
  'PUT /gw/api/v1/projects/:id': { kind: 'project', body: { name: 'Taken' } },
  'DELETE /gw/api/v1/projects/:id': { kind: 'project' },
  'POST /gw/api/v1/projects/:id/fork': { kind: 'project' },
  'GET /gw/api/v1/projects/:id/collaborators': { kind: 'project' },
  'PUT /gw/api/v1/projects/:id/collaborators': { kind: 'project', body: { usernames: [] } },
  'GET /gw/api/v1/projects/:id/versions': { kind: 'project' },
  'POST /gw/api/v1/projects/:id/versions': {
    kind: 'project',
    body: { major: 9, minor: 0, revision: 0, description: 'Taken' },
  },
  'POST /gw/api/v1/projects/:id/versions/restore': { kind: 'project', body: { versionId: UNKNOWN } },
  'GET /gw/api/v1/projects/:id/versions/compare': { kind: 'project' },
  'GET /gw/api/v1/projects/:id/files': { kind: 'project' },
  'POST /gw/api/v1/projects/:id/files': { kind: 'project', body: { name: 'taken.py', kind: 'file' } },
  'DELETE /gw/api/v1/projects/:id/files': { kind: 'project' },
  'GET /gw/api/v1/projects/:id/files/content': { kind: 'project' },
  'PUT /gw/api/v1/projects/:id/files/content': { kind: 'project', body: { path: 'main.ipynb', content: '' } },
  'PUT /gw/api/v1/projects/:id/files/rename': { kind: 'project', body: { path: 'main.ipynb', name: 'x.ipynb' } },
  'PUT /gw/api/v1/projects/:id/files/move': { kind: 'project', body: { path: 'main.ipynb', toFolder: '' } },
  'POST /gw/api/v1/projects/:id/files/copy': { kind: 'project', body: { path: 'main.ipynb' } },
  'GET /gw/api/v1/projects/:id/storage': { kind: 'project' },
  'POST /gw/api/v1/projects/:id/files/upload': { kind: 'project' },
  'GET /gw/api/v1/projects/:id/files/download': { kind: 'project' },
  'GET /gw/api/v1/projects/:id/packages': { kind: 'project' },
  'GET /gw/api/v1/projects/:id/packages/operations': { kind: 'project' },
  'POST /gw/api/v1/projects/:id/packages/install': { kind: 'project', body: { name: 'taken' } },
  'POST /gw/api/v1/projects/:id/packages/uninstall': { kind: 'project', body: { name: 'taken' } },
  'POST /gw/api/v1/projects/:id/packages/operations/cancel': { kind: 'project', body: { operationId: UNKNOWN } },
  'GET /gw/api/v1/projects/:id/runtime': { kind: 'project' },
  'POST /gw/api/v1/projects/:id/runtime/start': { kind: 'project' },
  'POST /gw/api/v1/projects/:id/runtime/stop': { kind: 'project' },
  'POST /gw/api/v1/projects/:id/runtime/keepOnline': { kind: 'project' },
  'GET /gw/api/v1/runtime/:id/*': { kind: 'project' },
  'POST /gw/api/v1/runtime/:id/*': { kind: 'project' },
  'PUT /gw/api/v1/runtime/:id/*': { kind: 'project' },
  'PATCH /gw/api/v1/runtime/:id/*': { kind: 'project' },
  'DELETE /gw/api/v1/runtime/:id/*': { kind: 'project' },
};

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

describe('tenant isolation matrix', () => {
  let t: TestApp;
  const targets = {} as Record<'otherCustomer' | 'siblingSubCustomer', Record<Kind, string>>;
  const callers: Record<string, string> = {};

  beforeAll(async () => {
    t = await createTestApp();
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
      for (const [route, { kind, body, query }] of Object.entries(MATRIX)) {
        const [method, url] = route.split(' ') as ['GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', string];
        for (const [caller, token] of tried) {
          const res = await t.app.inject({
            method,
            url: url.replace(':id', ids[kind]) + (query ?? ''),
            payload: body ?? {},
            headers: { 'x-authorization': token },
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
