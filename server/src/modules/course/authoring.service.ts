import { Readable } from 'node:stream';
import {
  IMAGE_TYPES,
  LIMITS,
  ROLES,
  hasExtension,
  type TCourseAuthorStatus,
  type TEditableCourse,
} from '@aiedu/contracts';
import type { z } from 'zod';
import type { ZCourseInfoRequest } from '@aiedu/contracts';
import { and, desc, eq, or, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { v7 as uuidv7 } from 'uuid';
import { writeAudit } from '../../platform/audit.js';
import type { AuthContext } from '../../platform/auth/tokens.js';
import type { AppContext } from '../../platform/context.js';
import type { Db } from '../../platform/db/client.js';
import {
  courseCategories,
  courseCollaborators,
  courseDifficulties,
  courses,
  courseVersions,
  teachers,
} from '../../platform/db/schema/index.js';
import { AppError } from '../../platform/errors.js';
import { reencodeImage } from '../../platform/images.js';
import { latestCertification } from '../user/certification.service.js';
import { listCollaborators } from './collaborator.service.js';
import { editableVersion, loadForAuthor, type CourseRow } from './course-access.js';
import { withFreeCourseCode } from './course-code.js';
import { coverKeysOnlyIn, loadVersionTree } from './course-content.repository.js';
import { loadSummaryParts, selectEditingSummaries } from './course-summary.repository.js';
import { presentQuestion, presentSummary } from './course.presenter.js';

type CourseInfo = z.output<typeof ZCourseInfoRequest>;

/** Tags are unique within a course (spec: "Tag already exists!"). */
function checkTags(tags: string[] | undefined) {
  if (!tags) return;
  const seen = new Set<string>();
  for (const tag of tags) {
    const key = tag.toLowerCase();
    if (seen.has(key)) throw new AppError('TAG_EXISTS', { tag });
    seen.add(key);
  }
}

/** A direction must be a direction, a stage a stage, a difficulty a difficulty. */
async function checkCategories(db: Db, info: Partial<CourseInfo>) {
  const wanted: [string | null | undefined, 'direction' | 'stage'][] = [
    [info.directionId, 'direction'],
    [info.stageId, 'stage'],
  ];
  for (const [id, kind] of wanted) {
    if (!id) continue;
    const [row] = await db
      .select({ id: courseCategories.id })
      .from(courseCategories)
      .where(and(eq(courseCategories.id, id), eq(courseCategories.kind, kind)));
    if (!row) throw new AppError('BAD_REQUEST', { reason: kind });
  }
  if (info.difficultyId) {
    const [row] = await db
      .select({ id: courseDifficulties.id })
      .from(courseDifficulties)
      .where(eq(courseDifficulties.id, info.difficultyId));
    if (!row) throw new AppError('BAD_REQUEST', { reason: 'difficulty' });
  }
}

async function isCertifiedTeacher(db: Db, userId: string): Promise<boolean> {
  const [teacher] = await db
    .select({ certified: teachers.certified })
    .from(teachers)
    .where(eq(teachers.userId, userId));
  return Boolean(teacher?.certified);
}

/**
 * Whether the caller may create a course, with their latest request for teacher certification: the course centre
 * says what is missing instead of offering a form the server would refuse.
 */
export async function getAuthorStatus(ctx: AppContext, auth: AuthContext): Promise<TCourseAuthorStatus> {
  const [canCreate, latest] = await Promise.all([
    isCertifiedTeacher(ctx.db, auth.userId),
    latestCertification(ctx, auth.userId),
  ]);
  return { canCreate, certification: latest && { status: latest.status, reason: latest.reason } };
}

/** Only certified teachers create courses (spec section 6). */
export async function createCourse(ctx: AppContext, request: FastifyRequest, auth: AuthContext, info: CourseInfo) {
  // Administrators write only the starter courses they imported.
  if (!auth.roles.includes(ROLES.teacher)) throw new AppError('NO_PERMISSION_PAGE');
  if (!(await isCertifiedTeacher(ctx.db, auth.userId))) throw new AppError('COURSE_AUTHOR_NOT_CERTIFIED');
  checkTags(info.tags);
  await checkCategories(ctx.db, info);
  const { name, description, tags, ...courseLevel } = info;
  const id = await ctx.db.transaction(async (tx) => {
    const courseId = uuidv7();
    const draftId = uuidv7();
    const row = await withFreeCourseCode(async (code) => {
      const [inserted] = await tx
        .insert(courses)
        .values({ ...courseLevel, id: courseId, code, customerId: auth.customerId, ownerId: auth.userId })
        .onConflictDoNothing({ target: courses.code })
        .returning({ id: courses.id });
      return inserted ?? null;
    }, ctx.courseCode);
    await tx.insert(courseVersions).values({ id: draftId, courseId, name, description, tags });
    await tx.update(courses).set({ draftVersionId: draftId }).where(eq(courses.id, courseId));
    await writeAudit(tx, request, { module: 'course', operation: 'create', params: { name: info.name } });
    return row.id;
  });
  return getEditableCourse(ctx, auth, id);
}

/**
 * Name, description and tags belong to a version: they change in the draft (the first one, or a revision) while
 * learners keep the published version's. Scope, category, difficulty and levels belong to the course.
 */
export async function updateCourse(
  ctx: AppContext,
  request: FastifyRequest,
  auth: AuthContext,
  courseId: string,
  info: Partial<CourseInfo>,
) {
  const { course } = await loadForAuthor(ctx.db, auth, courseId);
  if (course.status === 'closed') throw new AppError('COURSE_STATE_INVALID');
  const { name, description, tags, ...courseLevel } = info;
  const versionLevel = Object.fromEntries(
    Object.entries({ name, description, tags }).filter(([, value]) => value !== undefined),
  );
  const draftId = Object.keys(versionLevel).length > 0 ? editableVersion(course) : null;
  checkTags(tags);
  await checkCategories(ctx.db, courseLevel);
  await ctx.db.transaction(async (tx) => {
    if (draftId) await tx.update(courseVersions).set(versionLevel).where(eq(courseVersions.id, draftId));
    await tx
      .update(courses)
      // The form sets public, customer or private: any of them takes the course out of the group it was shared with.
      .set({ ...courseLevel, ...(courseLevel.publicScope ? { groupId: null } : {}), updatedAt: ctx.now() })
      .where(eq(courses.id, course.id));
    await writeAudit(tx, request, { module: 'course', operation: 'update', params: { id: courseId, ...info } });
  });
  return getEditableCourse(ctx, auth, courseId);
}

export const COVER_SIZE = { width: 800, height: 450 };
export const THUMB_SIZE = { width: 320, height: 180 };

/** The draft whose cover the caller may change (a published version keeps its cover); checked before the upload. */
export async function coverTarget(ctx: AppContext, auth: AuthContext, courseId: string) {
  const { course } = await loadForAuthor(ctx.db, auth, courseId);
  return { course, draftId: editableVersion(course) };
}

/** A cover: under 2 MB, JPG/PNG/GIF/JPEG by name and by magic bytes, stored re-encoded with a thumbnail. */
export async function setCover(ctx: AppContext, auth: AuthContext, courseId: string, fileName: string, bytes: Buffer) {
  const { course, draftId } = await coverTarget(ctx, auth, courseId);
  if (bytes.length >= LIMITS.coverBytes) throw new AppError('FILE_TOO_LARGE');
  if (!hasExtension(fileName, IMAGE_TYPES)) throw new AppError('BAD_REQUEST', { reason: 'image type' });
  const cover = await reencodeImage(bytes, ['jpeg', 'png', 'gif'], { ...COVER_SIZE, fit: 'cover' });
  const thumb = await reencodeImage(cover, ['png'], { ...THUMB_SIZE, fit: 'cover' });
  const stamp = uuidv7();
  const coverKey = `courses/${course.id}/cover-${stamp}.png`;
  const thumbKey = `courses/${course.id}/thumb-${stamp}.png`;
  await ctx.storage.put(coverKey, Readable.from([cover]), { maxBytes: LIMITS.coverBytes * 4 });
  await ctx.storage.put(thumbKey, Readable.from([thumb]), { maxBytes: LIMITS.coverBytes });
  const orphans = await coverKeysOnlyIn(ctx.db, draftId);
  await ctx.db.update(courseVersions).set({ coverKey, thumbKey }).where(eq(courseVersions.id, draftId));
  for (const old of orphans) await ctx.storage.delete(old);
  return getEditableCourse(ctx, auth, courseId);
}

/** A course as a summary, with the information of the version named (by default the published one, else the draft). */
export async function summaryOf(
  ctx: AppContext,
  course: CourseRow,
  versionId: string = course.publishedVersionId ?? course.draftVersionId!,
) {
  return presentSummary(ctx.storage, course, await loadSummaryParts(ctx.db, course, versionId));
}

/** The editor's view: the draft being written, or the published version when there is no draft. */
export async function getEditableCourse(
  ctx: AppContext,
  auth: AuthContext,
  courseId: string,
): Promise<TEditableCourse> {
  const { course, role } = await loadForAuthor(ctx.db, auth, courseId);
  const versionId = course.draftVersionId ?? course.publishedVersionId!;
  const [tree, summary, collaborators] = await Promise.all([
    loadVersionTree(ctx.db, versionId),
    summaryOf(ctx, course, versionId),
    listCollaborators(ctx.db, course.id),
  ]);
  return {
    ...summary,
    code: course.code,
    isOwner: role === 'owner',
    editingVersionId: versionId,
    collaborators,
    chapters: tree.chapters.map((c) => ({
      id: c.id,
      title: c.title,
      sections: c.sections.map((s) => ({
        id: s.id,
        title: s.title,
        content: s.content,
        aiLinks: s.aiLinks,
        tasks: s.tasks.map((t) => ({ id: t.id, title: t.title, questions: t.questions.map(presentQuestion) })),
        resources: s.resources.map((r) => ({ id: r.id, name: r.name, size: r.size, mime: r.mime })),
      })),
    })),
  };
}

/** Courses the caller owns or collaborates on, newest first, with the information of the version being written. */
export async function listAuthoredCourses(ctx: AppContext, auth: AuthContext) {
  const rows = await selectEditingSummaries(ctx.db)
    .where(
      or(
        eq(courses.ownerId, auth.userId),
        sql`exists (select 1 from ${courseCollaborators} where ${courseCollaborators.courseId} = ${courses.id} and ${courseCollaborators.userId} = ${auth.userId})`,
      ),
    )
    .orderBy(desc(courses.updatedAt));
  return rows.map((r) =>
    presentSummary(ctx.storage, r.course, { info: r.info, ownerName: r.owner, versionNumber: r.number }),
  );
}
