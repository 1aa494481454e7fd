import { LIMITS, type TOutlineRequest, type TQuestion } from '@aiedu/contracts';
import { and, eq } from 'drizzle-orm';
import type { AuthContext } from '../../platform/auth/tokens.js';
import type { AppContext } from '../../platform/context.js';
import {
  courseChapters,
  courseResources,
  courseSections,
  courses,
  courseTasks,
  type StoredQuestion,
} from '../../platform/db/schema/index.js';
import { AppError } from '../../platform/errors.js';
import { editableVersion, loadForAuthor, loadPartForAuthor } from './course-access.js';
import { countRows, lockCourse, nextPosition, outlineIds, writeOrder } from './course-content.repository.js';
import { assertProjectVisible } from '../project/project.service.js';
import { getEditableCourse } from './authoring.service.js';

/** Every change of content is a change of the course: the editor shows it as saved at that time. */
async function touch(ctx: AppContext, courseId: string) {
  await ctx.db.update(courses).set({ updatedAt: ctx.now() }).where(eq(courses.id, courseId));
}

export async function addChapter(ctx: AppContext, auth: AuthContext, courseId: string, title: string) {
  const { course } = await loadForAuthor(ctx.db, auth, courseId);
  const versionId = editableVersion(course);
  const position = await nextPosition(ctx.db, courseChapters, eq(courseChapters.versionId, versionId));
  await ctx.db.insert(courseChapters).values({ courseId, versionId, title, position });
  await touch(ctx, courseId);
  return getEditableCourse(ctx, auth, courseId);
}

export async function renameChapter(ctx: AppContext, auth: AuthContext, id: string, title: string) {
  const { course } = await loadPartForAuthor(ctx.db, auth, 'chapter', id);
  await ctx.db.update(courseChapters).set({ title }).where(eq(courseChapters.id, id));
  await touch(ctx, course.id);
  return getEditableCourse(ctx, auth, course.id);
}

/** Whether `wanted` names each of `current` exactly once and nothing else. */
function isPermutation(wanted: readonly string[], current: readonly string[]): boolean {
  const set = new Set(wanted);
  return set.size === wanted.length && wanted.length === current.length && current.every((id) => set.has(id));
}

/**
 * Puts the chapters and sections of the version being written in a new order, sections possibly under another
 * chapter, in one transaction. The order must name every chapter and every section of the version once (a client
 * that missed an addition or a deletion gets BAD_REQUEST and reloads); the course row is locked meanwhile, so two
 * orders written at once apply one after the other.
 */
export async function reorderOutline(ctx: AppContext, auth: AuthContext, courseId: string, outline: TOutlineRequest) {
  const { course } = await loadForAuthor(ctx.db, auth, courseId);
  const versionId = editableVersion(course);
  await ctx.db.transaction(async (tx) => {
    await lockCourse(tx, course.id);
    const { chapterIds, sectionIds } = await outlineIds(tx, versionId);
    const wantedSections = outline.chapters.flatMap((c) => c.sections);
    if (
      !isPermutation(
        outline.chapters.map((c) => c.id),
        chapterIds,
      ) ||
      !isPermutation(wantedSections, sectionIds)
    ) {
      throw new AppError('BAD_REQUEST', { reason: 'order' });
    }
    await writeOrder(
      tx,
      courseChapters,
      outline.chapters.map((c, position) => ({ id: c.id, position })),
    );
    await writeOrder(
      tx,
      courseSections,
      outline.chapters.flatMap((c) => c.sections.map((id, position) => ({ id, position, chapterId: c.id }))),
    );
    await tx.update(courses).set({ updatedAt: ctx.now() }).where(eq(courses.id, course.id));
  });
  return getEditableCourse(ctx, auth, course.id);
}

