import type { TClassroom, TClassroomMode, TClassroomSession } from '@aiedu/contracts';
import type { FastifyRequest } from 'fastify';
import { writeAudit } from '../../platform/audit.js';
import type { AuthContext } from '../../platform/auth/tokens.js';
import type { AppContext } from '../../platform/context.js';
import { AppError } from '../../platform/errors.js';
import { isInProgress, type TeachingSchedule } from '../schedule/schedule.service.js';
import type { ClassroomAccess } from './classroom-access.js';
import type { ClassroomHub } from './classroom-hub.js';
import { scheduleOutline, scheduleSections, findScheduleSection } from './classroom-outline.js';
import {
  changeSession,
  currentSessions,
  findSession,
  insertSession,
  type SessionRow,
  type SessionStatus,
} from './classroom.repository.js';
import { presentSession } from './classroom.presenter.js';

/*
 * Spec 4's session of a schedule: not started → teaching → finished, moved by the schedule's teachers while the
 * schedule is in progress. Every change moves the session's revision on in the statement that makes it, and the hub
 * tells every client of the classroom, in this process and the others.
 */

export async function currentSession(ctx: AppContext, scheduleId: string): Promise<TClassroomSession | null> {
  const row = (await currentSessions(ctx.db, [scheduleId])).get(scheduleId);
  return row ? presentSession(row) : null;
}

/** What the teach and learn views open with: the schedule, the caller's role, the session and the courses. */
export async function getClassroom(ctx: AppContext, access: ClassroomAccess): Promise<TClassroom> {
  const { schedule, role } = access;
  const [session, courses] = await Promise.all([currentSession(ctx, schedule.id), scheduleOutline(ctx, schedule.id)]);
  return { scheduleId: schedule.id, name: schedule.name, scheduleStatus: schedule.status, role, session, courses };
}

export function assertInProgress(schedule: TeachingSchedule) {
  if (!isInProgress(schedule)) throw new AppError('SCHEDULE_STATE_INVALID', { status: schedule.status });
}

/** The refusal of a move the session's state does not allow, naming the state it is in now. */
async function refusal(ctx: AppContext, sessionId: string, scheduleId: string): Promise<AppError> {
  const now = await findSession(ctx.db, sessionId);
  if (now?.scheduleId !== scheduleId) return new AppError('NOT_FOUND');
  return new AppError('CLASSROOM_SESSION_STATE_INVALID', { status: now.status });
}

async function changed(hub: ClassroomHub, row: SessionRow): Promise<TClassroomSession> {
  const session = presentSession(row);
  await hub.sessionChanged(row.scheduleId, session);
  return session;
}

/** A teacher opens a lesson: not started, until one of the teachers starts it. One open lesson per schedule. */
export async function openSession(ctx: AppContext, hub: ClassroomHub, auth: AuthContext, access: ClassroomAccess) {
  const { schedule } = access;
  assertInProgress(schedule);
  const row = await insertSession(ctx.db, {
    scheduleId: schedule.id,
    customerId: schedule.customerId,
    schoolId: schedule.schoolId,
    openedBy: auth.userId,
  });
  if (!row) {
    const open = (await currentSessions(ctx.db, [schedule.id])).get(schedule.id);
    throw new AppError('CLASSROOM_SESSION_STATE_INVALID', { status: open?.status ?? null, sessionId: open?.id });
  }
  return changed(hub, row);
}

/** Starts or finishes a lesson, with its operation log in the same transaction. */
async function transition(
  ctx: AppContext,
  hub: ClassroomHub,
  request: FastifyRequest,
  access: ClassroomAccess,
  from: SessionStatus,
  change: (session: SessionRow) => Promise<Partial<SessionRow>>,
  operation: 'start' | 'finish',
) {
  const session = access.session!;
  assertInProgress(access.schedule);
  const set = await change(session);
  const row = await ctx.db.transaction(async (tx) => {
    const moved = await changeSession(tx, session.id, [from], set);
    if (!moved) return null;
    await writeAudit(tx, request, {
      module: 'classroom',
      operation,
      params: { id: session.id, scheduleId: session.scheduleId },
      customerId: session.customerId,
    });
    return moved;
  });
  if (!row) throw await refusal(ctx, session.id, session.scheduleId);
  return changed(hub, row);
}

/** Teaching begins on the section shown last, or the schedule's first. */
export function startSession(ctx: AppContext, hub: ClassroomHub, request: FastifyRequest, access: ClassroomAccess) {
  const auth = request.auth!;
  return transition(
    ctx,
    hub,
    request,
    access,
    'notStarted',
    async (session) => ({
      status: 'teaching',
      startedBy: auth.userId,
      startedAt: ctx.now(),
      sectionId: session.sectionId ?? (await scheduleSections(ctx, session.scheduleId))[0]?.id ?? null,
    }),
    'start',
  );
}

export function finishSession(ctx: AppContext, hub: ClassroomHub, request: FastifyRequest, access: ClassroomAccess) {
  return transition(
    ctx,
    hub,
    request,
    access,
    'teaching',
    async () => ({ status: 'finished', finishedAt: ctx.now() }),
    'finish',
  );
}

/**
 * The class moves to a section of the schedule's courses (`1004` for any other), while the lesson is taught.
 * The socket's `show` and `PUT …/section` both come here.
 */
export async function showSection(
  ctx: AppContext,
  hub: ClassroomHub,
  scheduleId: string,
  sessionId: string,
  sectionId: string,
) {
  if (!(await findScheduleSection(ctx, scheduleId, sectionId))) throw new AppError('NOT_FOUND', { sectionId });
  const row = await changeSession(ctx.db, sessionId, ['teaching'], { sectionId }, scheduleId);
  if (!row) throw await refusal(ctx, sessionId, scheduleId);
  return changed(hub, row);
}

/** Follow the teacher, or work at one's own pace: set before or during the lesson. */
export async function setMode(ctx: AppContext, hub: ClassroomHub, access: ClassroomAccess, mode: TClassroomMode) {
  assertInProgress(access.schedule);
  const row = await changeSession(ctx.db, access.session!.id, ['notStarted', 'teaching'], { mode });
  if (!row) throw await refusal(ctx, access.session!.id, access.schedule.id);
  return changed(hub, row);
}
