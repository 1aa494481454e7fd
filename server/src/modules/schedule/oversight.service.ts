import type { TTeachingStatistics } from '@aiedu/contracts';
import { and, isNull } from 'drizzle-orm';
import type { AuthContext } from '../../platform/auth/tokens.js';
import type { AppContext } from '../../platform/context.js';
import { teachingSchedules } from '../../platform/db/schema/index.js';
import { callerScope, scopeWhere } from '../../platform/tenancy.js';
import { activeLearners } from '../course/teaching.service.js';
import { namesOf, rosterOf, schoolNames } from '../institution/roster.service.js';
import { presentSummaries, studentsOf } from './schedule.presenter.js';
import { membersOf, pageOfSchedules } from './schedule.repository.js';
import type { ScheduleListQuery } from './schedule.service.js';

const DAY_MS = 86_400_000;

const inScope = async (ctx: AppContext, auth: AuthContext) =>
  scopeWhere(await callerScope(ctx.db, auth), {
    customerId: teachingSchedules.customerId,
    schoolId: teachingSchedules.schoolId,
  });

/** Administrators: the schedules of their scope (customers below theirs, or their school), read-only. */
export async function listSchedulesInScope(ctx: AppContext, auth: AuthContext, query: ScheduleListQuery) {
  const { rows, total } = await pageOfSchedules(ctx.db, query, { scope: await inScope(ctx, auth) });
  return { list: await presentSummaries(ctx.db, rows), total, page: query.page, size: query.size };
}

/**
 * Teaching statistics of the caller's scope: schedules by state, and per school and per teacher the schedules held
 * and the active students, those of the schedules who opened a section of one of its pinned versions within the
 * last `days` days. Deleted schedules count nowhere.
 */
export async function readTeachingStatistics(
  ctx: AppContext,
  auth: AuthContext,
  days: number,
): Promise<TTeachingStatistics> {
  const rows = await ctx.db
    .select({ id: teachingSchedules.id, schoolId: teachingSchedules.schoolId, status: teachingSchedules.status })
    .from(teachingSchedules)
    .where(and(isNull(teachingSchedules.deletedAt), await inScope(ctx, auth)));
  const members = await membersOf(
    ctx.db,
    rows.map((r) => r.id),
  );
  const all = [...members.values()];
  const roster = await rosterOf(
    ctx.db,
    [...new Set(all.flatMap((m) => m.classIds))],
    [...new Set(all.flatMap((m) => m.studentIds))],
  );
  const since = new Date(ctx.now().getTime() - days * DAY_MS);
  const active = await activeLearners(
    ctx.db,
    [...new Set(all.flatMap((m) => m.courses.map((c) => c.versionId)))],
    roster.map((s) => s.userId),
    since,
  );
  const activeIn = new Map(
    rows.map((r) => {
      const m = members.get(r.id)!;
      const versions = new Set(m.courses.map((c) => c.versionId));
      const students = new Set(studentsOf(m, roster).map((s) => s.userId));
      const users = active.filter((a) => versions.has(a.versionId) && students.has(a.userId)).map((a) => a.userId);
      return [r.id, new Set(users)];
    }),
  );
  const gather = (ids: string[]) => ({
    schedules: ids.length,
    activeStudents: new Set(ids.flatMap((id) => [...activeIn.get(id)!])).size,
  });
  const schoolIds = [...new Set(rows.map((r) => r.schoolId))];
  const teacherIds = [...new Set(all.flatMap((m) => m.teacherIds))];
  const [schools, teacherNames] = await Promise.all([schoolNames(ctx.db, schoolIds), namesOf(ctx.db, teacherIds)]);
  const count = (status: string) => rows.filter((r) => r.status === status).length;
  return {
    schedules: { notStarted: count('notStarted'), inProgress: count('inProgress'), finished: count('finished') },
    schools: schoolIds
      .map((schoolId) => ({
        schoolId,
        schoolName: schools.get(schoolId) ?? '',
        ...gather(rows.filter((r) => r.schoolId === schoolId).map((r) => r.id)),
      }))
      .sort((a, b) => b.schedules - a.schedules || a.schoolName.localeCompare(b.schoolName)),
    teachers: teacherIds
      .map((teacherId) => {
        const theirs = rows.filter((r) => members.get(r.id)!.teacherIds.includes(teacherId));
        return {
          teacherId,
          name: teacherNames.get(teacherId) ?? '',
          schoolName: schools.get(theirs[0]!.schoolId) ?? '',
          ...gather(theirs.map((r) => r.id)),
        };
      })
      .sort((a, b) => b.schedules - a.schedules || a.name.localeCompare(b.name)),
  };
}
