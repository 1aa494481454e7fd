import * as argon2 from '@node-rs/argon2';
import { ROLES } from '@aiedu/contracts';
import type { Database } from '../server/src/platform/db/client.js';
import {
  classes,
  courseCategories,
  customers,
  schools,
  students,
  teachers,
  users,
} from '../server/src/platform/db/schema/index.js';

/** The classroom benchmark's people and course: seeded in the database, then signed in and built through the API. */
export const CUSTOMER = 'bench2026';
export const PASSWORD = 'Bench@2026x';
/** Sections of the course the classes walk, each with a quiz (a move reads who answered it for the roster). */
export const SECTIONS = 4;
export const QUIZ = {
  title: 'Quiz',
  questions: [{ id: 'q1', type: 'single', prompt: '1 + 1 = ?', options: ['1', '2', '3'], answer: [1] }],
};

export interface SeededClass {
  classId: string;
  teacher: string;
  students: string[];
}

/**
 * A customer, a school, the course categories, and one class per size with a certified teacher and its students,
 * written straight into the database. Their passwords are hashed with almost no work (8 KiB, one pass): the
 * benchmark signs in over a thousand people, and sign-ins are measured elsewhere (`login`).
 */
export async function seed(database: Database, sizes: number[]) {
  const hash = await argon2.hash(PASSWORD, { algorithm: 2, memoryCost: 8, timeCost: 1, parallelism: 1 });
  const { db } = database;
  const [customer] = await db.insert(customers).values({ code: CUSTOMER, name: 'Bench' }).returning();
  const customerId = customer!.id;
  const [school] = await db.insert(schools).values({ customerId, name: 'Bench School' }).returning();
  const schoolId = school!.id;
  const [direction, stage] = await db
    .insert(courseCategories)
    .values([
      { kind: 'direction', name: 'Bench direction' },
      { kind: 'stage', name: 'Bench stage' },
    ])
    .returning();
  const seeded: SeededClass[] = [];
  for (const [i, size] of sizes.entries()) {
    const [klass] = await db
      .insert(classes)
      .values({ customerId, schoolId, eduStage: 'primary', grade: 4, className: `4-${i + 1}`, startYear: 2023 })
      .returning();
    const teacher = `t${i}`;
    const [teacherRow] = await db
      .insert(users)
      .values({
        customerId,
        schoolId,
        username: teacher,
        passwordHash: hash,
        roles: [ROLES.teacher],
        realName: teacher,
      })
      .returning();
    await db.insert(teachers).values({ userId: teacherRow!.id, customerId, schoolId, certified: true });
    const names = Array.from({ length: size }, (_, j) => `s${i}x${j}`);
    const rows = await db
      .insert(users)
      .values(
        names.map((username) => ({
          customerId,
          schoolId,
          username,
          passwordHash: hash,
          roles: [ROLES.student],
          realName: username,
        })),
      )
      .returning({ id: users.id });
    await db.insert(students).values(rows.map((r) => ({ userId: r.id, customerId, schoolId, classId: klass!.id })));
    seeded.push({ classId: klass!.id, teacher, students: names });
  }
  return { classes: seeded, directionId: direction!.id, stageId: stage!.id };
}

/** The envelope's data of a call to the server, or an error naming the call. */
export async function call<T>(
  base: string,
  token: string | null,
  method: string,
  url: string,
  body?: object,
): Promise<T> {
  const response = await fetch(`${base}${url}`, {
    method,
    headers: {
      ...(body ? { 'content-type': 'application/json' } : {}),
      ...(token ? { 'x-authorization': token } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  const envelope = (await response.json()) as { errorCode: string; data: T };
  if (envelope.errorCode !== '1000') throw new Error(`${method} ${url}: ${JSON.stringify(envelope)}`);
  return envelope.data;
}

export function signIn(base: string, username: string): Promise<string> {
  return call<{ token: string }>(base, null, 'POST', '/gw/api/v1/auth/login', {
    custcode: CUSTOMER,
    usernameOrEmailOrPhone: username,
    password: Buffer.from(PASSWORD).toString('base64'),
  }).then((data) => data.token);
}

/** Runs `run` on every item, at most `limit` at a time, and answers the results in order. */
export async function inBatches<T, R>(items: T[], limit: number, run: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        results[i] = await run(items[i]!);
      }
    }),
  );
  return results;
}

/** The first teacher's published course of four sections, each with a quiz, which every class is taught. */
export async function publishCourse(base: string, token: string, category: { directionId: string; stageId: string }) {
  const course = await call<{ id: string }>(base, token, 'POST', '/api/v1/courses', {
    name: 'Live lesson',
    publicScope: 'customer',
    ...category,
  });
  const chapter = await call<{ chapters: { id: string }[] }>(
    base,
    token,
    'POST',
    `/api/v1/courses/${course.id}/chapters`,
    {
      title: 'Chapter 1',
    },
  );
  const chapterId = chapter.chapters.at(-1)!.id;
  const sectionIds: string[] = [];
  for (let i = 0; i < SECTIONS; i++) {
    const section = await call<{ sectionId: string }>(
      base,
      token,
      'POST',
      `/api/v1/courses/chapters/${chapterId}/sections`,
      { title: `Section ${i + 1}` },
    );
    await call(base, token, 'POST', `/api/v1/courses/sections/${section.sectionId}/tasks`, QUIZ);
    sectionIds.push(section.sectionId);
  }
  await call(base, token, 'POST', `/api/v1/courses/${course.id}/publish`);
  return { courseId: course.id, sectionIds };
}
