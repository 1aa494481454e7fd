import { ROLES } from '@aiedu/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addressRanges,
  classes,
  courseCategories,
  courseDifficulties,
  coursePackages,
  courseTags,
  projects,
  ssoProviders,
  students,
  teacherCertifications,
  teachers,
} from './platform/db/schema/index.js';
import { buildAttempt, buildCourse } from './test/course-factories.js';
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
  | 'school'
  | 'class'
  | 'teacher'
  | 'student'
  | 'range'
  | 'provider'
  | 'certification'
  | 'course'
  | 'chapter'
  | 'section'
  | 'task'
  | 'resource'
  | 'attempt'
  | 'category'
  | 'difficulty'
  | 'tag'
  | 'package'
  | 'project';

const C = '/api/v1/courses';
const QUIZ = {
  title: 'Taken',
  questions: [{ id: 'q', type: 'single', prompt: 'p', options: ['a', 'b'], answer: [0] }],
};

const UNKNOWN = '0192f7a0-0000-7000-8000-000000000000';

const MATRIX: Record<string, { kind: Kind; body?: object }> = {
  'PUT /api/v1/admin_super/organizes/:id': { kind: 'customer', body: { name: 'Taken' } },
  'PUT /api/v1/admin_super/organizes/:id/status': { kind: 'customer', body: { enabled: false } },
  'PUT /api/v1/admin_organize/schools/:id': { kind: 'school', body: { name: 'Taken' } },
  'PUT /api/v1/admin_organize/schools/:id/status': { kind: 'school', body: { enabled: false } },
  'PUT /gw/admin/api/v1/school/classes/:id/dismiss': { kind: 'class' },
  'PUT /gw/admin/api/v1/school/teachers/:id/status': { kind: 'teacher', body: { enabled: false } },
  'PUT /gw/admin/api/v1/school/teachers/:id/password': { kind: 'teacher', body: { password: b64('Hacked2026') } },
  'PUT /gw/admin/api/v1/school/students/:id/status': { kind: 'student', body: { enabled: false } },
  'PUT /gw/admin/api/v1/school/students/:id/password': { kind: 'student', body: { password: b64('Hacked2026') } },
  'DELETE /gw/api/v1/sys/shield/ranges/:id': { kind: 'range' },
  'DELETE /gw/api/v1/sys/sso/providers/:id': { kind: 'provider' },
  'PUT /gw/api/v1/user/teacher/:id/review': { kind: 'certification', body: { status: 'certified' } },
  [`GET ${C}/:id`]: { kind: 'course' },
  [`GET ${C}/:id/edit`]: { kind: 'course' },
  [`PUT ${C}/:id`]: { kind: 'course', body: { name: 'Taken' } },
  [`PUT ${C}/:id/cover`]: { kind: 'course' },
  [`PUT ${C}/:id/collaborators`]: { kind: 'course', body: { usernames: [] } },
  [`POST ${C}/:id/publish`]: { kind: 'course' },
  [`POST ${C}/:id/revision`]: { kind: 'course' },
  [`POST ${C}/:id/abandon-revision`]: { kind: 'course' },
  [`POST ${C}/:id/close`]: { kind: 'course' },
  [`POST ${C}/:id/learners/move`]: { kind: 'course', body: {} },
  [`POST ${C}/:id/classes`]: { kind: 'course', body: { classId: '0192f7a0-0000-7000-8000-000000000000' } },
  [`GET ${C}/:id/results`]: { kind: 'course' },
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
  [`GET ${C}/sections/:id/learn`]: { kind: 'section' },
  [`POST ${C}/sections/:id/record`]: { kind: 'section', body: { completed: true } },
  [`PUT ${C}/tasks/:id`]: { kind: 'task', body: QUIZ },
  [`DELETE ${C}/tasks/:id`]: { kind: 'task' },
  [`POST ${C}/tasks/:id/attempts`]: { kind: 'task', body: { answers: [] } },
  [`DELETE ${C}/resources/:id`]: { kind: 'resource' },
  [`GET ${C}/resources/:id/url`]: { kind: 'resource' },
  [`PUT ${C}/attempts/:id/grade`]: { kind: 'attempt', body: { score: 100 } },
  [`DELETE ${C}/categories/:id`]: { kind: 'category' },
  [`DELETE ${C}/difficulties/:id`]: { kind: 'difficulty' },
  [`DELETE ${C}/tags/:id`]: { kind: 'tag' },
  [`PUT ${C}/packages/:id/customers`]: { kind: 'package', body: { customerIds: [] } },
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
  'GET /gw/api/v1/runtime/:id/*': { kind: 'project' },
  'POST /gw/api/v1/runtime/:id/*': { kind: 'project' },
  'PUT /gw/api/v1/runtime/:id/*': { kind: 'project' },
  'PATCH /gw/api/v1/runtime/:id/*': { kind: 'project' },
  'DELETE /gw/api/v1/runtime/:id/*': { kind: 'project' },
};

