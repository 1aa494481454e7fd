import {
  SCHEDULE_API,
  ZPage,
  ZScheduleListQuery,
  ZScheduleSummary,
  ZTeachingStatistics,
  ZTeachingStatisticsQuery,
} from '@aiedu/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireAuth } from '../../platform/auth/auth-guard.js';
import type { AppContext } from '../../platform/context.js';
import { envelopeOf, ok } from '../../platform/envelope.js';
import { listSchedulesInScope, readTeachingStatistics } from './oversight.service.js';

/** Administrators' view of teaching: the schedules of their scope and the teaching statistics (spec 7). */
export const scheduleOversightRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const tags = ['schedule'];

  app.get(
    SCHEDULE_API.admin,
    {
      config: { permission: 'schedule.oversee' },
      schema: {
        tags,
        summary: 'The schedules of the caller’s scope, read-only: search by name, filter by state, one page',
        querystring: ZScheduleListQuery,
        response: envelopeOf(ZPage(ZScheduleSummary)),
      },
    },
    async (request) => ok(await listSchedulesInScope(ctx, requireAuth(request), request.query)),
  );
  app.get(
    SCHEDULE_API.statistics,
    {
      config: { permission: 'statistics.view' },
      schema: {
        tags,
        summary: 'Teaching statistics of the caller’s scope: schedules by state, per school and per teacher',
        querystring: ZTeachingStatisticsQuery,
        response: envelopeOf(ZTeachingStatistics),
      },
    },
    async (request) => ok(await readTeachingStatistics(ctx, requireAuth(request), request.query.days)),
  );
};
