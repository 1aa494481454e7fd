import { ZPage } from '@aiedu/contracts';
import { and, count, desc, eq, gte, ilike, inArray, lt, type SQL } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AuthContext } from '../../platform/auth/tokens.js';
import { requireAuth } from '../../platform/auth/auth-guard.js';
import type { AppContext } from '../../platform/context.js';
import { operationLogs, users } from '../../platform/db/schema/index.js';
import { callerScope } from '../../platform/tenancy.js';
import { envelopeOf, ok } from '../../platform/envelope.js';
import { requestLanguage } from '../../platform/i18n.js';
import { sendXlsx } from '../../platform/xlsx.js';
import { HEADERS } from './import.messages.js';
import { likeText } from '../../platform/db/like.js';

const ZLogQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  size: z.coerce.number().int().min(1).max(100).default(20),
  operator: z.string().trim().max(50).optional(),
  module: z.string().trim().max(50).optional(),
  operation: z.string().trim().max(50).optional(),
  from: z.iso.datetime({ offset: true }).optional(),
  to: z.iso.datetime({ offset: true }).optional(),
});
type LogQuery = z.infer<typeof ZLogQuery>;

const ZLog = z.object({
  id: z.string(),
  operatorName: z.string(),
  module: z.string(),
  operation: z.string(),
  ip: z.string(),
  params: z.unknown(),
  createdAt: z.string(),
});

/**
 * Super administrators read every log; customer administrators their subtree's; school staff the logs of
 * operators of their own school.
 */
async function logWhere(ctx: AppContext, auth: AuthContext, q: LogQuery): Promise<SQL | undefined> {
  const scope = await callerScope(ctx.db, auth);
  const filters: (SQL | undefined)[] = [
    scope.kind === 'all'
      ? undefined
      : scope.kind === 'customers'
        ? inArray(operationLogs.customerId, scope.customerIds)
        : and(
            eq(operationLogs.customerId, scope.customerId),
            inArray(
              operationLogs.operatorId,
              ctx.db.select({ id: users.id }).from(users).where(eq(users.schoolId, scope.schoolId)),
            ),
          ),
    q.operator ? ilike(operationLogs.operatorName, likeText(q.operator)) : undefined,
    q.module ? eq(operationLogs.module, q.module) : undefined,
    q.operation ? eq(operationLogs.operation, q.operation) : undefined,
    q.from ? gte(operationLogs.createdAt, new Date(q.from)) : undefined,
    q.to ? lt(operationLogs.createdAt, new Date(q.to)) : undefined,
  ];
  return and(...filters);
}

const present = (row: typeof operationLogs.$inferSelect) => ({
  id: row.id,
  operatorName: row.operatorName,
  module: row.module,
  operation: row.operation,
  ip: row.ip,
  params: row.params,
  createdAt: row.createdAt.toISOString(),
});

/** Operation logs: search and export. There is deliberately no route that changes or removes one. */
export const logRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const config = { permission: 'log.view' as const };
  const tags = ['institution'];

  app.get(
    '/api/v1/admin/logs',
    {
      config,
      schema: {
        tags,
        summary: 'Search operation logs, newest first',
        querystring: ZLogQuery,
        response: envelopeOf(ZPage(ZLog)),
      },
    },
    async (request) => {
      const where = await logWhere(ctx, requireAuth(request), request.query);
      const { page, size } = request.query;
      const [rows, [total]] = await Promise.all([
        ctx.db
          .select()
          .from(operationLogs)
          .where(where)
          .orderBy(desc(operationLogs.createdAt), desc(operationLogs.id))
          .limit(size)
          .offset((page - 1) * size),
        ctx.db.select({ n: count() }).from(operationLogs).where(where),
      ]);
      return ok({ list: rows.map(present), total: total?.n ?? 0, page, size });
    },
  );

  app.get(
    '/api/v1/admin/logs/export',
    { config, schema: { tags, summary: 'Export the matching operation logs to xlsx', querystring: ZLogQuery } },
    async (request, reply) => {
      const where = await logWhere(ctx, requireAuth(request), request.query);
      const texts = HEADERS[requestLanguage(request)];
      async function* batches() {
        for (let offset = 0; ; offset += 1000) {
          const rows = await ctx.db
            .select()
            .from(operationLogs)
            .where(where)
            .orderBy(desc(operationLogs.createdAt), desc(operationLogs.id))
            .limit(1000)
            .offset(offset);
          if (rows.length === 0) return;
          yield rows;
        }
      }
      return sendXlsx(
        reply,
        'operation-logs.xlsx',
        'Logs',
        [
          { header: texts.time, width: 24, value: (r) => r.createdAt.toISOString() },
          { header: texts.operator, value: (r) => r.operatorName },
          { header: texts.module, value: (r) => r.module },
          { header: texts.operation, value: (r) => r.operation },
          { header: texts.ip, value: (r) => r.ip },
          { header: texts.params, width: 60, value: (r) => JSON.stringify(r.params) },
        ],
        batches(),
      );
    },
  );
};
