import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { AuthContext } from '../../platform/auth/tokens.js';
import type { AppContext } from '../../platform/context.js';
import type { Db } from '../../platform/db/client.js';
import {
  courseClassAssignments,
  courseEnrolments,
  courses,
  courseSections,
  learningRecords,
  students,
  taskAttempts,
  users,
} from '../../platform/db/schema/index.js';
import { AppError } from '../../platform/errors.js';
import { assertOpen, loadForLearner, mayDiscover, type CourseRow } from './course-access.js';
import { sectionsInOrder } from './course-content.repository.js';
import { keptVersion } from './version-tree-cache.js';
import { preparedStatement } from '../../platform/db/prepared.js';
import { infoColumns, infoVersion, publishedVersion } from './course-summary.repository.js';
import { getCourseDetail, recordsOf } from './centre.service.js';
import { learnerQuestion, presentSummary } from './course.presenter.js';
import { presentAttempt } from './attempt.service.js';
import { copiesByTemplate } from './experiment.service.js';
import { userDisplayName } from '../../platform/db/user-name.js';

async function enrol(db: Db, course: CourseRow, auth: AuthContext, joinedVia: 'code' | 'class' | 'centre') {
  const [row] = await db
    .insert(courseEnrolments)
    .values({
      courseId: course.id,
      userId: auth.userId,
      customerId: auth.customerId,
      versionId: course.publishedVersionId!,
      joinedVia,
    })
    .onConflictDoNothing()
    .returning({ id: courseEnrolments.id });
  if (row) {
    await db
      .update(courses)
      .set({ learnerCount: sql`${courses.learnerCount} + 1` })
      .where(eq(courses.id, course.id));
  }
}

function assertJoinable(course: CourseRow) {
  assertOpen(course);
  if (course.status !== 'published' || !course.publishedVersionId) throw new AppError('COURSE_STATE_INVALID');
}

/** Joins by the 6-character course code: the course's customer, a public course, or a packaged one. */
export async function joinByCode(ctx: AppContext, auth: AuthContext, code: string) {
  const [course] = await ctx.db.select().from(courses).where(eq(courses.code, code));
  if (!course) throw new AppError('COURSE_CODE_UNKNOWN');
  const visible =
    course.publicScope === 'private' ? course.customerId === auth.customerId : await mayDiscover(ctx.db, course, auth);
  if (!visible) throw new AppError('COURSE_CODE_UNKNOWN');
  assertJoinable(course);
  await enrol(ctx.db, course, auth, 'code');
  return getCourseDetail(ctx, auth, course.id);
}

/** Joins from the centre (a course the caller may find) or from a class the course was given to. */
export async function joinCourse(ctx: AppContext, auth: AuthContext, courseId: string) {
  const { course } = await loadForLearner(ctx.db, auth, courseId);
  assertJoinable(course);
  const byClass = await ctx.db
    .select({ classId: courseClassAssignments.classId })
    .from(courseClassAssignments)
    .innerJoin(students, eq(students.classId, courseClassAssignments.classId))
    .where(and(eq(courseClassAssignments.courseId, course.id), eq(students.userId, auth.userId)))
    .limit(1);
  await enrol(ctx.db, course, auth, byClass.length ? 'class' : 'centre');
  return getCourseDetail(ctx, auth, course.id);
}

/** A section of the learner's own version; authors preview any section of their course. */
async function loadSection(ctx: AppContext, auth: AuthContext, sectionId: string) {
  const [section] = await ctx.db.select().from(courseSections).where(eq(courseSections.id, sectionId));
  if (!section) throw new AppError('NOT_FOUND');
  const { course, role, enrolment } = await loadForLearner(ctx.db, auth, section.courseId);
  if (!role) {
    if (!enrolment) throw new AppError('COURSE_NOT_JOINED');
    if (enrolment.versionId !== section.versionId) throw new AppError('NOT_FOUND');
  }
  return { section, course, role, enrolment };
}

