import { COURSE_API, ZExperimentCopy, ZExperimentStart, ZStartExperimentRequest } from '@aiedu/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/auth/auth-guard.js';
import type { AppContext } from '../../platform/context.js';
import { envelopeOf, ok } from '../../platform/envelope.js';
import type { RuntimeDriver } from '../runtime/runtime-driver.js';
import { allowProjectReviewers } from '../project/project.service.js';
import { listExperimentCopies, mayReviewExperimentCopy, startExperiment } from './experiment.service.js';

const B = COURSE_API.base;
const params = z.object({ id: z.uuid() });

/**
 * Course experiments: a learner starts an experiment and gets their own copy of its template project; the course's
 * teachers list the copies and open each one read-only in the project editor.
 */
export const experimentRoutes: FastifyPluginAsyncZod<{ ctx: AppContext; driver: RuntimeDriver }> = async (
  app,
  { ctx, driver },
) => {
  const tags = ['course'];
  allowProjectReviewers(mayReviewExperimentCopy);

  app.post(
    `${B}/tasks/:id/experiment/start`,
    {
      config: { permission: 'course.learn' },
      schema: {
        tags,
        summary: 'Start an experiment: the caller’s own copy of its template project, made once (4003 when removed)',
        params,
        body: ZStartExperimentRequest,
        response: envelopeOf(ZExperimentStart),
      },
    },
    async (request) =>
      ok(await startExperiment(ctx, driver, request, requireAuth(request), request.params.id, request.body.questionId)),
  );

  app.get(
    `${B}/:id/experiment-copies`,
    {
      // As every call on one course's authoring: 1007 for those who see the course, 1004 for the others.
      config: { auth: 'required' },
      schema: {
        tags,
        summary: 'Every learner’s experiment copy, for the course’s teachers to open read-only',
        params,
        response: envelopeOf(z.array(ZExperimentCopy)),
      },
    },
    async (request) => ok(await listExperimentCopies(ctx, requireAuth(request), request.params.id)),
  );
};
