import type { TCourseVersion } from '@aiedu/contracts';
import { and, count, desc, eq, inArray, max, ne, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { v7 as uuidv7 } from 'uuid';
import { writeAudit } from '../../platform/audit.js';
import type { AuthContext } from '../../platform/auth/tokens.js';
import type { AppContext } from '../../platform/context.js';
import {
  classes,
  courseChapters,
  courseClassAssignments,
  courseEnrolments,
  courses,
  courseSections,
  courseVersions,
  students,
} from '../../platform/db/schema/index.js';
import { AppError } from '../../platform/errors.js';
import { callerScope, scopeWhere } from '../../platform/tenancy.js';
import { loadForAuthor } from './course-access.js';
import { copyVersion, countRows, coverKeysOnlyIn, keysOnlyIn } from './course-content.repository.js';
import { getEditableCourse, summaryOf } from './authoring.service.js';

/**
 * Spec section 4: draft → published; published → modifying (a revision) → published as a new version, or the
 * revision abandoned; any state but closed → closed. Only the owner moves a course between states.
 */
export async function publishCourse(ctx: AppContext, request: FastifyRequest, auth: AuthContext, courseId: string) {
  const { course } = await loadForAuthor(ctx.db, auth, courseId, 'owner');
  if (course.status === 'closed' || !course.draftVersionId) throw new AppError('COURSE_STATE_INVALID');
  const draftId = course.draftVersionId;
  if ((await countRows(ctx.db, courseSections, 'versionId', draftId)) === 0) {
    throw new AppError('COURSE_STATE_INVALID', { reason: 'empty' });
  }
  await ctx.db.transaction(async (tx) => {
    const [last] = await tx
      .select({ n: max(courseVersions.number) })
      .from(courseVersions)
      .where(eq(courseVersions.courseId, course.id));
    const now = ctx.now();
    await tx
      .update(courseVersions)
      .set({ status: 'published', number: (last?.n ?? 0) + 1, publishedAt: now })
      .where(eq(courseVersions.id, draftId));
    await tx
      .update(courses)
      .set({ status: 'published', publishedVersionId: draftId, draftVersionId: null, publishedAt: now })
      .where(eq(courses.id, course.id));
    await writeAudit(tx, request, { module: 'course', operation: 'publish', params: { id: courseId } });
  });
  return getEditableCourse(ctx, auth, courseId);
}

/**
 * A revision: a draft copied from the published version, information (name, description, cover, tags) and
 * content; learners keep the published one meanwhile.
 */
export async function startRevision(ctx: AppContext, request: FastifyRequest, auth: AuthContext, courseId: string) {
  const { course } = await loadForAuthor(ctx.db, auth, courseId, 'owner');
  if (course.status !== 'published' || course.draftVersionId || !course.publishedVersionId) {
    throw new AppError('COURSE_STATE_INVALID');
  }
  const publishedId = course.publishedVersionId;
  await ctx.db.transaction(async (tx) => {
    const draftId = uuidv7();
    const [published] = await tx.select().from(courseVersions).where(eq(courseVersions.id, publishedId));
    const { name, description, coverKey, thumbKey, tags } = published!;
    await tx
      .insert(courseVersions)
      .values({ id: draftId, courseId: course.id, name, description, coverKey, thumbKey, tags });
    await copyVersion(tx, course.id, publishedId, draftId);
    await tx.update(courses).set({ draftVersionId: draftId }).where(eq(courses.id, course.id));
    await writeAudit(tx, request, { module: 'course', operation: 'revise', params: { id: courseId } });
  });
  return getEditableCourse(ctx, auth, courseId);
}

/**
 * Every version of a course, newest first: the one being written, those published (the current one is what new
 * learners get) and abandoned revisions, each with the learners on it.
 */
export async function listVersions(ctx: AppContext, auth: AuthContext, courseId: string): Promise<TCourseVersion[]> {
  const { course } = await loadForAuthor(ctx.db, auth, courseId);
  const [versions, learners] = await Promise.all([
    ctx.db
      .select()
      .from(courseVersions)
      .where(eq(courseVersions.courseId, course.id))
      .orderBy(desc(courseVersions.createdAt), desc(courseVersions.id)),
    ctx.db
      .select({ versionId: courseEnrolments.versionId, n: count() })
      .from(courseEnrolments)
      .where(eq(courseEnrolments.courseId, course.id))
      .groupBy(courseEnrolments.versionId),
  ]);
  return versions.map((v) => ({
    id: v.id,
    number: v.number,
    status: v.status,
    name: v.name,
    current: v.id === course.publishedVersionId,
    editing: v.id === course.draftVersionId,
    learners: learners.find((l) => l.versionId === v.id)?.n ?? 0,
    createdAt: v.createdAt.toISOString(),
    publishedAt: v.publishedAt?.toISOString() ?? null,
  }));
}

/** Drops a revision: the published version stays as it was; files (and a cover) only the revision used are deleted. */
export async function abandonRevision(ctx: AppContext, request: FastifyRequest, auth: AuthContext, courseId: string) {
  const { course } = await loadForAuthor(ctx.db, auth, courseId, 'owner');
  if (course.status !== 'published' || !course.draftVersionId) throw new AppError('COURSE_STATE_INVALID');
  const draftId = course.draftVersionId;
  const orphanKeys = [...(await keysOnlyIn(ctx.db, draftId)), ...(await coverKeysOnlyIn(ctx.db, draftId))];
  await ctx.db.transaction(async (tx) => {
    await tx.delete(courseChapters).where(eq(courseChapters.versionId, draftId));
    await tx
      .update(courseVersions)
      .set({ status: 'abandoned', coverKey: null, thumbKey: null })
      .where(eq(courseVersions.id, draftId));
    await tx.update(courses).set({ draftVersionId: null }).where(eq(courses.id, course.id));
    await writeAudit(tx, request, { module: 'course', operation: 'abandonRevision', params: { id: courseId } });
  });
  for (const key of orphanKeys) await ctx.storage.delete(key);
  return getEditableCourse(ctx, auth, courseId);
}

/** Closing keeps every learner's record; learners then see "course deleted or closed". */
export async function closeCourse(ctx: AppContext, request: FastifyRequest, auth: AuthContext, courseId: string) {
  const { course } = await loadForAuthor(ctx.db, auth, courseId, 'owner');
  if (course.status === 'closed') throw new AppError('COURSE_STATE_INVALID');
  await ctx.db.transaction(async (tx) => {
    await tx.update(courses).set({ status: 'closed' }).where(eq(courses.id, course.id));
    await writeAudit(tx, request, { module: 'course', operation: 'close', params: { id: courseId } });
  });
  return getEditableCourse(ctx, auth, courseId);
}

/** Super administrators take a course down (or put it back); learners see "course taken down". */
export async function setTakenDown(ctx: AppContext, request: FastifyRequest, courseId: string, takenDown: boolean) {
  const [row] = await ctx.db.update(courses).set({ takenDown }).where(eq(courses.id, courseId)).returning();
  if (!row) throw new AppError('NOT_FOUND');
  await writeAudit(ctx.db, request, {
    module: 'course',
    operation: takenDown ? 'takeDown' : 'putBack',
    params: { id: courseId },
    customerId: row.customerId,
  });
  return summaryOf(ctx, row);
}

/** Moves learners (all, or the ones named) to the published version; their records stay. */
export async function moveLearners(
  ctx: AppContext,
  request: FastifyRequest,
  auth: AuthContext,
  courseId: string,
  userIds: string[] | undefined,
) {
  const { course } = await loadForAuthor(ctx.db, auth, courseId, 'owner');
  if (course.status !== 'published' || !course.publishedVersionId) throw new AppError('COURSE_STATE_INVALID');
  const moved = await ctx.db
    .update(courseEnrolments)
    .set({ versionId: course.publishedVersionId })
    .where(
      and(
        eq(courseEnrolments.courseId, course.id),
        ne(courseEnrolments.versionId, course.publishedVersionId),
        userIds ? inArray(courseEnrolments.userId, userIds) : undefined,
      ),
    )
    .returning({ id: courseEnrolments.id });
  await writeAudit(ctx.db, request, { module: 'course', operation: 'moveLearners', params: { id: courseId, userIds } });
  return { moved: moved.length };
}

/**
 * A teacher gives a published course to a class of their school: every student of the class joins it on the
 * published version (students who join the class later are enrolled when they open the course).
 */
export async function assignToClass(
  ctx: AppContext,
  request: FastifyRequest,
  auth: AuthContext,
  courseId: string,
  classId: string,
) {
  const { course } = await loadForAuthor(ctx.db, auth, courseId);
  if (course.status !== 'published' || !course.publishedVersionId || course.takenDown) {
    throw new AppError('COURSE_STATE_INVALID');
  }
  const scope = await callerScope(ctx.db, auth);
  const [klass] = await ctx.db
    .select()
    .from(classes)
    .where(and(eq(classes.id, classId), scopeWhere(scope, classes)));
  if (!klass) throw new AppError('NOT_FOUND');
  const versionId = course.publishedVersionId;
  return ctx.db.transaction(async (tx) => {
    await tx
      .insert(courseClassAssignments)
      .values({ courseId: course.id, classId, customerId: klass.customerId, assignedBy: auth.userId })
      .onConflictDoNothing();
    const pupils = await tx
      .select({ userId: students.userId, customerId: students.customerId })
      .from(students)
      .where(eq(students.classId, classId));
    const joined = pupils.length
      ? await tx
          .insert(courseEnrolments)
          .values(pupils.map((p) => ({ ...p, courseId: course.id, versionId, joinedVia: 'class' as const })))
          .onConflictDoNothing()
          .returning({ id: courseEnrolments.id })
      : [];
    await tx
      .update(courses)
      .set({ learnerCount: sql`${courses.learnerCount} + ${joined.length}` })
      .where(eq(courses.id, course.id));
    await writeAudit(tx, request, { module: 'course', operation: 'assignClass', params: { id: courseId, classId } });
    return { joined: joined.length };
  });
}