async function upsertRecord(
  ctx: AppContext,
  auth: AuthContext,
  section: typeof courseSections.$inferSelect,
  add: { seconds: number; completed: boolean },
) {
  const now = ctx.now();
  const [row] = await ctx.db
    .insert(learningRecords)
    .values({
      courseId: section.courseId,
      userId: auth.userId,
      customerId: auth.customerId,
      sectionId: section.id,
      secondsSpent: add.seconds,
      completedAt: add.completed ? now : null,
      lastVisitedAt: now,
    })
    .onConflictDoUpdate({
      target: [learningRecords.userId, learningRecords.sectionId],
      set: {
        secondsSpent: sql`${learningRecords.secondsSpent} + ${add.seconds}`,
        completedAt: add.completed
          ? sql`coalesce(${learningRecords.completedAt}, ${now.toISOString()}::timestamptz)`
          : sql`${learningRecords.completedAt}`,
        lastVisitedAt: now,
      },
    })
    .returning({ completedAt: learningRecords.completedAt });
  return { completed: Boolean(row?.completedAt) };
}

/** Opens a section: marks it visited and answers its content, resources and tasks (without answers). */
export async function learnSection(ctx: AppContext, auth: AuthContext, sectionId: string) {
  const { section, enrolment } = await loadSection(ctx, auth, sectionId);
  // The visit's record answers whether the learner completed the section.
  const record = enrolment ? await upsertRecord(ctx, auth, section, { seconds: 0, completed: false }) : null;
  return presentLearnerSection(ctx, section, enrolment ? auth.userId : null, record);
}

/**
 * A section of one of `versionIds` as its learners see it, for a reader the caller has checked (a teaching
 * schedule's teacher, for the versions it pins); any other section is not found.
 */
export async function sectionOfVersions(ctx: AppContext, sectionId: string, versionIds: string[]) {
  const [section] = versionIds.length
    ? await ctx.db
        .select()
        .from(courseSections)
        .where(and(eq(courseSections.id, sectionId), inArray(courseSections.versionId, versionIds)))
    : [];
  if (!section) throw new AppError('NOT_FOUND');
  return presentLearnerSection(ctx, section, null, null);
}

/** A section's content, resources and tasks without answers; with the learner's completion and experiment copies. */
async function presentLearnerSection(
  ctx: AppContext,
  section: typeof courseSections.$inferSelect,
  learnerId: string | null,
  record: { completed: boolean } | null,
) {
  const { tree } = await keptVersion(ctx.db, section.versionId);
  const ordered = sectionsInOrder(tree);
  const index = ordered.findIndex((s) => s.id === section.id);
  const full = ordered[index]!;
  const hasExperiment = full.tasks.some((t) => t.questions.some((q) => q.type === 'experiment'));
  const copies = learnerId && hasExperiment ? await copiesByTemplate(ctx.db, section.courseId, learnerId) : new Map();
  return {
    id: full.id,
    title: full.title,
    content: full.content,
    aiLinks: full.aiLinks,
    resources: full.resources.map((r) => ({ id: r.id, name: r.name, size: r.size, mime: r.mime })),
    tasks: full.tasks.map((t) => ({
      id: t.id,
      title: t.title,
      questions: t.questions.map((q) => learnerQuestion(q, copies)),
    })),
    nextSectionId: ordered[index + 1]?.id ?? null,
    completed: record?.completed ?? false,
  };
}

/** Adds time spent on a section and marks it completed. */
export async function recordSection(
  ctx: AppContext,
  auth: AuthContext,
  sectionId: string,
  input: { seconds: number; completed: boolean },
) {
  const { section, enrolment } = await loadSection(ctx, auth, sectionId);
  if (!enrolment) throw new AppError('COURSE_NOT_JOINED');
  await upsertRecord(ctx, auth, section, input);
  return getCourseDetail(ctx, auth, section.courseId);
}

