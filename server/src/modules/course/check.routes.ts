import { COURSE_API, ZCheckQuery, ZCheckResult, ZRunCheckRequest, ZTrialCheckRequest } from '@aiedu/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/auth/auth-guard.js';
import type { AppContext } from '../../platform/context.js';
import { envelopeOf, ok } from '../../platform/envelope.js';
import { getCheck, latestLearnerCheck, runLearnerCheck, runTrialCheck, type CheckQueue } from './check.service.js';

const B = COURSE_API.base;
const params = z.object({ id: z.uuid() });

/**
 * Experiment checks: a learner checks their notebook (the hidden tests run in their own sandbox) and reads the
 * result; the course's authors try a check against the template or the reference solution.
 */
export const checkRoutes: FastifyPluginAsyncZod<{ ctx: AppContext; queue: CheckQueue }> = async (
  app,
  { ctx, queue },
) => {
  const tags = ['course'];

  app.post(
    `${B}/tasks/:id/experiment/check`,
    {
      config: { permission: 'course.learn' },
      schema: {
        tags,
        summary:
          'Check the caller’s experiment notebook: answers at once with the check running (one at a time; ' +
          'CHECKS_PER_HOUR per question, 1109 beyond; 4112 before the experiment is started)',
        params,
        body: ZRunCheckRequest,
        response: envelopeOf(ZCheckResult),
      },
    },
    async (request) =>
      ok(await runLearnerCheck(ctx, queue, requireAuth(request), request.params.id, request.body.questionId)),
  );

  app.get(
    `${B}/tasks/:id/experiment/check`,
    {
      config: { permission: 'course.learn' },
      schema: {
        tags,
        summary: 'The caller’s latest check of an experiment question (null: none yet)',
        params,
        querystring: ZCheckQuery,
        response: envelopeOf(ZCheckResult.nullable()),
      },
    },
    async (request) =>
      ok(await latestLearnerCheck(ctx, queue, requireAuth(request), request.params.id, request.query.questionId)),
  );

  app.post(
    `${B}/tasks/:id/experiment/check-trial`,
    {
      config: { auth: 'required' },
      schema: {
        tags,
        summary: 'Authors: try a check (saved or draft) against the template or the reference solution',
        params,
        body: ZTrialCheckRequest,
        response: envelopeOf(ZCheckResult),
      },
    },
    async (request) => ok(await runTrialCheck(ctx, queue, requireAuth(request), request.params.id, request.body)),
  );

  app.get(
    `${COURSE_API.checks}/:id`,
    {
      config: { auth: 'required' },
      schema: {
        tags,
        summary: 'One check: for the learner who ran it and the course’s teachers (404 for anyone else)',
        params,
        response: envelopeOf(ZCheckResult),
      },
    },
    async (request) => ok(await getCheck(ctx, queue, requireAuth(request), request.params.id)),
  );
};