/** Puts a section's tasks in a new order: every task of the section once, as for the outline. */
export async function reorderTasks(ctx: AppContext, auth: AuthContext, sectionId: string, ids: string[]) {
  const { course } = await loadPartForAuthor(ctx.db, auth, 'section', sectionId);
  await ctx.db.transaction(async (tx) => {
    await lockCourse(tx, course.id);
    const current = await tx
      .select({ id: courseTasks.id })
      .from(courseTasks)
      .where(eq(courseTasks.sectionId, sectionId));
    if (
      !isPermutation(
        ids,
        current.map((t) => t.id),
      )
    ) {
      throw new AppError('BAD_REQUEST', { reason: 'order' });
    }
    await writeOrder(
      tx,
      courseTasks,
      ids.map((id, position) => ({ id, position })),
    );
    await tx.update(courses).set({ updatedAt: ctx.now() }).where(eq(courses.id, course.id));
  });
  return getEditableCourse(ctx, auth, course.id);
}

export async function deleteChapter(ctx: AppContext, auth: AuthContext, id: string) {
  const { course } = await loadPartForAuthor(ctx.db, auth, 'chapter', id);
  await ctx.db.delete(courseChapters).where(eq(courseChapters.id, id));
  await touch(ctx, course.id);
  return getEditableCourse(ctx, auth, course.id);
}

/** At most 100 sections per course (counted in the version being written). */
export async function addSection(ctx: AppContext, auth: AuthContext, chapterId: string, title: string) {
  const { course, versionId } = await loadPartForAuthor(ctx.db, auth, 'chapter', chapterId);
  if ((await countRows(ctx.db, courseSections, 'versionId', versionId)) >= LIMITS.sectionsPerCourse) {
    throw new AppError('COURSE_SECTIONS_FULL');
  }
  const position = await nextPosition(ctx.db, courseSections, eq(courseSections.chapterId, chapterId));
  const [row] = await ctx.db
    .insert(courseSections)
    .values({ courseId: course.id, versionId, chapterId, title, position })
    .returning({ id: courseSections.id });
  await touch(ctx, course.id);
  return { sectionId: row!.id, course: await getEditableCourse(ctx, auth, course.id) };
}

export async function updateSection(
  ctx: AppContext,
  auth: AuthContext,
  id: string,
  input: {
    title?: string | undefined;
    content?: string | undefined;
    aiLinks?: { title: string; url: string }[] | undefined;
  },
) {
  const { course } = await loadPartForAuthor(ctx.db, auth, 'section', id);
  await ctx.db.update(courseSections).set(input).where(eq(courseSections.id, id));
  await touch(ctx, course.id);
  return getEditableCourse(ctx, auth, course.id);
}

export async function deleteSection(ctx: AppContext, auth: AuthContext, id: string) {
  const { course } = await loadPartForAuthor(ctx.db, auth, 'section', id);
  await ctx.db.delete(courseSections).where(eq(courseSections.id, id));
  await touch(ctx, course.id);
  return getEditableCourse(ctx, auth, course.id);
}

/** Choice answers must name existing options; question ids must be unique within the task. */
export function checkQuestions(questions: TQuestion[]) {
  const ids = new Set<string>();
  for (const q of questions) {
    if (ids.has(q.id)) throw new AppError('BAD_REQUEST', { reason: 'question id', id: q.id });
    ids.add(q.id);
    if (q.type === 'single' || q.type === 'multiple') {
      const unique = new Set(q.answer);
      if (unique.size !== q.answer.length || q.answer.some((i) => i >= q.options.length)) {
        throw new AppError('BAD_REQUEST', { reason: 'answer', id: q.id });
      }
    }
  }
}

/**
 * An experiment's template must be a project the author may see (their own, one they collaborate on, or a
 * public one of their institution): a course never hands out copies of someone else's private work. Templates
 * the task already had stay, so a co-author can change a task whose template only the owner sees.
 */