/** `findEnrolment` as a prepared statement, for the record's hot read. */
const learnerEnrolment = preparedStatement((db, name) =>
  db
    .select()
    .from(courseEnrolments)
    .where(
      and(
        eq(courseEnrolments.courseId, sql.placeholder('courseId')),
        eq(courseEnrolments.userId, sql.placeholder('userId')),
      ),
    )
    .prepare(name),
);

const learnerAttempts = preparedStatement((db, name) =>
  db
    .select()
    .from(taskAttempts)
    .where(
      and(eq(taskAttempts.courseId, sql.placeholder('courseId')), eq(taskAttempts.userId, sql.placeholder('userId'))),
    )
    .orderBy(asc(taskAttempts.createdAt))
    .prepare(name),
);

/**
 * A learner's record of a course: every section of their version with visits, time and completion, and their
 * attempts. It stays readable when the course is closed or taken down: nothing of the record is lost.
 */
export async function getLearningRecord(ctx: AppContext, auth: AuthContext, courseId: string) {
  const [enrolment] = await learnerEnrolment(ctx.db).execute({ courseId, userId: auth.userId });
  if (!enrolment) throw new AppError('COURSE_NOT_JOINED');
  const [version, records, attempts] = await Promise.all([
    keptVersion(ctx.db, enrolment.versionId),
    recordsOf(ctx, courseId, auth.userId),
    learnerAttempts(ctx.db).execute({ courseId, userId: auth.userId }),
  ]);
  const sections = sectionsInOrder(version.tree);
  const done = sections.filter((s) => records.some((r) => r.sectionId === s.id && r.completedAt)).length;
  return {
    courseId,
    courseName: version.name,
    versionNumber: version.number,
    progress: sections.length ? Math.round((100 * done) / sections.length) : 0,
    sections: sections.map((s) => {
      const r = records.find((x) => x.sectionId === s.id);
      return {
        sectionId: s.id,
        title: s.title,
        visited: Boolean(r),
        secondsSpent: r?.secondsSpent ?? 0,
        completed: Boolean(r?.completedAt),
        lastVisitedAt: r?.lastVisitedAt.toISOString() ?? null,
      };
    }),
    attempts: attempts.map((a) => presentAttempt(a, '')),
  };
}

/** The joined courses with their sections and those the learner completed, counted in the same statement. */
const myStudy = preparedStatement((db, name) => {
  const userId = sql.placeholder('userId');
  return db
    .select({
      course: courses,
      number: infoVersion.number,
      info: infoColumns,
      owner: userDisplayName,
      published: publishedVersion.number,
      total: sql<number>`(select count(*)::int from ${courseSections} s
        where s.version_id = ${courseEnrolments.versionId})`.mapWith(Number),
      completed:
        sql<number>`(select count(*)::int from ${learningRecords} r join ${courseSections} s on s.id = r.section_id
        where r.user_id = ${userId} and r.completed_at is not null and s.version_id = ${courseEnrolments.versionId})`.mapWith(
          Number,
        ),
    })
    .from(courseEnrolments)
    .innerJoin(courses, eq(courses.id, courseEnrolments.courseId))
    .innerJoin(users, eq(users.id, courses.ownerId))
    .innerJoin(infoVersion, eq(infoVersion.id, courseEnrolments.versionId))
    .leftJoin(publishedVersion, eq(publishedVersion.id, courses.publishedVersionId))
    .where(eq(courseEnrolments.userId, userId))
    .orderBy(asc(courseEnrolments.createdAt))
    .prepare(name);
});

/**
 * "My study": every course the caller joined, with progress, including closed ones (shown as closed), each with
 * the name, cover and tags of the version the caller learns.
 */
export async function listMyStudy(ctx: AppContext, auth: AuthContext) {
  const rows = await myStudy(ctx.db).execute({ userId: auth.userId });
  return rows.map((r) => {
    const { total, completed } = r;
    return {
      ...presentSummary(ctx.storage, r.course, { info: r.info, ownerName: r.owner, versionNumber: r.published }),
      progress: total ? Math.round((100 * completed) / total) : 0,
      learnerVersionNumber: r.number,
    };
  });
}
