import type { TTeachableCourse } from '@aiedu/contracts';
import { and, asc, desc, eq, exists, ilike, inArray, isNotNull, or, sql } from 'drizzle-orm';
import type { AuthContext } from '../../platform/auth/tokens.js';
import type { Db } from '../../platform/db/client.js';
import {
  courseChapters,
  courseCollaborators,
  courseEnrolments,
  courses,
  courseSections,
  courseTasks,
  courseVersions,
  learningRecords,
  taskAttempts,
  users,
} from '../../platform/db/schema/index.js';
import { likeText } from '../../platform/db/like.js';
import { AppError } from '../../platform/errors.js';
import { assertOpen, authorRole, mayDiscover } from './course-access.js';
import { discoverableWhere } from './centre.service.js';
import { infoVersion, publishedVersion } from './course-summary.repository.js';
import { userDisplayName } from '../../platform/db/user-name.js';

/*
 * What the course module offers teaching (teaching schedules): which published versions a teacher may teach, their
 * outlines, enrolling a class on a version, and its learners' records and answers. Scoring is `scoreAttempts` and
 * the due-time hook `checkAttemptsWith` (attempt.service.ts).
 */

/** The course as it stands: closed or taken down since, and the version published now. */
export interface CourseState {
  courseId: string;
  state: 'open' | 'closed' | 'takenDown';
  publishedVersionId: string | null;
  publishedNumber: number | null;
}

/** Published, open courses whose published version's name holds `keyword` and that the teacher writes or may find. */
export async function listTeachableCourses(db: Db, auth: AuthContext, keyword: string): Promise<TTeachableCourse[]> {
  const writes = or(
    eq(courses.ownerId, auth.userId),
    exists(
      db
        .select({ one: sql`1` })
        .from(courseCollaborators)
        .where(and(eq(courseCollaborators.courseId, courses.id), eq(courseCollaborators.userId, auth.userId))),
    ),
  );
  const rows = await db
    .select({ id: courses.id, name: infoVersion.name, ownerName: userDisplayName, current: courses.publishedVersionId })
    .from(courses)
    .innerJoin(users, eq(users.id, courses.ownerId))
    .innerJoin(infoVersion, eq(infoVersion.id, courses.publishedVersionId))
    .where(
      and(
        eq(courses.status, 'published'),
        eq(courses.takenDown, false),
        or(writes, discoverableWhere(auth)),
        keyword ? ilike(infoVersion.name, likeText(keyword)) : undefined,
      ),
    )
    .orderBy(asc(infoVersion.name), asc(courses.id))
    .limit(50);
  if (rows.length === 0) return [];
  const versions = await db
    .select({ id: courseVersions.id, courseId: courseVersions.courseId, number: courseVersions.number })
    .from(courseVersions)
    .where(
      and(
        inArray(
          courseVersions.courseId,
          rows.map((r) => r.id),
        ),
        eq(courseVersions.status, 'published'),
        isNotNull(courseVersions.number),
      ),
    )
    .orderBy(desc(courseVersions.number));
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    ownerName: r.ownerName,
    currentVersionId: r.current!,
    versions: versions.filter((v) => v.courseId === r.id).map((v) => ({ id: v.id, number: v.number! })),
  }));
}

/**
 * A published version of a course the teacher writes or may find, to pin in a schedule: the version asked for, or
 * the one published now. Closed and taken-down courses answer their spec 8 messages; a version that is not a
 * published version of the course `4105`.
 */
export async function teachableVersion(db: Db, auth: AuthContext, courseId: string, versionId?: string) {
  const [course] = await db.select().from(courses).where(eq(courses.id, courseId));
  if (!course) throw new AppError('NOT_FOUND');
  if (!(await authorRole(db, course, auth)) && !(await mayDiscover(db, course, auth))) {
    throw new AppError('NOT_FOUND');
  }
  assertOpen(course);
  if (course.status !== 'published' || !course.publishedVersionId) throw new AppError('COURSE_STATE_INVALID');
  const [version] = await db
    .select({ id: courseVersions.id, number: courseVersions.number, name: courseVersions.name })
    .from(courseVersions)
    .where(
      and(
        eq(courseVersions.id, versionId ?? course.publishedVersionId),
        eq(courseVersions.courseId, courseId),
        eq(courseVersions.status, 'published'),
      ),
    );
  if (!version) throw new AppError('COURSE_STATE_INVALID', { reason: 'version' });
  return { courseId, versionId: version.id, number: version.number, name: version.name };
}

