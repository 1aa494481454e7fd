import type { TClassroomRoster, TLessonNote, TSessionsTaught } from '@aiedu/contracts';
import type { AuthContext } from '../../platform/auth/tokens.js';
import type { AppContext } from '../../platform/context.js';
import { classroomSessions } from '../../platform/db/schema/index.js';
import { AppError } from '../../platform/errors.js';
import { callerScope, scopeWhere } from '../../platform/tenancy.js';
import { sectionOfVersions } from '../course/learning.service.js';
import { resourceOfVersions } from '../course/resource.service.js';
import { namesOf, schoolNames } from '../institution/roster.service.js';
import type { ClassroomAccess } from './classroom-access.js';
import type { ClassroomHub } from './classroom-hub.js';
import { findScheduleSection, scheduleVersions } from './classroom-outline.js';
import { countSessionsStarted, notesOf, putNote } from './classroom.repository.js';
import { RosterModel } from './roster-model.js';
import { currentSession } from './session.service.js';

/** A section of the schedule's courses for its teachers, as its students see it (`1004` for any other). */
export async function sectionForTeacher(ctx: AppContext, access: ClassroomAccess, sectionId: string) {
  return sectionOfVersions(ctx, sectionId, await scheduleVersions(ctx, access.schedule.id));
}

/** Signed addresses of a resource of the schedule's courses, for its teachers (`1004` for any other). */
export async function resourceForTeacher(ctx: AppContext, access: ClassroomAccess, resourceId: string) {
  return resourceOfVersions(ctx, resourceId, await scheduleVersions(ctx, access.schedule.id));
}

/** The live roster as it is now, for a teacher without a socket (the polling fallback). */
export async function getRoster(
  ctx: AppContext,
  hub: ClassroomHub,
  access: ClassroomAccess,
): Promise<TClassroomRoster> {
  const session = await currentSession(ctx, access.schedule.id);
  return (await RosterModel.load(ctx, hub.presence, access.schedule.id, session?.sectionId ?? null)).snapshot();
}

/**
 * A student without a socket says where they are (they stay online for as long as they keep saying it); everyone
 * gets the session as it is.
 */
export async function reportPresence(
  ctx: AppContext,
  hub: ClassroomHub,
  access: ClassroomAccess,
  auth: AuthContext,
  sectionId: string | null,
) {
  if (access.role === 'student') await hub.studentAt(null, access.schedule.id, sectionId, auth.userId);
  return currentSession(ctx, access.schedule.id);
}

/** The lesson notes of every section of the schedule, for its teachers. */
export async function listNotes(ctx: AppContext, access: ClassroomAccess): Promise<TLessonNote[]> {
  const rows = await notesOf(ctx.db, access.schedule.id);
  const names = await namesOf(ctx.db, [...new Set(rows.flatMap((r) => (r.updatedBy ? [r.updatedBy] : [])))]);
  return rows.map((r) => ({
    sectionId: r.sectionId,
    body: r.body,
    updatedAt: r.updatedAt.toISOString(),
    updatedBy: (r.updatedBy && names.get(r.updatedBy)) ?? '',
  }));
}

/** A teacher writes the notes of a section of the schedule; a finished schedule is read-only (`4201`). */
export async function saveNote(
  ctx: AppContext,
  access: ClassroomAccess,
  auth: AuthContext,
  note: { sectionId: string; body: string },
): Promise<TLessonNote> {
  if (access.schedule.status === 'finished') {
    throw new AppError('SCHEDULE_STATE_INVALID', { status: access.schedule.status });
  }
  if (!(await findScheduleSection(ctx, access.schedule.id, note.sectionId))) {
    throw new AppError('NOT_FOUND', { sectionId: note.sectionId });
  }
  const row = await putNote(ctx.db, {
    scheduleId: access.schedule.id,
    sectionId: note.sectionId,
    customerId: access.schedule.customerId,
    body: note.body,
    updatedBy: auth.userId,
  });
  const names = await namesOf(ctx.db, [auth.userId]);
  return {
    sectionId: row.sectionId,
    body: row.body,
    updatedAt: row.updatedAt.toISOString(),
    updatedBy: names.get(auth.userId) ?? '',
  };
}

/**
 * Teaching statistics' "sessions taught": lessons started within the last `days` days in the caller's scope, per
 * school and per teacher who started them. The statistics screen shows it beside the schedules' own figures.
 */
export async function sessionsTaught(ctx: AppContext, auth: AuthContext, days: number): Promise<TSessionsTaught> {
  const scope = await callerScope(ctx.db, auth);
  const since = new Date(ctx.now().getTime() - days * 86_400_000);
  const counts = await countSessionsStarted(
    ctx.db,
    scopeWhere(scope, { customerId: classroomSessions.customerId, schoolId: classroomSessions.schoolId }),
    since,
  );
  const [schools, teachers] = await Promise.all([
    schoolNames(
      ctx.db,
      counts.bySchool.map((r) => r.schoolId),
    ),
    namesOf(ctx.db, [...new Set(counts.byTeacher.map((r) => r.teacherId))]),
  ]);
  const byCount = <T extends { sessions: number }>(rows: T[]) => rows.sort((a, b) => b.sessions - a.sessions);
  return {
    total: counts.bySchool.reduce((sum, r) => sum + r.sessions, 0),
    schools: byCount(
      counts.bySchool.map((r) => ({
        schoolId: r.schoolId,
        schoolName: schools.get(r.schoolId) ?? '',
        sessions: r.sessions,
      })),
    ),
    teachers: byCount(
      counts.byTeacher.map((r) => ({
        teacherId: r.teacherId,
        name: teachers.get(r.teacherId) ?? '',
        schoolName: schools.get(r.schoolId) ?? '',
        sessions: r.sessions,
      })),
    ),
  };
}
