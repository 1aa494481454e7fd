import { and, asc, countDistinct, desc, eq, gte, sql, type SQL } from 'drizzle-orm';
import type { AuthContext } from '../../platform/auth/tokens.js';
import type { AppContext } from '../../platform/context.js';
import {
  classes,
  customers,
  refreshTokens,
  schools,
  students,
  teachers,
  users,
} from '../../platform/db/schema/index.js';
import { preparedStatements } from '../../platform/db/prepared.js';
import { callerScope, scopePlaceholders, scopeShape, scopeValues, type ScopeShape } from '../../platform/tenancy.js';

/** The zone of days when the caller names none, or one this runtime does not know. */
export const DEFAULT_TIME_ZONE = 'Asia/Shanghai';

/** The zones this runtime knows, listed once (the list holds some 400 names). */
const TIME_ZONES = new Set(Intl.supportedValuesOf('timeZone'));

/** The zone asked for when this runtime knows it, else the default. */
export const knownTimeZone = (timeZone: string) => (TIME_ZONES.has(timeZone) ? timeZone : DEFAULT_TIME_ZONE);

/** A date formatter per zone, made once: making one costs more than using it. */
const dayFormats = new Map<string, Intl.DateTimeFormat>();
function dayFormat(timeZone: string) {
  let format = dayFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    dayFormats.set(timeZone, format);
  }
  return format;
}

/** Per-school counts in the scope, the largest schools first (at most 200 rows: a table, not a report). */
const schoolCounts = preparedStatements((db, name, key) => {
  const scope = JSON.parse(key) as ScopeShape;
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
    .where(scopePlaceholders(scope, { customerId: schools.customerId, schoolId: schools.id }))
    .orderBy(desc(students), asc(schools.name))
    .limit(200)
    .prepare(name);
});

/** The four counts of the scope, in one statement. */
const scopeCounts = preparedStatements((db, name, key) => {
  const scope = JSON.parse(key) as ScopeShape;
  const counted = (
    table: typeof schools | typeof teachers | typeof students | typeof classes,
    where: SQL | undefined,
  ) => sql<number>`(select count(*)::int from ${table} where ${where ?? sql`true`})`.mapWith(Number);
  return db
    .select({
      schools: counted(schools, scopePlaceholders(scope, { customerId: schools.customerId, schoolId: schools.id })),
      teachers: counted(teachers, scopePlaceholders(scope, teachers)),
      students: counted(students, scopePlaceholders(scope, students)),
      classes: counted(classes, and(scopePlaceholders(scope, classes), eq(classes.classStatus, 'current'))),
    })
    .from(sql`(select 1) as one`)
    .prepare(name);
});

/** Distinct active users of the scope per day since the first day's midnight in the zone, by date. */
const activeByDay = preparedStatements((db, name, key) => {
  const scope = JSON.parse(key) as ScopeShape;
  const tz = sql.placeholder('timeZone');
  // Midnight of the first day in the caller's zone, as an instant the index on created_at can use.
  const since = sql`(${sql.placeholder('firstDay')}::date::timestamp at time zone ${tz})`;
  const day = sql<string>`to_char(${refreshTokens.createdAt} at time zone ${tz}, 'YYYY-MM-DD')`;
  return (
    db
      .select({ date: day, users: countDistinct(refreshTokens.userId) })
      .from(refreshTokens)
      .innerJoin(users, eq(users.id, refreshTokens.userId))
      .where(
        and(
          gte(refreshTokens.createdAt, since),
          scopePlaceholders(scope, { customerId: users.customerId, schoolId: users.schoolId }),
        ),
      )
      // By position: the day expression carries the time zone as a parameter, which GROUP BY cannot match by text.
      .groupBy(sql`1`)
      .orderBy(sql`1`)
      .prepare(name)
  );
});

/** The `days` calendar dates ending with today's in `timeZone`, oldest first (`YYYY-MM-DD`). */
export function lastDays(now: Date, days: number, timeZone: string): string[] {
  const [y, m, d] = dayFormat(timeZone).format(now).split('-').map(Number) as [number, number, number];
  return Array.from({ length: days }, (_, i) =>
    new Date(Date.UTC(y, m - 1, d - (days - 1 - i))).toISOString().slice(0, 10),
  );
}

/**
 * Counts for the caller's scope, and distinct active users (a sign-in or a token refresh) on each of the last `days`
 * calendar days in `timeZone` (an unknown zone counts as Asia/Shanghai), today included; a day without any is there
 * with 0.
 */
export async function readStatistics(ctx: AppContext, auth: AuthContext, query: { days: number; timeZone: string }) {
  const scope = await callerScope(ctx.db, auth);
  const timeZone = knownTimeZone(query.timeZone);
  const dates = lastDays(ctx.now(), query.days, timeZone);
  const key = JSON.stringify(scopeShape(scope));
  const values = { ...scopeValues(scope), timeZone, firstDay: dates[0] };
  const [[counts], active, bySchool] = await Promise.all([
    scopeCounts(ctx.db, key).execute(values),
    activeByDay(ctx.db, key).execute(values),
    schoolCounts(ctx.db, key).execute(values),
  ]);
  const byDate = new Map(active.map((a) => [a.date, a.users]));
  return {
    schools: counts?.schools ?? 0,
    teachers: counts?.teachers ?? 0,
    students: counts?.students ?? 0,
    classes: counts?.classes ?? 0,
    activeByDay: dates.map((date) => ({ date, users: byDate.get(date) ?? 0 })),
    bySchool,
  };
}
