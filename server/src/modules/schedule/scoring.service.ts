import type { TScheduleSubmission } from '@aiedu/contracts';
import type { FastifyRequest } from 'fastify';
import { writeAudit } from '../../platform/audit.js';
import type { AuthContext } from '../../platform/auth/tokens.js';
import type { AppContext } from '../../platform/context.js';
import { AppError } from '../../platform/errors.js';
import { presentAttempt, scoreAttempts } from '../course/attempt.service.js';
import { attemptsById, attemptsOfTasks } from '../course/teaching.service.js';
import { scheduleStudents } from './schedule.service.js';
import { dueFor, reopeningsOf } from './task.repository.js';
import { latestByUser, loadGivenTask } from './task.service.js';

/**
 * Every student of the schedule with their latest answer to a given task (null: none yet), how many answers they
 * gave, and the due time that holds for them. An experiment's answer carries `autoScore` once an automatic check
 * scored it, for the teacher to take or override.
 */
export async function listSubmissions(
  ctx: AppContext,
  auth: AuthContext,
  scheduleTaskId: string,
): Promise<TScheduleSubmission[]> {
  const { task, schedule } = await loadGivenTask(ctx, auth, scheduleTaskId, 'read');
  const students = await scheduleStudents(ctx, schedule.id);
  const userIds = students.map((s) => s.userId);
  const [attempts, reopenings] = await Promise.all([
    attemptsOfTasks(ctx.db, [task.taskId], userIds),
    reopeningsOf(ctx.db, [task.id], userIds),
  ]);
  const latest = latestByUser(attempts, task.taskId);
  return students.map((s) => {
    const attempt = latest.get(s.userId);
    const due = dueFor(task, reopenings, s.userId);
    return {
      userId: s.userId,
      username: s.username,
      name: s.name,
      className: s.className,
      dueAt: due?.toISOString() ?? null,
      reopened: reopenings.some((r) => r.userId === s.userId),
      attempts: attempts.filter((a) => a.userId === s.userId).length,
      attempt: attempt ? presentAttempt(attempt, s.name) : null,
    };
  });
}

/**
 * Scores answers to a given task, one or many at once (0–100 with a comment), while the schedule is not finished
 * (`4201`). Every answer must answer this task and be a student's of the schedule (`1004` with `data.attemptIds`
 * otherwise); choice-only tasks are graded already (`4109`). All or nothing, with one operation log.
 */
export async function scoreSubmissions(
  ctx: AppContext,
  request: FastifyRequest,
  auth: AuthContext,
  scheduleTaskId: string,
  scores: { attemptId: string; score: number; comment: string }[],
) {
  const { task, schedule } = await loadGivenTask(ctx, auth, scheduleTaskId);
  const students = new Set((await scheduleStudents(ctx, schedule.id)).map((s) => s.userId));
  const found = await attemptsById(
    ctx.db,
    scores.map((s) => s.attemptId),
  );
  const foreign = scores
    .map((s) => s.attemptId)
    .filter((id) => !found.some((a) => a.id === id && a.taskId === task.taskId && students.has(a.userId)));
  if (foreign.length) throw new AppError('NOT_FOUND', { attemptIds: foreign });
  await ctx.db.transaction(async (tx) => {
    await scoreAttempts(tx, auth.userId, scores);
    await writeAudit(tx, request, {
      module: 'schedule',
      operation: 'score',
      params: { id: schedule.id, scheduleTaskId, scores: scores.map(({ attemptId, score }) => ({ attemptId, score })) },
      customerId: schedule.customerId,
    });
  });
  return listSubmissions(ctx, auth, scheduleTaskId);
}
