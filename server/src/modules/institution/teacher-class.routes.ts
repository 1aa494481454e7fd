import { ZClass, ZClassStatistics, ZCreateClassRequest, ZPage } from '@aiedu/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/auth/auth-guard.js';
import type { AppContext } from '../../platform/context.js';
import { envelopeOf, ok } from '../../platform/envelope.js';
import { DEFAULT_TIME_ZONE } from './statistics.service.js';
import { classStatistics, createMyClass, listMyClasses } from './teacher-class.service.js';

const CLASSES = '/api/v1/classes';

/** Teachers' own classes (spec 6: teachers create classes and see class statistics). */
export const teacherClassRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const tags = ['institution'];
  const config = { permission: 'class.teach' as const };

  app.get(
    `${CLASSES}/mine`,
    {
      config,
      schema: {
        tags,
        summary: 'The classes the caller heads (those they created): current or history, one page',
        querystring: z.object({
          status: z.enum(['current', 'history']).default('current'),
          page: z.coerce.number().int().min(1).default(1),
          size: z.coerce.number().int().min(1).max(100).default(20),
        }),
        response: envelopeOf(ZPage(ZClass)),
      },
    },
    async (request) => ok(await listMyClasses(ctx, requireAuth(request), request.query)),
  );
  app.post(
    CLASSES,
    {
      config,
      schema: {
        tags,
        summary: 'Create a class of the teacher’s own school, headed by the teacher',
        body: ZCreateClassRequest.omit({ schoolId: true }),
        response: envelopeOf(ZClass),
      },
    },
    async (request) => ok(await createMyClass(ctx, request, requireAuth(request), request.body)),
  );
  app.get(
    `${CLASSES}/:id/stats`,
    {
      config: { permission: 'classStats.view' },
      schema: {
        tags,
        summary: 'A class’s students, daily active students and courses (its head teacher, or its administrators)',
        params: z.object({ id: z.uuid() }),
        querystring: z.object({
          days: z.coerce.number().int().min(1).max(366).default(30),
          timeZone: z.string().max(50).default(DEFAULT_TIME_ZONE),
        }),
        response: envelopeOf(ZClassStatistics),
      },
    },
    async (request) => ok(await classStatistics(ctx, requireAuth(request), request.params.id, request.query)),
  );
};
