import { ZPeriod, ZPeriodRequest } from '@aiedu/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/auth/auth-guard.js';
import type { AppContext } from '../../platform/context.js';
import { envelopeOf, ok } from '../../platform/envelope.js';
import { createPeriod, deletePeriod, listPeriods, updatePeriod } from './period.service.js';

const PERIODS = '/api/v1/admin_organize/periods';
const ZId = z.object({ id: z.uuid() });

/** School years and terms of the caller's customer or school. */
export const periodRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const config = { permission: 'period.manage' as const };
  const tags = ['institution'];

  app.get(
    PERIODS,
    {
      config,
      schema: { tags, summary: 'Periods (school years, terms), newest first', response: envelopeOf(z.array(ZPeriod)) },
    },
    async (request) => ok(await listPeriods(ctx, requireAuth(request))),
  );
  app.post(
    PERIODS,
    {
      config,
      schema: {
        tags,
        summary: 'Create a period for the customer, or for one school (school staff: always their own)',
        body: ZPeriodRequest.and(z.object({ customerId: z.uuid().optional() })),
        response: envelopeOf(ZPeriod),
      },
    },
    async (request) => ok(await createPeriod(ctx, request, requireAuth(request), request.body)),
  );
  app.put(
    `${PERIODS}/:id`,
    {
      config,
      schema: { tags, summary: 'Update a period', params: ZId, body: ZPeriodRequest, response: envelopeOf(ZPeriod) },
    },
    async (request) => ok(await updatePeriod(ctx, request, requireAuth(request), request.params.id, request.body)),
  );
  app.delete(
    `${PERIODS}/:id`,
    { config, schema: { tags, summary: 'Delete a period', params: ZId, response: envelopeOf(z.null()) } },
    async (request) => {
      await deletePeriod(ctx, request, requireAuth(request), request.params.id);
      return ok(null);
    },
  );
};
