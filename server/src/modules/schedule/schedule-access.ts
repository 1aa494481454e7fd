import { ROLES } from '@aiedu/contracts';
import type { AuthContext } from '../../platform/auth/tokens.js';
import type { Db } from '../../platform/db/client.js';
import { AppError } from '../../platform/errors.js';
import { classOfStudent } from '../institution/roster.service.js';
import { findSchedule, holdsStudent, isTeacherOf, type ScheduleRow } from './schedule.repository.js';

export type ScheduleRole = 'teacher' | 'student';

/**
 * The schedule with the caller's part in it: one of its teachers, or one of its students (picked, or in one of its
 * classes now). Anyone else (a teacher of another school or tenant, a student not in it, an administrator) gets
 * `1004`, as for a deleted schedule, so a schedule is never confirmed to exist to those outside it.
 */
export async function loadWithRole(
  db: Db,
  auth: AuthContext,
  scheduleId: string,
): Promise<{ schedule: ScheduleRow; role: ScheduleRole }> {
  const schedule = await findSchedule(db, scheduleId);
  if (!schedule) throw new AppError('NOT_FOUND');
  if (auth.roles.includes(ROLES.teacher) && (await isTeacherOf(db, scheduleId, auth.userId))) {
    return { schedule, role: 'teacher' };
  }
  if (await holdsStudent(db, scheduleId, auth.userId, await classOfStudent(db, auth.userId))) {
    return { schedule, role: 'student' };
  }
  throw new AppError('NOT_FOUND');
}

/**
 * A schedule one of its teachers works on; a student of it gets `1007`. `change`: the schedule must not be
 * finished, since a finished schedule is read-only for everyone (`4201`).
 */
export async function loadForTeacher(db: Db, auth: AuthContext, scheduleId: string, need: 'read' | 'change') {
  const { schedule, role } = await loadWithRole(db, auth, scheduleId);
  if (role !== 'teacher') throw new AppError('NO_EDIT_PERMISSION');
  if (need === 'change') assertChangeable(schedule);
  return schedule;
}

export function assertChangeable(schedule: ScheduleRow) {
  if (schedule.status === 'finished') throw new AppError('SCHEDULE_STATE_INVALID', { status: schedule.status });
}