describe('tenant isolation matrix', () => {
  let t: TestApp;
  const ids = {} as Record<Kind, string>;
  const callers: Record<string, string> = {};

  beforeAll(async () => {
    t = await createTestApp();
    const db = t.database.db;
    const a = await buildCustomer(db);
    const b = await buildCustomer(db);
    const schoolA1 = await buildSchool(db, a.id);
    const schoolA2 = await buildSchool(db, a.id);
    const schoolB = await buildSchool(db, b.id);
    // Customer B's objects, the targets.
    ids.customer = b.id;
    ids.school = schoolB.id;
    const [classB] = await db
      .insert(classes)
      .values({
        customerId: b.id,
        schoolId: schoolB.id,
        eduStage: 'primary',
        grade: 3,
        className: 'B-3',
        startYear: 2024,
      })
      .returning();
    ids.class = classB!.id;
    const teacherB = await buildUser(db, { customerId: b.id, schoolId: schoolB.id, roles: [ROLES.teacher] });
    await db.insert(teachers).values({ userId: teacherB.id, customerId: b.id, schoolId: schoolB.id });
    ids.teacher = teacherB.id;
    const studentB = await buildUser(db, { customerId: b.id, schoolId: schoolB.id, roles: [ROLES.student] });
    await db
      .insert(students)
      .values({ userId: studentB.id, customerId: b.id, schoolId: schoolB.id, classId: classB!.id });
    ids.student = studentB.id;
    ids.range = (
      await db.insert(addressRanges).values({ customerId: b.id, range: '198.51.100.0/24' }).returning()
    )[0]!.id;
    ids.provider = (
      await db
        .insert(ssoProviders)
        .values({
          customerId: b.id,
          type: 'idp',
          name: 'B',
          issuer: 'https://idp.b.test',
          clientId: 'b',
          clientSecret: 's',
        })
        .returning()
    )[0]!.id;
    ids.certification = (
      await db
        .insert(teacherCertifications)
        .values({ userId: teacherB.id, customerId: b.id, region: 'other', schoolName: 'B', documentType: 'passport' })
        .returning()
    )[0]!.id;
    const course = await buildCourse(db, { customerId: b.id, ownerId: teacherB.id });
    ids.course = course.courseId;
    ids.chapter = course.chapterId;
    ids.section = course.sectionId;
    ids.task = course.taskId;
    ids.resource = course.resourceId;
    ids.attempt = (await buildAttempt(db, course, studentB.id)).id;
    ids.category = (await db.insert(courseCategories).values({ kind: 'direction', name: 'AI' }).returning())[0]!.id;
    ids.difficulty = (await db.insert(courseDifficulties).values({ name: 'Easy' }).returning())[0]!.id;
    ids.tag = (await db.insert(courseTags).values({ name: 'Python' }).returning())[0]!.id;
    ids.package = (
      await db
        .insert(coursePackages)
        .values({ name: 'B pack', courseIds: [course.courseId], customerIds: [b.id] })
        .returning()
    )[0]!.id;
    ids.project = (
      await db.insert(projects).values({ customerId: b.id, ownerId: studentB.id, name: 'B project' }).returning()
    )[0]!.id;
    // Customer A's staff, the callers; a school administrator also tries a sibling school of the same customer.
    const roles: [string, string, string | null][] = [
      ['customerAdmin', ROLES.customerAdmin, null],
      ['schoolAdmin', ROLES.schoolAdmin, schoolA1.id],
      ['organizeAdmin', ROLES.organizeAdmin, schoolA1.id],
      ['teacher', ROLES.teacher, schoolA1.id],
      ['student', ROLES.student, schoolA1.id],
    ];
    for (const [name, role, schoolId] of roles) {
      const user = await buildUser(db, { customerId: a.id, schoolId, username: name, roles: [role] });
      callers[name] = await signIn(t.app, a.code, name, user.password);
    }
    const sibling = await buildUser(db, {
      customerId: a.id,
      schoolId: schoolA2.id,
      username: 'siblingAdmin',
      roles: [ROLES.schoolAdmin],
    });
    callers.siblingSchoolAdmin = await signIn(t.app, a.code, 'siblingAdmin', sibling.password);
  });
  afterAll(() => t.close());

  async function snapshot(): Promise<string> {
    const tables = [
      'customers',
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
      'course_class_assignments',
      'course_categories',
      'course_difficulties',
      'course_tags',
      'course_packages',
      'projects',
      'project_collaborators',
      'project_versions',
      'runtimes',
      'package_operations',
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

  it('refuses every caller of customer A on every object of customer B, changing nothing', async () => {
    const before = await snapshot();
    for (const [route, { kind, body }] of Object.entries(MATRIX)) {
      const [method, url] = route.split(' ') as ['GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', string];
      for (const [caller, token] of Object.entries(callers)) {
        const res = await t.app.inject({
          method,
          url: url.replace(':id', ids[kind]),
          payload: body ?? {},
          headers: { 'x-authorization': token },
        });
        expect({ route, caller, refused: [403, 404].includes(res.statusCode) }).toEqual({
          route,
          caller,
          refused: true,
        });
      }
    }
    expect(await snapshot()).toBe(before);
  });
});
