import type { TClass } from '@aiedu/contracts';
import { and, count, countDistinct, eq, gte, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { AuthContext } from '../../platform/auth/tokens.js';
import type { AppContext } from '../../platform/context.js';
import { classes, courseClassAssignments, refreshTokens, students } from '../../platform/db/schema/index.js';
import { AppError } from '../../platform/errors.js';
import { callerScope, scopeWhere } from '../../platform/tenancy.js';
import { createClass, listClasses } from './class.service.js';
import { knownTimeZone, lastDays } from './statistics.service.js';

/** The classes a teacher heads (those the teacher created), current first, one page. */
export async function listMyClasses(
  ctx: AppContext,
  auth: AuthContext,
  query: { status: 'current' | 'history'; page: number; size: number },
) {
  return listClasses(ctx, auth, query, auth.userId);
}

/** A class of the teacher's own school, headed by the teacher. */
export async function createMyClass(
  ctx: AppContext,
  request: FastifyRequest,
  auth: AuthContext,
  input: Omit<Parameters<typeof createClass>[3], 'schoolId'>,
): Promise<TClass> {
  const scope = await callerScope(ctx.db, auth);
  if (scope.kind !== 'school') throw new AppError('NO_PERMISSION_PAGE');
  return createClass(ctx, request, auth, { ...input, schoolId: scope.schoolId }, auth.userId);
}

/**
 * A class's statistics for its head teacher (or an administrator of its school): students, those active (a sign-in
 * or a token refresh) on each of the last `days` days in `timeZone`, and the courses given to it.
 */
export async function classStatistics(
  ctx: AppContext,
  auth: AuthContext,
  classId: string,
  query: { days: number; timeZone: string },
) {
  const scope = await callerScope(ctx.db, auth);
  const teaches = scope.kind === 'school' && auth.roles.every((role) => role === 'ROLE_TEACHER');
  const [klass] = await ctx.db
    .select({ id: classes.id, className: classes.className })
    .from(classes)
    .where(
      and(
        eq(classes.id, classId),
        scopeWhere(scope, classes),
        sql`${classes.classStatus} <> 'deleted'`,
        teaches ? eq(classes.teacherId, auth.userId) : undefined,
      ),
    );
  if (!klass) throw new AppError('NOT_FOUND');
  const tz = knownTimeZone(query.timeZone);
  const dates = lastDays(ctx.now(), query.days, tz);
  const since = sql`(${dates[0]}::date::timestamp at time zone ${tz})`;
  const day = sql<string>`to_char(${refreshTokens.createdAt} at time zone ${tz}, 'YYYY-MM-DD')`;
  const [[studentCount], [courseCount], active] = await Promise.all([
    ctx.db.select({ n: count() }).from(students).where(eq(students.classId, classId)),
    ctx.db.select({ n: count() }).from(courseClassAssignments).where(eq(courseClassAssignments.classId, classId)),
    ctx.db
      .select({ date: day, users: countDistinct(refreshTokens.userId) })
      .from(refreshTokens)
      .innerJoin(students, eq(students.userId, refreshTokens.userId))
      .where(and(eq(students.classId, classId), gte(refreshTokens.createdAt, since)))
      .groupBy(sql`1`)
      .orderBy(sql`1`),
  ]);
  const byDate = new Map(active.map((a) => [a.date, a.users]));
  return {
    classId: klass.id,
    className: klass.className,
    students: studentCount?.n ?? 0,
    courses: courseCount?.n ?? 0,
    activeByDay: dates.map((date) => ({ date, users: byDate.get(date) ?? 0 })),
  };
}