async function checkTemplates(ctx: AppContext, auth: AuthContext, questions: TQuestion[], kept: StoredQuestion[] = []) {
  const before = new Set(kept.map((q) => q.projectId));
  for (const q of questions) {
    if (q.type === 'experiment' && q.projectId && !before.has(q.projectId)) {
      await assertProjectVisible(ctx, auth, q.projectId);
    }
  }
}

/** At most 10 tasks per section. */
export async function addTask(
  ctx: AppContext,
  auth: AuthContext,
  sectionId: string,
  input: { title: string; questions: TQuestion[] },
) {
  checkQuestions(input.questions);
  const { course, versionId } = await loadPartForAuthor(ctx.db, auth, 'section', sectionId);
  await checkTemplates(ctx, auth, input.questions);
  if ((await countRows(ctx.db, courseTasks, 'sectionId', sectionId)) >= LIMITS.tasksPerSection) {
    throw new AppError('COURSE_TASKS_FULL');
  }
  const position = await nextPosition(ctx.db, courseTasks, eq(courseTasks.sectionId, sectionId));
  await ctx.db.insert(courseTasks).values({ courseId: course.id, versionId, sectionId, position, ...input });
  await touch(ctx, course.id);
  return getEditableCourse(ctx, auth, course.id);
}

export async function updateTask(
  ctx: AppContext,
  auth: AuthContext,
  id: string,
  input: { title: string; questions: TQuestion[] },
) {
  checkQuestions(input.questions);
  const { course } = await loadPartForAuthor(ctx.db, auth, 'task', id);
  const [task] = await ctx.db
    .select({ questions: courseTasks.questions })
    .from(courseTasks)
    .where(eq(courseTasks.id, id));
  await checkTemplates(ctx, auth, input.questions, task?.questions);
  await ctx.db.update(courseTasks).set(input).where(eq(courseTasks.id, id));
  await touch(ctx, course.id);
  return getEditableCourse(ctx, auth, course.id);
}

export async function deleteTask(ctx: AppContext, auth: AuthContext, id: string) {
  const { course } = await loadPartForAuthor(ctx.db, auth, 'task', id);
  await ctx.db.delete(courseTasks).where(eq(courseTasks.id, id));
  await touch(ctx, course.id);
  return getEditableCourse(ctx, auth, course.id);
}

/** Removes a resource; its file goes too unless a published version still uses it. */
export async function deleteResource(ctx: AppContext, auth: AuthContext, id: string) {
  const { course } = await loadPartForAuthor(ctx.db, auth, 'resource', id);
  const [row] = await ctx.db.select().from(courseResources).where(eq(courseResources.id, id));
  const others = await ctx.db
    .select({ id: courseResources.id })
    .from(courseResources)
    .where(and(eq(courseResources.storageKey, row!.storageKey)));
  await ctx.db.delete(courseResources).where(eq(courseResources.id, id));
  if (others.length <= 1) await ctx.storage.delete(row!.storageKey);
  await touch(ctx, course.id);
  return getEditableCourse(ctx, auth, course.id);
}

/** Adds an uploaded file to a section (called once its upload is complete), within the limit of 10. */
export async function addResource(
  ctx: AppContext,
  sectionId: string,
  file: { name: string; storageKey: string; size: number; mime: string },
) {
  const [section] = await ctx.db.select().from(courseSections).where(eq(courseSections.id, sectionId));
  if (!section) throw new AppError('NOT_FOUND');
  if ((await countRows(ctx.db, courseResources, 'sectionId', sectionId)) >= LIMITS.resourcesPerSection) {
    throw new AppError('COURSE_RESOURCES_FULL');
  }
  const position = await nextPosition(ctx.db, courseResources, eq(courseResources.sectionId, sectionId));
  const [row] = await ctx.db
    .insert(courseResources)
    .values({ courseId: section.courseId, versionId: section.versionId, sectionId, position, ...file })
    .returning();
  await touch(ctx, section.courseId);
  return row!;
}
