import type { TScheduleTask } from '@aiedu/contracts';
import { eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { writeAudit } from '../../platform/audit.js';
import type { AuthContext } from '../../platform/auth/tokens.js';
import type { AppContext } from '../../platform/context.js';
import { scheduleTasks } from '../../platform/db/schema/index.js';
import { AppError } from '../../platform/errors.js';
import type { AttemptRow } from '../course/attempt.service.js';
import { attemptsOfTasks, findTask, taskOutlines } from '../course/teaching.service.js';
import { classOfStudent } from '../institution/roster.service.js';
import { holdsStudent, membersOf, type ScheduleRow } from './schedule.repository.js';
import { loadForTeacher, loadWithRole } from './schedule-access.js';
import { scheduleStudents } from './schedule.service.js';
import {
  assignmentsOfTask,
  dueFor,
  findScheduleTask,
  reopeningsOf,
  saveReopening,
  tasksOfSchedules,
  type ScheduleTaskRow,
} from './task.repository.js';

/** The latest attempt of each learner, from attempts oldest first. */
export function latestByUser(attempts: AttemptRow[], taskId: string): Map<string, AttemptRow> {
  const latest = new Map<string, AttemptRow>();
  for (const a of attempts) if (a.taskId === taskId) latest.set(a.userId, a);
  return latest;
}

/** Whether a student may still answer: the schedule is in progress and their due time (the server's clock) is not past. */
export function isOpen(schedule: Pick<ScheduleRow, 'status'>, dueAt: Date | null, now: Date) {
  return schedule.status === 'inProgress' && (dueAt === null || now.getTime() <= dueAt.getTime());
}

/**
 * The tasks given in a schedule. Its teachers see how many of its students answered each and how many answers are
 * scored; a student sees their own due time, whether they may still answer, and their latest answer's score and
 * comment.
 */
export async function listScheduleTasks(ctx: AppContext, auth: AuthContext, scheduleId: string) {
  const { schedule, role } = await loadWithRole(ctx.db, auth, scheduleId);
  const given = await tasksOfSchedules(ctx.db, [scheduleId]);
  const taskIds = given.map((t) => t.taskId);
  const outlines = await taskOutlines(ctx.db, taskIds);
  const userIds = role === 'teacher' ? (await scheduleStudents(ctx, scheduleId)).map((s) => s.userId) : [auth.userId];
  const [attempts, reopenings] = await Promise.all([
    attemptsOfTasks(ctx.db, taskIds, userIds),
    role === 'student'
      ? reopeningsOf(
          ctx.db,
          given.map((t) => t.id),
          [auth.userId],
        )
      : Promise.resolve([]),
  ]);
  return given.map((task): TScheduleTask => {
    const outline = outlines.get(task.taskId)!;
    const latest = latestByUser(attempts, task.taskId);
    const mine = latest.get(auth.userId);
    const due = dueFor(task, reopenings, auth.userId);
    return {
      id: task.id,
      taskId: task.taskId,
      courseId: outline.courseId,
      courseName: outline.courseName,
      sectionId: outline.sectionId,
      sectionTitle: outline.sectionTitle,
      title: outline.title,
      questionTypes: outline.questionTypes,
      dueAt: task.dueAt?.toISOString() ?? null,
      createdAt: task.createdAt.toISOString(),
      counts:
        role === 'teacher'
          ? {
              students: userIds.length,
              submitted: latest.size,
              graded: [...latest.values()].filter((a) => a.status === 'graded').length,
            }
          : null,
      mine:
        role === 'student'
          ? {
              dueAt: due?.toISOString() ?? null,
              open: isOpen(schedule, due, ctx.now()),
              status: mine ? mine.status : 'todo',
              score: mine?.score ?? null,
              comment: mine?.comment ?? '',
              submittedAt: mine?.createdAt.toISOString() ?? null,
            }
          : null,
    };
  });
}

/** A teacher gives a task of one of the schedule's pinned versions to its students, with an optional due time. */
export async function assignTask(
  ctx: AppContext,
  request: FastifyRequest,
  auth: AuthContext,
  scheduleId: string,
  input: { taskId: string; dueAt: string | null },
) {
  const schedule = await loadForTeacher(ctx.db, auth, scheduleId, 'change');
  const task = await findTask(ctx.db, input.taskId);
  const members = (await membersOf(ctx.db, [scheduleId])).get(scheduleId)!;
  if (!task || !members.courses.some((c) => c.versionId === task.versionId)) throw new AppError('NOT_FOUND');
  await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(scheduleTasks)
      .values({
        scheduleId,
        courseId: task.courseId,
        taskId: task.id,
        dueAt: input.dueAt ? new Date(input.dueAt) : null,
        createdBy: auth.userId,
      })
      .onConflictDoNothing()
      .returning({ id: scheduleTasks.id });
    if (!row) throw new AppError('OPERATION_FAILED', { reason: 'assigned' });
    await writeAudit(tx, request, {
      module: 'schedule',
      operation: 'assignTask',
      params: { id: scheduleId, scheduleTaskId: row.id, ...input },
      customerId: schedule.customerId,
    });
  });
  return listScheduleTasks(ctx, auth, scheduleId);
}

