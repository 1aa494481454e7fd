import type { TAttempt } from '@aiedu/contracts';
import { asc, eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { writeAudit } from '../../platform/audit.js';
import type { AuthContext } from '../../platform/auth/tokens.js';
import type { AppContext } from '../../platform/context.js';
import { courseTasks, taskAttempts, users } from '../../platform/db/schema/index.js';
import { AppError } from '../../platform/errors.js';
import { findEnrolment, loadForAuthor, loadForLearner } from './course-access.js';
import { gradeAttempt, type Answer } from './grading.js';

type AttemptRow = typeof taskAttempts.$inferSelect;

export function presentAttempt(row: AttemptRow, learnerName: string): TAttempt {
  return {
    id: row.id,
    taskId: row.taskId,
    userId: row.userId,
    learnerName,
    status: row.status,
    score: row.score,
    credits: row.credits,
    answers: row.answers,
    comment: row.comment,
    createdAt: row.createdAt.toISOString(),
  };
}

/**
 * A learner answers a task of their version. Choice questions are graded at once; a task with short answers
 * or experiments waits for the teacher. Every attempt is kept.
 */
export async function submitAttempt(ctx: AppContext, auth: AuthContext, taskId: string, answers: Answer[]) {
  const [task] = await ctx.db.select().from(courseTasks).where(eq(courseTasks.id, taskId));
  if (!task) throw new AppError('NOT_FOUND');
  await loadForLearner(ctx.db, auth, task.courseId);
  const enrolment = await findEnrolment(ctx.db, task.courseId, auth.userId);
  if (!enrolment) throw new AppError('COURSE_NOT_JOINED');
  if (enrolment.versionId !== task.versionId) {
    // A task of another version: after a move to a newer version, an experiment the teacher took out is "removed".
    throw new AppError(task.questions.some((q) => q.type === 'experiment') ? 'EXPERIMENT_REMOVED' : 'NOT_FOUND');
  }
  const grade = gradeAttempt(task.questions, answers);
  const [row] = await ctx.db
    .insert(taskAttempts)
    .values({
      courseId: task.courseId,
      taskId,
      userId: auth.userId,
      customerId: auth.customerId,
      answers,
      credits: grade.credits,
      status: grade.status,
      score: grade.score,
    })
    .returning();
  return presentAttempt(row!, '');
}

/** The teacher scores an attempt with short answers or experiments: 0–100 and a comment. */
export async function gradeByTeacher(
  ctx: AppContext,
  request: FastifyRequest,
  auth: AuthContext,
  attemptId: string,
  input: { score: number; comment: string },
) {
  const [attempt] = await ctx.db.select().from(taskAttempts).where(eq(taskAttempts.id, attemptId));
  if (!attempt) throw new AppError('NOT_FOUND');
  await loadForAuthor(ctx.db, auth, attempt.courseId);
  const [task] = await ctx.db.select().from(courseTasks).where(eq(courseTasks.id, attempt.taskId));
  if (task && task.questions.every((q) => q.type === 'single' || q.type === 'multiple')) {
    throw new AppError('COURSE_NOT_GRADABLE');
  }
  const [row] = await ctx.db
    .update(taskAttempts)
    .set({ score: input.score, comment: input.comment, status: 'graded', gradedBy: auth.userId })
    .where(eq(taskAttempts.id, attemptId))
    .returning();
  await writeAudit(ctx.db, request, {
    module: 'course',
    operation: 'grade',
    params: { id: attemptId, score: input.score },
  });
  return presentAttempt(row!, '');
}

/** Every attempt of every learner of a course, for its teachers. */
export async function listResults(ctx: AppContext, auth: AuthContext, courseId: string) {
  const { course } = await loadForAuthor(ctx.db, auth, courseId);
  const rows = await ctx.db
    .select({ attempt: taskAttempts, username: users.username, realName: users.realName })
    .from(taskAttempts)
    .innerJoin(users, eq(users.id, taskAttempts.userId))
    .where(eq(taskAttempts.courseId, course.id))
    .orderBy(asc(users.username), asc(taskAttempts.createdAt));
  return rows.map((r) => presentAttempt(r.attempt, r.realName || r.username));
}
