import type { TAttempt } from '@aiedu/contracts';
import { asc, eq, inArray } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { writeAudit } from '../../platform/audit.js';
import type { AuthContext } from '../../platform/auth/tokens.js';
import type { AppContext } from '../../platform/context.js';
import type { Db } from '../../platform/db/client.js';
import { courseTasks, taskAttempts, users } from '../../platform/db/schema/index.js';
import { AppError } from '../../platform/errors.js';
import { findEnrolment, loadForAuthor, loadForLearner } from './course-access.js';
import { latestChecksFor } from './check.service.js';
import { gradeAttempt, type Answer } from './grading.js';

export type AttemptRow = typeof taskAttempts.$inferSelect;
type TaskRow = typeof courseTasks.$inferSelect;

/**
 * Whether a learner may answer a task now, asked of other modules before an answer is stored: a teaching schedule
 * that gave the task to the learner refuses it after its due time. A check throws its refusal.
 */
export type AttemptCheck = (ctx: AppContext, auth: AuthContext, task: TaskRow) => Promise<void>;
const attemptChecks = new Set<AttemptCheck>();

export function checkAttemptsWith(check: AttemptCheck) {
  attemptChecks.add(check);
}

export function presentAttempt(row: AttemptRow, learnerName: string): TAttempt {
  return {
    id: row.id,
    taskId: row.taskId,
    userId: row.userId,
    learnerName,
    status: row.status,
    score: row.score,
    credits: row.credits,
    autoScore: row.autoScore,
    checks: row.checks,
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
  for (const check of attemptChecks) await check(ctx, auth, task);
  const checks = await latestChecksFor(ctx.db, task, auth.userId);
  const grade = gradeAttempt(task.questions, answers, checks);
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
      autoScore: grade.autoScore,
      checks,
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
  return ctx.db.transaction(async (tx) => {
    const [row] = await scoreAttempts(tx, auth.userId, [{ attemptId, ...input }]);
    await writeAudit(tx, request, {
      module: 'course',
      operation: 'grade',
      params: { id: attemptId, score: input.score },
    });
    return presentAttempt(row!, '');
  });
}

/**
 * Sets teachers' scores (0–100) and comments on attempts with short answers or experiments, in the caller's
 * transaction; an attempt of a task with choice questions only is graded already (`4109`). The caller has checked
 * that the grader may score each attempt.
 */
export async function scoreAttempts(
  db: Db,
  graderId: string,
  scores: { attemptId: string; score: number; comment: string }[],
): Promise<AttemptRow[]> {
  const ids = scores.map((s) => s.attemptId);
  const found = await db
    .select({ id: taskAttempts.id, questions: courseTasks.questions })
    .from(taskAttempts)
    .innerJoin(courseTasks, eq(courseTasks.id, taskAttempts.taskId))
    .where(inArray(taskAttempts.id, ids));
  for (const id of ids) {
    const attempt = found.find((f) => f.id === id);
    if (!attempt) throw new AppError('NOT_FOUND');
    if (attempt.questions.every((q) => q.type === 'single' || q.type === 'multiple')) {
      throw new AppError('COURSE_NOT_GRADABLE');
    }
  }
  const rows: AttemptRow[] = [];
  for (const { attemptId, score, comment } of scores) {
    const [row] = await db
      .update(taskAttempts)
      .set({ score, comment, status: 'graded', gradedBy: graderId })
      .where(eq(taskAttempts.id, attemptId))
      .returning();
    rows.push(row!);
  }
  return rows;
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