export async function courseStates(db: Db, courseIds: string[]): Promise<Map<string, CourseState>> {
  if (courseIds.length === 0) return new Map();
  const rows = await db
    .select({
      id: courses.id,
      status: courses.status,
      takenDown: courses.takenDown,
      published: courses.publishedVersionId,
      number: publishedVersion.number,
    })
    .from(courses)
    .leftJoin(publishedVersion, eq(publishedVersion.id, courses.publishedVersionId))
    .where(inArray(courses.id, courseIds));
  return new Map(
    rows.map((r) => [
      r.id,
      {
        courseId: r.id,
        state: r.status === 'closed' ? 'closed' : r.takenDown ? 'takenDown' : 'open',
        publishedVersionId: r.published,
        publishedNumber: r.number,
      },
    ]),
  );
}

export interface OutlineTask {
  id: string;
  title: string;
  questionTypes: ('single' | 'multiple' | 'short' | 'experiment')[];
}
export interface VersionOutline {
  versionId: string;
  courseId: string;
  name: string;
  number: number | null;
  /** In reading order, chapter by chapter. */
  sections: { id: string; title: string; chapterTitle: string; tasks: OutlineTask[] }[];
}

/** The sections and tasks of versions in reading order, with the names and numbers of the versions. */
export async function versionOutlines(db: Db, versionIds: string[]): Promise<Map<string, VersionOutline>> {
  if (versionIds.length === 0) return new Map();
  const [versions, chapters, sections, tasks] = await Promise.all([
    db
      .select({
        id: courseVersions.id,
        courseId: courseVersions.courseId,
        name: courseVersions.name,
        number: courseVersions.number,
      })
      .from(courseVersions)
      .where(inArray(courseVersions.id, versionIds)),
    db
      .select({ id: courseChapters.id, title: courseChapters.title })
      .from(courseChapters)
      .where(inArray(courseChapters.versionId, versionIds))
      .orderBy(asc(courseChapters.position)),
    db
      .select({
        id: courseSections.id,
        versionId: courseSections.versionId,
        chapterId: courseSections.chapterId,
        title: courseSections.title,
      })
      .from(courseSections)
      .where(inArray(courseSections.versionId, versionIds))
      .orderBy(asc(courseSections.position)),
    db
      .select({
        id: courseTasks.id,
        sectionId: courseTasks.sectionId,
        title: courseTasks.title,
        questions: courseTasks.questions,
      })
      .from(courseTasks)
      .where(inArray(courseTasks.versionId, versionIds))
      .orderBy(asc(courseTasks.position)),
  ]);
  return new Map(
    versions.map((v) => [
      v.id,
      {
        versionId: v.id,
        courseId: v.courseId,
        name: v.name,
        number: v.number,
        sections: chapters.flatMap((chapter) =>
          sections
            .filter((s) => s.chapterId === chapter.id && s.versionId === v.id)
            .map((s) => ({
              id: s.id,
              title: s.title,
              chapterTitle: chapter.title,
              tasks: tasks
                .filter((t) => t.sectionId === s.id)
                .map((t) => ({
                  id: t.id,
                  title: t.title,
                  questionTypes: [...new Set(t.questions.map((q) => q.type))],
                })),
            })),
        ),
      },
    ]),
  );
}

/** A task with the course and version it belongs to. */
export async function findTask(db: Db, taskId: string) {
  const [task] = await db
    .select({
      id: courseTasks.id,
      courseId: courseTasks.courseId,
      versionId: courseTasks.versionId,
      sectionId: courseTasks.sectionId,
    })
    .from(courseTasks)
    .where(eq(courseTasks.id, taskId));
  return task ?? null;
}

/**
 * Enrols learners on a course version for their class's teaching (`joinedVia: schedule`). `pin`: learners who
 * joined the course on another version move to this one, since the class learns what its teacher teaches;
 * `missing`: only learners without an enrolment join. Records stay with each section whichever version is learnt.
 */
