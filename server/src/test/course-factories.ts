import { v7 as uuidv7 } from 'uuid';
import type { Db } from '../platform/db/client.js';
import {
  courseChapters,
  courseResources,
  courses,
  courseSections,
  courseTasks,
  courseVersions,
  taskAttempts,
  experimentChecks,
} from '../platform/db/schema/index.js';

let serial = 0;
const ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';

/** A course code no other test course has: a counter spelled in the course-code alphabet. */
function nextCode(): string {
  let n = ++serial + Math.floor(Math.random() * 1_000_000) * 100;
  let code = '';
  for (let i = 0; i < 6; i++) {
    code += ALPHABET[n % ALPHABET.length];
    n = Math.floor(n / ALPHABET.length);
  }
  return code;
}

/**
 * A draft course with one chapter, one section, one single-choice task and one resource row, written straight
 * to the database (the route tests build theirs through the API).
 */
export async function buildCourse(
  db: Db,
  options: { customerId: string | null; ownerId: string; publicScope?: 'public' | 'customer' | 'private' },
) {
  const courseId = uuidv7();
  const versionId = uuidv7();
  await db.insert(courses).values({
    id: courseId,
    customerId: options.customerId,
    ownerId: options.ownerId,
    code: nextCode(),
    publicScope: options.publicScope ?? 'customer',
    draftVersionId: versionId,
  });
  await db.insert(courseVersions).values({ id: versionId, courseId, name: 'Factory course' });
  const [chapter] = await db
    .insert(courseChapters)
    .values({ courseId, versionId, title: 'C1', position: 0 })
    .returning();
  const [section] = await db
    .insert(courseSections)
    .values({ courseId, versionId, chapterId: chapter!.id, title: 'S1', position: 0 })
    .returning();
  const [task] = await db
    .insert(courseTasks)
    .values({
      courseId,
      versionId,
      sectionId: section!.id,
      title: 'T1',
      position: 0,
      questions: [{ id: 'q1', type: 'short', prompt: 'Why?' }],
    })
    .returning();
  const [resource] = await db
    .insert(courseResources)
    .values({
      courseId,
      versionId,
      sectionId: section!.id,
      name: 'a.pdf',
      storageKey: `courses/resources/${uuidv7()}`,
      size: 1,
      mime: 'application/pdf',
      position: 0,
    })
    .returning();
  return {
    courseId,
    versionId,
    chapterId: chapter!.id,
    sectionId: section!.id,
    taskId: task!.id,
    resourceId: resource!.id,
  };
}

export async function buildAttempt(db: Db, course: { courseId: string; taskId: string }, userId: string) {
  const [row] = await db
    .insert(taskAttempts)
    .values({ courseId: course.courseId, taskId: course.taskId, userId, answers: [], credits: {}, status: 'pending' })
    .returning();
  return row!;
}

/** A finished check of a learner's experiment (the tenant isolation matrix reads it by id). */
export async function buildCheck(db: Db, course: { courseId: string; taskId: string }, userId: string) {
  const [row] = await db
    .insert(experimentChecks)
    .values({
      courseId: course.courseId,
      taskId: course.taskId,
      questionId: 'q',
      userId,
      status: 'passed',
      score: 100,
      finishedAt: new Date(),
    })
    .returning();
  return row!;
}
