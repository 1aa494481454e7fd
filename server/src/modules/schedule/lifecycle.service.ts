import type { TScheduleStatus } from '@aiedu/contracts';
import { and, eq, isNull } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { writeAudit } from '../../platform/audit.js';
import type { AuthContext } from '../../platform/auth/tokens.js';
import type { AppContext } from '../../platform/context.js';
import { teachingSchedules } from '../../platform/db/schema/index.js';
import { AppError } from '../../platform/errors.js';
import { presentDetail } from './schedule.presenter.js';
import { moveState } from './schedule.repository.js';
import { loadForTeacher } from './schedule-access.js';

/**
 * Spec section 4: not started → in progress → finished, moved by one of the schedule's teachers. Any other move
 * answers `4201` with the state the schedule is in. The move is made only from the state it must be in, so two
 * teachers pressing at once move it once.
 */
async function move(
  ctx: AppContext,
  request: FastifyRequest,
  auth: AuthContext,
  scheduleId: string,
  from: TScheduleStatus,
  to: 'inProgress' | 'finished',
) {
  const schedule = await loadForTeacher(ctx.db, auth, scheduleId, 'read');
  const now = ctx.now();
  const row = await ctx.db.transaction(async (tx) => {
    const moved = await moveState(
      tx,
      scheduleId,
      from,
      to === 'inProgress' ? { status: to, startedAt: now } : { status: to, finishedAt: now },
    );
    if (!moved) throw new AppError('SCHEDULE_STATE_INVALID', { status: schedule.status });
    await writeAudit(tx, request, {
      module: 'schedule',
      operation: to === 'inProgress' ? 'start' : 'finish',
      params: { id: scheduleId },
      customerId: schedule.customerId,
    });
    return moved;
  });
  return presentDetail(ctx.db, row, 'teacher');
}

/** Starting lets the students submit their tasks. */
export function startSchedule(ctx: AppContext, request: FastifyRequest, auth: AuthContext, scheduleId: string) {
  return move(ctx, request, auth, scheduleId, 'notStarted', 'inProgress');
}

/**
 * Finishing makes the schedule read-only for everyone: no more changes, tasks, scores or answers to its tasks;
 * students see it finished with all their work.
 */
export function finishSchedule(ctx: AppContext, request: FastifyRequest, auth: AuthContext, scheduleId: string) {
  return move(ctx, request, auth, scheduleId, 'inProgress', 'finished');
}

/**
 * Deleting takes the schedule out of every list, its students' too, in any state; their enrolments, learning records
 * and answers stay with the courses (their learning record shows them).
 */
export async function deleteSchedule(ctx: AppContext, request: FastifyRequest, auth: AuthContext, scheduleId: string) {
  const schedule = await loadForTeacher(ctx.db, auth, scheduleId, 'read');
  await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .update(teachingSchedules)
      .set({ deletedAt: ctx.now() })
      .where(and(eq(teachingSchedules.id, scheduleId), isNull(teachingSchedules.deletedAt)))
      .returning({ id: teachingSchedules.id });
    if (!row) throw new AppError('NOT_FOUND');
    await writeAudit(tx, request, {
      module: 'schedule',
      operation: 'delete',
      params: { id: scheduleId, status: schedule.status },
      customerId: schedule.customerId,
    });
  });
}
