import { COURSE_API, ZAdminExperiment, ZPage, ZSortedListQuery } from '@aiedu/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../platform/context.js';
import { envelopeOf, ok } from '../../platform/envelope.js';
import { listExperiments } from './experiment-admin.service.js';

/** Super administrators' list of the experiments (template projects) courses use (spec 7 `admin_super/experiments`). */
export const experimentAdminRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    COURSE_API.adminExperiments,
    {
      config: { permission: 'course.catalogue' },
      schema: {
        tags: ['courses'],
        summary:
          'Template projects of the courses’ experiment questions, with their owners, the courses using them and the learner copies made',
        querystring: ZSortedListQuery.omit({ sort: true }),
        response: envelopeOf(ZPage(ZAdminExperiment)),
      },
    },
    async (request) => ok(await listExperiments(ctx, request.query)),
  );
};
