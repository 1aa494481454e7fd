import type { FastifyInstance, FastifyRequest } from 'fastify';
import { requireAuth } from '../../platform/auth/auth-guard.js';
import type { AuthContext } from '../../platform/auth/tokens.js';
import type { AppContext } from '../../platform/context.js';
import { AppError } from '../../platform/errors.js';
import { loadScheduleFor, type TeachingSchedule } from '../schedule/schedule.service.js';
import { findSession, type SessionRow } from './classroom.repository.js';
import { isUuid } from '../../platform/ids.js';

export type ClassroomRole = 'teacher' | 'student';

export interface ClassroomAccess {
  schedule: TeachingSchedule;
  role: ClassroomRole;
  /** The session a route names by id (`config.classroom.by: 'session'`). */
  session: SessionRow | null;
}

/** What a route of the classroom names by `:id` (a schedule or a session) and whom it is for. */
export interface ClassroomNeed {
  by: 'schedule' | 'session';
  role?: 'teacher';
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The classroom the route names by `:id`; checked before its input is validated (classroom-access.ts). */
    classroom?: ClassroomNeed;
  }
  interface FastifyRequest {
    classroomAccess: ClassroomAccess | null;
  }
}

/**
 * The classroom of a schedule with the caller's part in it: one of its teachers or one of its students. Anyone else
 * (a teacher of another school or customer, a student not in it, an administrator) gets `1004`, as the schedule
 * itself answers; a student on a teacher's call gets `1007`.
 */
export async function loadClassroom(
  ctx: AppContext,
  auth: AuthContext,
  scheduleId: string,
  role?: 'teacher',
): Promise<{ schedule: TeachingSchedule; role: ClassroomRole }> {
  if (!isUuid(scheduleId)) throw new AppError('NOT_FOUND');
  const access = await loadScheduleFor(ctx, auth, scheduleId);
  if (role === 'teacher' && access.role !== 'teacher') throw new AppError('NO_EDIT_PERMISSION');
  return access;
}

/** A session with its schedule, for the schedule's people only (`1004` for everyone else). */
export async function loadSession(ctx: AppContext, auth: AuthContext, sessionId: string, role?: 'teacher') {
  const session = isUuid(sessionId) ? await findSession(ctx.db, sessionId) : null;
  if (!session) throw new AppError('NOT_FOUND');
  return { ...(await loadClassroom(ctx, auth, session.scheduleId, role)), session };
}

/**
 * Routes declare `config.classroom`; the check runs before the body and query are validated, so someone outside a
 * schedule learns nothing of it, not even which input it would take.
 */
export function registerClassroomGuard(app: FastifyInstance, ctx: AppContext) {
  app.decorateRequest('classroomAccess', null);
  app.addHook('preValidation', async (request) => {
    const need = request.routeOptions.config.classroom;
    if (!need) return;
    const { id } = request.params as { id?: string };
    const auth = requireAuth(request);
    request.classroomAccess =
      need.by === 'session'
        ? await loadSession(ctx, auth, id ?? '', need.role)
        : { ...(await loadClassroom(ctx, auth, id ?? '', need.role)), session: null };
  });
}

/** The checked classroom of a route declared with `config.classroom`. */
export function classroomOf(request: FastifyRequest): ClassroomAccess {
  if (!request.classroomAccess) throw new AppError('NOT_FOUND');
  return request.classroomAccess;
}
