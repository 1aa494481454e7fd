import { and, asc, countDistinct, desc, eq, gte, sql, type SQL } from 'drizzle-orm';
import type { AuthContext } from '../../platform/auth/tokens.js';
import type { AppContext } from '../../platform/context.js';
import type { Db } from '../../platform/db/client.js';
import {
  classes,
  customers,
  refreshTokens,
  schools,
  students,
  teachers,
  users,
} from '../../platform/db/schema/index.js';
import { callerScope, scopeWhere, type Scope } from '../../platform/tenancy.js';

/** The zone of days when the caller names none, or one this runtime does not know. */
export const DEFAULT_TIME_ZONE = 'Asia/Shanghai';

/** Per-school counts in the scope, the largest schools first (at most 200 rows: a table, not a report). */
function schoolCounts(db: Db, scope: Scope) {
  const per = (table: string, extra = '') =>
    sql<number>`(select count(*) from ${sql.raw(table)} x where x.school_id = "schools"."id"${sql.raw(extra)})`.mapWith(
      Number,
    );
  const students = per('students');
  return db
    .select({
      id: schools.id,
      name: schools.name,
      customerName: customers.name,
      teachers: per('teachers'),
      students,
      classes: per('classes', ` and x.class_status = 'current'`),
    })
    .from(schools)
    .innerJoin(customers, eq(customers.id, schools.customerId))
    .where(scopeWhere(scope, { customerId: schools.customerId, schoolId: schools.id }))
    .orderBy(desc(students), asc(schools.name))
    .limit(200);
}

/** The `days` calendar dates ending with today's in `timeZone`, oldest first (`YYYY-MM-DD`). */
export function lastDays(now: Date, days: number, timeZone: string): string[] {
  const [y, m, d] = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' })
    .format(now)
    .split('-')
    .map(Number) as [number, number, number];
  return Array.from({ length: days }, (_, i) =>
    new Date(Date.UTC(y, m - 1, d - (days - 1 - i))).toISOString().slice(0, 10),
  );
}

/**
 * Counts for the caller's scope, and distinct active users (a sign-in or a token refresh) on each of the last `days`
 * calendar days in `timeZone` (an unknown zone counts as Asia/Shanghai), today included; a day without any is there
 * with 0.
 */
interface Counts {
  schools: number;
  teachers: number;
  students: number;
  classes: number;
}

export async function readStatistics(ctx: AppContext, auth: AuthContext, query: { days: number; timeZone: string }) {
  const scope = await callerScope(ctx.db, auth);
  const tz = Intl.supportedValuesOf('timeZone').includes(query.timeZone) ? query.timeZone : DEFAULT_TIME_ZONE;
  const dates = lastDays(ctx.now(), query.days, tz);
  // Midnight of the first day in the caller's zone, as an instant the index on created_at can use.
  const since = sql`(${dates[0]}::date::timestamp at time zone ${tz})`;
  const day = sql<string>`to_char(${refreshTokens.createdAt} at time zone ${tz}, 'YYYY-MM-DD')`;
  const where = (condition: SQL | undefined) => condition ?? sql`true`;
  // The four counts in one statement.
  const countsQuery = ctx.db.execute(sql`select
    (select count(*)::int from ${schools} where ${where(scopeWhere(scope, { customerId: schools.customerId, schoolId: schools.id }))}) as schools,
    (select count(*)::int from ${teachers} where ${where(scopeWhere(scope, teachers))}) as teachers,
    (select count(*)::int from ${students} where ${where(scopeWhere(scope, students))}) as students,
    (select count(*)::int from ${classes} where ${where(and(scopeWhere(scope, classes), eq(classes.classStatus, 'current')))}) as classes`);
  const [counts, active, bySchool] = await Promise.all([
    countsQuery.then((result) => (result as unknown as { rows: Counts[] }).rows[0]!),
    ctx.db
      .select({ date: day, users: countDistinct(refreshTokens.userId) })
      .from(refreshTokens)
      .innerJoin(users, eq(users.id, refreshTokens.userId))
      .where(
        and(
          gte(refreshTokens.createdAt, since),
          scopeWhere(scope, { customerId: users.customerId, schoolId: users.schoolId }),
        ),
      )
      // By position: the day expression carries the time zone as a parameter, which GROUP BY cannot match by text.
      .groupBy(sql`1`)
      .orderBy(sql`1`),
    schoolCounts(ctx.db, scope),
  ]);
  const byDate = new Map(active.map((a) => [a.date, a.users]));
  return {
    schools: Number(counts.schools),
    teachers: Number(counts.teachers),
    students: Number(counts.students),
    classes: Number(counts.classes),
    activeByDay: dates.map((date) => ({ date, users: byDate.get(date) ?? 0 })),
    bySchool,
  };
}
