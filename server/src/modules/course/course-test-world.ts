import { ROLES } from '@aiedu/contracts';
import type { Db } from '../../platform/db/client.js';
import { classes, courseCategories, students, teachers } from '../../platform/db/schema/index.js';
import { buildCustomer, buildSchool, buildUser, signIn, testClock } from '../../test/factories.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import type { FileStorage } from '../../platform/storage/storage.js';
import type { Config } from '../../config.js';

export type Who =
  'teacher' | 'editor' | 'uncertified' | 'student' | 'student2' | 'otherTeacher' | 'otherStudent' | 'super' | 'admin';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

async function addTeacher(db: Db, customerId: string, schoolId: string, username: string, certified: boolean) {
  const user = await buildUser(db, { customerId, schoolId, username, roles: [ROLES.teacher], realName: username });
  await db.insert(teachers).values({ userId: user.id, customerId, schoolId, certified });
  return user;
}

/**
 * Two customers: A with a certified teacher, a certified collaborator, an uncertified teacher, a class with two
 * students and an administrator; B with a teacher and a student. Plus a super administrator, and a direction and a
 * stage (`category`) for the courses.
 */
export async function createCourseWorld(
  options: { courseCode?: () => string; storage?: FileStorage; config?: Partial<Config> } = {},
) {
  const clock = testClock();
  const t: TestApp = await createTestApp({ now: clock.now, ...options });
  const db = t.database.db;
  const a = await buildCustomer(db);
  const b = await buildCustomer(db);
  const schoolA = await buildSchool(db, a.id);
  const schoolB = await buildSchool(db, b.id);
  const [klass] = await db
    .insert(classes)
    .values({
      customerId: a.id,
      schoolId: schoolA.id,
      eduStage: 'primary',
      grade: 4,
      className: '4-1',
      startYear: 2023,
    })
    .returning();
  const users: Record<Who, { id: string; username: string; password: string; code: string }> = {} as never;
  const put = (who: Who, u: { id: string; username: string; password: string }, code: string) =>
    (users[who] = { ...u, code });
  put('teacher', await addTeacher(db, a.id, schoolA.id, 'teacher', true), a.code);
  put('editor', await addTeacher(db, a.id, schoolA.id, 'editor', true), a.code);
  put('uncertified', await addTeacher(db, a.id, schoolA.id, 'uncertified', false), a.code);
  put('otherTeacher', await addTeacher(db, b.id, schoolB.id, 'teacher', true), b.code);
  for (const [who, username] of [
    ['student', 'student'],
    ['student2', 'student2'],
  ] as const) {
    const u = await buildUser(db, { customerId: a.id, schoolId: schoolA.id, username, roles: [ROLES.student] });
    await db.insert(students).values({ userId: u.id, customerId: a.id, schoolId: schoolA.id, classId: klass!.id });
    put(who, u, a.code);
  }
  const other = await buildUser(db, {
    customerId: b.id,
    schoolId: schoolB.id,
    username: 'kid',
    roles: [ROLES.student],
  });
  await db.insert(students).values({ userId: other.id, customerId: b.id, schoolId: schoolB.id });
  put('otherStudent', other, b.code);
  put('admin', await buildUser(db, { customerId: a.id, username: 'admin', roles: [ROLES.customerAdmin] }), a.code);
  put('super', await buildUser(db, { customerId: null, username: 'root', roles: [ROLES.super] }), '');

  // Every course needs a direction and a stage (spec 5); courses built here get these unless a test names others.
  const [direction, stage] = await db
    .insert(courseCategories)
    .values([
      { kind: 'direction', name: 'World direction' },
      { kind: 'stage', name: 'World stage' },
    ])
    .returning();
  const category = { directionId: direction!.id, stageId: stage!.id };

  const tokens = {} as Record<Who, string>;
  for (const [who, u] of Object.entries(users) as [Who, (typeof users)[Who]][]) {
    tokens[who] = await signIn(t.app, u.code, u.username, u.password);
  }

  const call = async (who: Who | null, method: Method, url: string, payload?: object) => {
    const res = await t.app.inject({
      method,
      url,
      ...(payload ? { payload } : {}),
      headers: who ? { 'x-authorization': tokens[who] } : {},
    });
    return { status: res.statusCode, body: res.json() };
  };

  /** Uploads a cover (multipart field "file") as the given user. */
  const uploadCover = (who: Who, courseId: string, name: string, bytes: Buffer) => {
    const boundary = 'XyZ';
    const body = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\n\r\n`),
      bytes,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    return t.app.inject({
      method: 'PUT',
      url: `/api/v1/courses/${courseId}/cover`,
      payload: body,
      headers: { 'x-authorization': tokens[who], 'content-type': `multipart/form-data; boundary=${boundary}` },
    });
  };

  /** A course of the certified teacher with chapters of one section each, and the ids of what was made. */
  const buildCourse = async (
    info: Record<string, unknown> = {},
    chapters: { title: string; sections: string[] }[] = [{ title: 'Chapter 1', sections: ['Section 1'] }],
    who: Who = 'teacher',
  ) => {
    const created = await call(who, 'POST', '/api/v1/courses', { name: 'Intro to AI', ...category, ...info });
    if (created.status !== 200) throw new Error(JSON.stringify(created.body));
    const id: string = created.body.data.id;
    const sectionIds: string[] = [];
    for (const chapter of chapters) {
      const after = await call(who, 'POST', `/api/v1/courses/${id}/chapters`, { title: chapter.title });
      const chapterId: string = after.body.data.chapters.at(-1).id;
      for (const title of chapter.sections) {
        const s = await call(who, 'POST', `/api/v1/courses/chapters/${chapterId}/sections`, { title });
        sectionIds.push(s.body.data.sectionId);
      }
    }
    return { id, code: created.body.data.code as string, sectionIds };
  };

  return {
    t,
    db,
    clock,
    users,
    tokens,
    call,
    uploadCover,
    buildCourse,
    category,
    customerA: a,
    customerB: b,
    classId: klass!.id,
  };
}

export type CourseWorld = Awaited<ReturnType<typeof createCourseWorld>>;

/** A quiz of one single-choice and one multiple-choice question. */
export const QUIZ = {
  title: 'Quiz',
  questions: [
    { id: 'q1', type: 'single', prompt: '1 + 1 = ?', options: ['1', '2', '3'], answer: [1] },
    { id: 'q2', type: 'multiple', prompt: 'Which are even?', options: ['2', '3', '4', '6'], answer: [0, 2, 3] },
  ],
};
