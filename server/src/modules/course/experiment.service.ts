import { hasPermission, type TExperimentCopy, type TExperimentStart } from '@aiedu/contracts';
import { and, asc, eq, isNotNull, or } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { AuthContext } from '../../platform/auth/tokens.js';
import type { AppContext } from '../../platform/context.js';
import type { Db } from '../../platform/db/client.js';
import { courseCollaborators, courses, courseTasks, experimentCopies, users } from '../../platform/db/schema/index.js';
import { AppError } from '../../platform/errors.js';
import type { RuntimeDriver } from '../runtime/runtime-driver.js';
import { copyTemplateFor } from '../project/project.service.js';
import { findEnrolment, loadForAuthor, loadForLearner } from './course-access.js';

async function findCopy(db: Db, courseId: string, userId: string, templateProjectId: string) {
  const [row] = await db
    .select({ projectId: experimentCopies.projectId })
    .from(experimentCopies)
    .where(
      and(
        eq(experimentCopies.courseId, courseId),
        eq(experimentCopies.userId, userId),
        eq(experimentCopies.templateProjectId, templateProjectId),
      ),
    );
  return row ?? null;
}

/**
 * "Start experiment": the learner's own private copy of the experiment's template project, made once per course,
 * learner and template. A second press answers the same copy; presses at the same time wait on the unique key of
 * the claim, so only one copy is ever made. A learner of another version, a question without a template, or a
 * template that is gone answer "experiment removed" (spec 8).
 */
export async function startExperiment(
  ctx: AppContext,
  driver: RuntimeDriver,
  request: FastifyRequest,
  auth: AuthContext,
  taskId: string,
  questionId: string,
): Promise<TExperimentStart> {
  const [task] = await ctx.db.select().from(courseTasks).where(eq(courseTasks.id, taskId));
  if (!task) throw new AppError('NOT_FOUND');
  await loadForLearner(ctx.db, auth, task.courseId);
  const enrolment = await findEnrolment(ctx.db, task.courseId, auth.userId);
  if (!enrolment) throw new AppError('COURSE_NOT_JOINED');
  const question = task.questions.find((q) => q.id === questionId && q.type === 'experiment');
  if (enrolment.versionId !== task.versionId || !question?.projectId) throw new AppError('EXPERIMENT_REMOVED');
  const templateId = question.projectId;

  const existing = await findCopy(ctx.db, task.courseId, auth.userId, templateId);
  if (existing?.projectId) return { projectId: existing.projectId, created: false };

  return ctx.db.transaction(async (tx) => {
    const [claim] = await tx
      .insert(experimentCopies)
      .values({
        courseId: task.courseId,
        userId: auth.userId,
        customerId: auth.customerId,
        templateProjectId: templateId,
        taskId: task.id,
        questionId,
      })
      .onConflictDoNothing()
      .returning({ id: experimentCopies.id });
    if (!claim) {
      // Another press claimed the copy first; its transaction has committed by now.
      const other = await findCopy(tx, task.courseId, auth.userId, templateId);
      if (!other?.projectId) throw new AppError('OPERATION_FAILED');
      return { projectId: other.projectId, created: false };
    }
    const copy = await copyTemplateFor(ctx, tx, driver, request, auth, templateId);
    if (!copy) throw new AppError('EXPERIMENT_REMOVED');
    await tx.update(experimentCopies).set({ projectId: copy.id }).where(eq(experimentCopies.id, claim.id));
    return { projectId: copy.id, created: true };
  });
}

/** The learner's copies in a course, by template project: what the learner's experiment questions show. */
export async function copiesByTemplate(db: Db, courseId: string, userId: string): Promise<Map<string, string>> {
  const rows = await db
    .select({ templateProjectId: experimentCopies.templateProjectId, projectId: experimentCopies.projectId })
    .from(experimentCopies)
    .where(and(eq(experimentCopies.courseId, courseId), eq(experimentCopies.userId, userId)));
  return new Map(rows.flatMap((r) => (r.projectId ? [[r.templateProjectId, r.projectId] as const] : [])));
}

/** Every learner's experiment copy in a course, for its teachers (owner and collaborators). */
export async function listExperimentCopies(
  ctx: AppContext,
  auth: AuthContext,
  courseId: string,
): Promise<TExperimentCopy[]> {
  const { course } = await loadForAuthor(ctx.db, auth, courseId);
  const rows = await ctx.db
    .select({
      copy: experimentCopies,
      username: users.username,
      realName: users.realName,
      taskTitle: courseTasks.title,
    })
    .from(experimentCopies)
    .innerJoin(users, eq(users.id, experimentCopies.userId))
    .leftJoin(courseTasks, eq(courseTasks.id, experimentCopies.taskId))
    .where(and(eq(experimentCopies.courseId, course.id), isNotNull(experimentCopies.projectId)))
    .orderBy(asc(users.username), asc(experimentCopies.createdAt));
  return rows.map(({ copy, username, realName, taskTitle }) => ({
    id: copy.id,
    taskId: copy.taskId,
    taskTitle: taskTitle ?? '',
    questionId: copy.questionId,
    userId: copy.userId,
    learnerName: realName || username,
    projectId: copy.projectId!,
    createdAt: copy.createdAt.toISOString(),
  }));
}

/**
 * Whether the caller teaches (owns or co-authors) a course in which the project is a learner's experiment copy:
 * such a teacher may look at the copy read-only. Teachers of other courses and other customers may not.
 */
export async function mayReviewExperimentCopy(db: Db, auth: AuthContext, projectId: string): Promise<boolean> {
  if (!hasPermission(auth.roles, 'course.author')) return false;
  const [row] = await db
    .select({ id: experimentCopies.id })
    .from(experimentCopies)
    .innerJoin(courses, eq(courses.id, experimentCopies.courseId))
    .leftJoin(
      courseCollaborators,
      and(eq(courseCollaborators.courseId, courses.id), eq(courseCollaborators.userId, auth.userId)),
    )
    .where(
      and(
        eq(experimentCopies.projectId, projectId),
        or(eq(courses.ownerId, auth.userId), isNotNull(courseCollaborators.userId)),
      ),
    )
    .limit(1);
  return Boolean(row);
}

/**
 * The projects that are learners' experiment copies, as a subquery: their runtimes are study (the customer's study
 * concurrency counts them).
 */
export function experimentCopyProjects(db: Db) {
  return db
    .select({ projectId: experimentCopies.projectId })
    .from(experimentCopies)
    .where(isNotNull(experimentCopies.projectId));
}

/** Whether the project is a learner's experiment copy. */
export async function isExperimentCopy(db: Db, projectId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: experimentCopies.id })
    .from(experimentCopies)
    .where(eq(experimentCopies.projectId, projectId))
    .limit(1);
  return !!row;
}