export async function enrolForTeaching(
  db: Db,
  target: { courseId: string; versionId: string },
  learners: { userId: string; customerId: string | null }[],
  mode: 'pin' | 'missing',
) {
  if (learners.length === 0) return { joined: 0, moved: 0 };
  const joined = await db
    .insert(courseEnrolments)
    .values(learners.map((l) => ({ ...l, ...target, joinedVia: 'schedule' as const })))
    .onConflictDoNothing()
    .returning({ id: courseEnrolments.id });
  if (joined.length) {
    await db
      .update(courses)
      .set({ learnerCount: sql`${courses.learnerCount} + ${joined.length}` })
      .where(eq(courses.id, target.courseId));
  }
  const moved =
    mode === 'pin'
      ? await db
          .update(courseEnrolments)
          .set({ versionId: target.versionId })
          .where(
            and(
              eq(courseEnrolments.courseId, target.courseId),
              inArray(
                courseEnrolments.userId,
                learners.map((l) => l.userId),
              ),
              sql`${courseEnrolments.versionId} <> ${target.versionId}`,
            ),
          )
          .returning({ id: courseEnrolments.id })
      : [];
  return { joined: joined.length, moved: moved.length };
}

/** Learners' records of sections: time spent, completion, last visit. */
export async function sectionRecords(db: Db, sectionIds: string[], userIds: string[]) {
  if (sectionIds.length === 0 || userIds.length === 0) return [];
  return db
    .select({
      userId: learningRecords.userId,
      sectionId: learningRecords.sectionId,
      secondsSpent: learningRecords.secondsSpent,
      completedAt: learningRecords.completedAt,
      lastVisitedAt: learningRecords.lastVisitedAt,
    })
    .from(learningRecords)
    .where(and(inArray(learningRecords.sectionId, sectionIds), inArray(learningRecords.userId, userIds)));
}

/** Learners' answers to tasks, oldest first. */
export async function attemptsOfTasks(db: Db, taskIds: string[], userIds: string[]) {
  if (taskIds.length === 0 || userIds.length === 0) return [];
  return db
    .select()
    .from(taskAttempts)
    .where(and(inArray(taskAttempts.taskId, taskIds), inArray(taskAttempts.userId, userIds)))
    .orderBy(asc(taskAttempts.createdAt), asc(taskAttempts.id));
}

/** Attempts by id, with the task they answer. */
export async function attemptsById(db: Db, ids: string[]) {
  if (ids.length === 0) return [];
  return db
    .select({ id: taskAttempts.id, taskId: taskAttempts.taskId, userId: taskAttempts.userId })
    .from(taskAttempts)
    .where(inArray(taskAttempts.id, ids));
}

/** The name and number of versions, for lists. */
export async function versionLabels(db: Db, versionIds: string[]) {
  if (versionIds.length === 0) return new Map<string, { name: string; number: number | null }>();
  const rows = await db
    .select({ id: courseVersions.id, name: courseVersions.name, number: courseVersions.number })
    .from(courseVersions)
    .where(inArray(courseVersions.id, versionIds));
  return new Map(rows.map((r) => [r.id, { name: r.name, number: r.number }]));
}

/** Tasks by id with their section, the name of their version and their question types. */
export async function taskOutlines(db: Db, taskIds: string[]) {
  if (taskIds.length === 0) return new Map<string, TaskOutline>();
  const rows = await db
    .select({
      id: courseTasks.id,
      courseId: courseTasks.courseId,
      versionId: courseTasks.versionId,
      sectionId: courseTasks.sectionId,
      title: courseTasks.title,
      questions: courseTasks.questions,
      sectionTitle: courseSections.title,
      courseName: courseVersions.name,
    })
    .from(courseTasks)
    .innerJoin(courseSections, eq(courseSections.id, courseTasks.sectionId))
    .innerJoin(courseVersions, eq(courseVersions.id, courseTasks.versionId))
    .where(inArray(courseTasks.id, taskIds));
  return new Map<string, TaskOutline>(
    rows.map(({ questions, ...r }) => [r.id, { ...r, questionTypes: [...new Set(questions.map((q) => q.type))] }]),
  );
}

export interface TaskOutline extends OutlineTask {
  courseId: string;
  versionId: string;
  sectionId: string;
  sectionTitle: string;
  courseName: string;
}

/** Which learners opened a section of which versions since a moment: `[{ userId, versionId }]`, each pair once. */
export async function activeLearners(db: Db, versionIds: string[], userIds: string[], since: Date) {
  if (versionIds.length === 0 || userIds.length === 0) return [];
  return db
    .selectDistinct({ userId: learningRecords.userId, versionId: courseSections.versionId })
    .from(learningRecords)
    .innerJoin(courseSections, eq(courseSections.id, learningRecords.sectionId))
    .where(
      and(
        inArray(courseSections.versionId, versionIds),
        inArray(learningRecords.userId, userIds),
        sql`${learningRecords.lastVisitedAt} >= ${since.toISOString()}::timestamptz`,
      ),
    );
}
