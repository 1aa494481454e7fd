import { ROLES } from '@aiedu/contracts';
import { eq } from 'drizzle-orm';
import { classes, students, teachers } from '../../platform/db/schema/index.js';
import { buildSchool, buildUser, signIn } from '../../test/factories.js';
import { createCourseWorld, QUIZ, type Who as CourseWho } from '../course/course-test-world.js';

export type Who = CourseWho | 'siblingTeacher' | 'loner';
type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

export const SHORT_TASK = {
  title: 'Explain',
  questions: [{ id: 's1', type: 'short', prompt: 'What is a model?' }],
};

/**
 * The course world (customers A and B; in A's school a certified teacher, a collaborator, an uncertified teacher,
 * class 4-1 with two students) plus, in A: a teacher of a sibling school and a student of another class of the
 * school. The certified teacher has published "Teach me" (two sections: a short-answer task, then a quiz).
 */
export async function createScheduleWorld() {
  const w = await createCourseWorld();
  const { db, customerA } = w;
  const [klass] = await db.select({ schoolId: classes.schoolId }).from(classes).where(eq(classes.id, w.classId));
  const schoolId = klass!.schoolId;
  const sibling = await buildSchool(db, customerA.id, { name: 'Sibling School' });
  const siblingTeacher = await buildUser(db, {
    customerId: customerA.id,
    schoolId: sibling.id,
    username: 'sibling',
    roles: [ROLES.teacher],
  });
  await db.insert(teachers).values({ userId: siblingTeacher.id, customerId: customerA.id, schoolId: sibling.id });
  const [otherClass] = await db
    .insert(classes)
    .values({ customerId: customerA.id, schoolId, eduStage: 'primary', grade: 5, className: '5-2', startYear: 2022 })
    .returning();
  const loner = await buildUser(db, { customerId: customerA.id, schoolId, username: 'loner', roles: [ROLES.student] });
  await db.insert(students).values({ userId: loner.id, customerId: customerA.id, schoolId, classId: otherClass!.id });
  const tokens = w.tokens as Record<Who, string>;
  tokens.siblingTeacher = await signIn(w.t.app, customerA.code, 'sibling', siblingTeacher.password);
  tokens.loner = await signIn(w.t.app, customerA.code, 'loner', loner.password);
  const ids = { ...w.users, siblingTeacher, loner } as Record<Who, { id: string }>;

  const call = async (who: Who | null, method: Method, url: string, payload?: object) => {
    const res = await w.t.app.inject({
      method,
      url,
      ...(payload ? { payload } : {}),
      headers: who ? { 'x-authorization': tokens[who] } : {},
    });
    return { status: res.statusCode, body: res.json(), raw: res };
  };

  /** A published course with a short-answer task in its first section and a quiz in its second. */
  const publishCourse = async (name: string, publicScope = 'customer') => {
    const course = await w.buildCourse({ name, publicScope }, [{ title: 'Chapter 1', sections: ['Model', 'Quiz'] }]);
    await call('teacher', 'POST', `/api/v1/courses/sections/${course.sectionIds[0]}/tasks`, SHORT_TASK);
    const last = await call('teacher', 'POST', `/api/v1/courses/sections/${course.sectionIds[1]}/tasks`, QUIZ);
    const sections = last.body.data.chapters[0].sections as { id: string; tasks: { id: string }[] }[];
    await call('teacher', 'POST', `/api/v1/courses/${course.id}/publish`);
    const versions = await call('teacher', 'GET', `/api/v1/courses/${course.id}/versions`);
    return {
      id: course.id,
      sectionIds: course.sectionIds,
      shortTaskId: sections[0]!.tasks[0]!.id,
      quizTaskId: sections[1]!.tasks[0]!.id,
      versionId: (versions.body.data as { id: string; current: boolean }[]).find((v) => v.current)!.id,
    };
  };

  const course = await publishCourse('Teach me');
  const createSchedule = async (overrides: object = {}, who: Who = 'teacher') =>
    call(who, 'POST', '/api/v1/schedules', {
      name: 'Autumn AI',
      startAt: '2026-11-23T08:00:00+08:00',
      courses: [{ courseId: course.id }],
      classIds: [w.classId],
      ...overrides,
    });

  return { ...w, call, tokens, ids, course, publishCourse, createSchedule, otherClassId: otherClass!.id, schoolId };
}

export type ScheduleWorld = Awaited<ReturnType<typeof createScheduleWorld>>;
