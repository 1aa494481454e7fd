import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/auth/auth-guard.js';
import type { AppContext } from '../../platform/context.js';
import { envelopeOf, ok } from '../../platform/envelope.js';
import { DEFAULT_TIME_ZONE, readStatistics } from './statistics.service.js';

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

/** The statistics screen's call (statistics.service.ts). */
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
          timeZone: z.string().max(50).default(DEFAULT_TIME_ZONE),
        }),
        response: envelopeOf(ZStats),
      },
    },
    async (request) => ok(await readStatistics(ctx, requireAuth(request), request.query)),
  );
};