/** A given task, for one of its schedule's teachers; `change`: while the schedule is not finished. */
export async function loadGivenTask(
  ctx: AppContext,
  auth: AuthContext,
  scheduleTaskId: string,
  need: 'read' | 'change' = 'change',
) {
  const found = await findScheduleTask(ctx.db, scheduleTaskId);
  if (!found) throw new AppError('NOT_FOUND');
  const schedule = await loadForTeacher(ctx.db, auth, found.schedule.id, need);
  return { task: found.task, schedule };
}

/** Moves a task's due time (or takes it away) for every student without one of their own. */
export async function changeDue(
  ctx: AppContext,
  request: FastifyRequest,
  auth: AuthContext,
  scheduleTaskId: string,
  dueAt: string | null,
) {
  const { schedule } = await loadGivenTask(ctx, auth, scheduleTaskId);
  await ctx.db.transaction(async (tx) => {
    await tx
      .update(scheduleTasks)
      .set({ dueAt: dueAt ? new Date(dueAt) : null })
      .where(eq(scheduleTasks.id, scheduleTaskId));
    await writeAudit(tx, request, {
      module: 'schedule',
      operation: 'changeDue',
      params: { id: schedule.id, scheduleTaskId, dueAt },
      customerId: schedule.customerId,
    });
  });
  return listScheduleTasks(ctx, auth, schedule.id);
}

/** Takes a task back; the answers already given stay with the course. */
export async function unassignTask(
  ctx: AppContext,
  request: FastifyRequest,
  auth: AuthContext,
  scheduleTaskId: string,
) {
  const { schedule } = await loadGivenTask(ctx, auth, scheduleTaskId);
  await ctx.db.transaction(async (tx) => {
    await tx.delete(scheduleTasks).where(eq(scheduleTasks.id, scheduleTaskId));
    await writeAudit(tx, request, {
      module: 'schedule',
      operation: 'unassignTask',
      params: { id: schedule.id, scheduleTaskId },
      customerId: schedule.customerId,
    });
  });
  return listScheduleTasks(ctx, auth, schedule.id);
}

/** Reopens a task for one student of the schedule with a due time of their own (null: none). */
export async function reopenTask(
  ctx: AppContext,
  request: FastifyRequest,
  auth: AuthContext,
  scheduleTaskId: string,
  input: { userId: string; dueAt: string | null },
) {
  const { schedule } = await loadGivenTask(ctx, auth, scheduleTaskId);
  const inSchedule = await holdsStudent(ctx.db, schedule.id, input.userId, await classOfStudent(ctx.db, input.userId));
  if (!inSchedule) throw new AppError('NOT_FOUND', { userId: input.userId });
  await ctx.db.transaction(async (tx) => {
    await saveReopening(tx, {
      scheduleTaskId,
      userId: input.userId,
      dueAt: input.dueAt ? new Date(input.dueAt) : null,
      createdBy: auth.userId,
    });
    await writeAudit(tx, request, {
      module: 'schedule',
      operation: 'reopen',
      params: { id: schedule.id, scheduleTaskId, ...input },
      customerId: schedule.customerId,
    });
  });
}

/**
 * Asked by the course module before it stores an answer (see `checkAttemptsWith`): a task a schedule gave the
 * student may be answered only while one such schedule is in progress and the student's due time there has not
 * passed by the server's clock. Otherwise `4202` (past the due time, `data.dueAt`) or `4203` (no such schedule in
 * progress). A task no schedule of the student gave is left to the course.
 */
export async function checkScheduledAttempt(ctx: AppContext, auth: AuthContext, task: { id: string }) {
  const given = await assignmentsOfTask(ctx.db, task.id);
  if (given.length === 0) return;
  const classId = await classOfStudent(ctx.db, auth.userId);
  const mine: { task: ScheduleTaskRow; schedule: ScheduleRow }[] = [];
  for (const g of given) if (await holdsStudent(ctx.db, g.schedule.id, auth.userId, classId)) mine.push(g);
  if (mine.length === 0) return;
  const reopenings = await reopeningsOf(
    ctx.db,
    mine.map((m) => m.task.id),
    [auth.userId],
  );
  const now = ctx.now();
  const dues = mine.map((m) => ({ ...m, due: dueFor(m.task, reopenings, auth.userId) }));
  if (dues.some((d) => isOpen(d.schedule, d.due, now))) return;
  const running = dues.find((d) => d.schedule.status === 'inProgress');
  if (running) throw new AppError('SCHEDULE_TASK_CLOSED', { dueAt: running.due!.toISOString() });
  throw new AppError('SCHEDULE_NOT_IN_PROGRESS');
}
