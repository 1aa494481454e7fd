import { and, asc, count, countDistinct, desc, eq, gte, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/auth/auth-guard.js';
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
import { envelopeOf, ok } from '../../platform/envelope.js';
import { callerScope, scopeWhere, type Scope } from '../../platform/tenancy.js';

const ZStats = z.object({
  schools: z.number().int(),
  teachers: z.number().int(),
  students: z.number().int(),
  classes: z.number().int(),
  activeByDay: z.array(z.object({ date: z.string(), users: z.number().int() })),
  bySchool: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      customerName: z.string(),
      teachers: z.number().int(),
      students: z.number().int(),
      classes: z.number().int(),
    }),
  ),
});

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

/** Counts for the caller's scope, and distinct active users per day (a sign-in or a token refresh that day). */
export const statisticsRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    '/gw/api/v1/user/stats',
    {
      config: { permission: 'statistics.view' },
      schema: {
        tags: ['institution'],
        summary: 'Schools, teachers, students, classes and daily active users of the caller’s scope',
        querystring: z.object({
          days: z.coerce.number().int().min(1).max(366).default(30),
          timeZone: z.string().max(50).default('Asia/Shanghai'),
        }),
        response: envelopeOf(ZStats),
      },
    },
    async (request) => {
      const scope = await callerScope(ctx.db, requireAuth(request));
      const since = new Date(ctx.now().getTime() - request.query.days * 86_400_000);
      const tz = Intl.supportedValuesOf('timeZone').includes(request.query.timeZone)
        ? request.query.timeZone
        : 'Asia/Shanghai';
      const day = sql<string>`to_char(${refreshTokens.createdAt} at time zone ${tz}, 'YYYY-MM-DD')`;
      const one = async (query: Promise<{ n: number }[]>) => (await query)[0]?.n ?? 0;
      const [schoolCount, teacherCount, studentCount, classCount, active, bySchool] = await Promise.all([
        one(
          ctx.db
            .select({ n: count() })
            .from(schools)
            .where(scopeWhere(scope, { customerId: schools.customerId, schoolId: schools.id })),
        ),
        one(ctx.db.select({ n: count() }).from(teachers).where(scopeWhere(scope, teachers))),
        one(ctx.db.select({ n: count() }).from(students).where(scopeWhere(scope, students))),
        one(
          ctx.db
            .select({ n: count() })
            .from(classes)
            .where(and(scopeWhere(scope, classes), eq(classes.classStatus, 'current'))),
        ),
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
      return ok({
        schools: schoolCount,
        teachers: teacherCount,
        students: studentCount,
        classes: classCount,
        activeByDay: active,
        bySchool,
      });
    },
  );
};
