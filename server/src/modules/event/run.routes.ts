import {
  EVENT_API,
  EVENT_LIMITS,
  ZEventEvaluation,
  ZEventRunsPage,
  ZEventRunsQuery,
  ZEventTrackQuery,
  ZLadder,
  ZRun,
  ZRunFromProject,
  ZRunsView,
} from '@aiedu/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/auth/auth-guard.js';
import type { AppContext } from '../../platform/context.js';
import { envelopeOf, ok } from '../../platform/envelope.js';
import { AppError } from '../../platform/errors.js';
import { openUpload } from '../../platform/uploads.js';
import type { RuntimeManager } from '../runtime/runtime-manager.js';
import { getEvaluation, putEvaluation } from './evaluation.service.js';
import { viewerOf } from './event.service.js';
import { getLadder } from './ladder.service.js';
import { allRuns, cancelRun, listRuns, submitRun, type Predictions } from './run.service.js';

const ZRunId = z.object({ runId: z.uuid() });

/**
 * Auto-scored tracks: the organisers' hidden evaluation, the teams' runs (queued, evaluated by the process's
 * `RunQueue` in sandboxes, within a daily limit) and the public ladder of personal bests.
 */
export const runRoutes: FastifyPluginAsyncZod<{ ctx: AppContext; manager: RuntimeManager }> = async (app, { ctx }) => {
  const tags = ['event'];
  const manage = { permission: 'event.manage' as const };
  const take = { permission: 'event.take' as const };

  app.put(
    EVENT_API.evaluation,
    {
      config: manage,
      schema: {
        tags,
        summary:
          'Set the evaluation of an auto-scored track (multipart "script": Python ≤ 1 MB, "answers": ≤ 50 MB; both the first time)',
        querystring: ZEventTrackQuery,
        consumes: ['multipart/form-data'],
        response: envelopeOf(ZEventEvaluation),
      },
    },
    async (request) =>
      ok(await putEvaluation(ctx, request, requireAuth(request), request.query.eventId, request.query.trackId)),
  );

  app.get(
    EVENT_API.evaluation,
    {
      config: manage,
      schema: {
        tags,
        summary: "Whether an auto-scored track's evaluation is set (its files are never served)",
        querystring: ZEventTrackQuery,
        response: envelopeOf(ZEventEvaluation.nullable()),
      },
    },
    async (request) => ok(await getEvaluation(ctx, requireAuth(request), request.query.eventId, request.query.trackId)),
  );

  app.post(
    EVENT_API.runs,
    {
      config: take,
      schema: {
        tags,
        summary:
          'Queue a run of predictions (multipart "file" ≤ 50 MB, or { projectId, path } of an own project); 4508 beyond the daily runs',
        querystring: ZEventTrackQuery,
        consumes: ['multipart/form-data', 'application/json'],
        response: envelopeOf(ZRun),
      },
    },
    async (request) => {
      const source = async (): Promise<Predictions> => {
        if (request.isMultipart()) {
          const upload = await openUpload(request, EVENT_LIMITS.predictionsBytes);
          return { filename: upload.filename, stream: upload.stream };
        }
        const parsed = ZRunFromProject.safeParse(request.body);
        if (!parsed.success) throw new AppError('BAD_REQUEST', { reason: 'body' });
        return parsed.data;
      };
      return ok(await submitRun(ctx, app.eventRuns, requireAuth(request), request.query, source));
    },
  );

  app.get(
    EVENT_API.runs,
    {
      config: take,
      schema: {
        tags,
        summary: "The team's runs of a track, today's count against the daily runs, and its personal best",
        querystring: ZEventTrackQuery,
        response: envelopeOf(ZRunsView),
      },
    },
    async (request) => ok(await listRuns(ctx, requireAuth(request), request.query)),
  );

  app.get(
    EVENT_API.runsAll,
    {
      config: manage,
      schema: {
        tags,
        summary: "Every team's runs of an auto-scored track, newest first, with the track's count in each state",
        querystring: ZEventRunsQuery,
        response: envelopeOf(ZEventRunsPage),
      },
    },
    async (request) => ok(await allRuns(ctx, requireAuth(request), request.query)),
  );

  app.put(
    EVENT_API.runCancel,
    {
      config: take,
      schema: {
        tags,
        summary: 'Cancel a queued run (it does not count); 4503 once it started',
        querystring: ZRunId,
        response: envelopeOf(ZRun),
      },
    },
    async (request) => ok(await cancelRun(ctx, requireAuth(request), request.query.runId)),
  );

  app.get(
    EVENT_API.ladder,
    {
      schema: {
        tags,
        summary:
          'The top 50 teams of an auto-scored track by personal best (public, as the event is: 1004 when not visible)',
        // A visitor names the customer whose event it is by its code, as the event's detail does.
        querystring: ZEventTrackQuery.extend({ custcode: z.string().trim().max(20).optional() }),
        response: envelopeOf(ZLadder),
      },
    },
    async (request) => {
      const { eventId, trackId, custcode } = request.query;
      return ok(await getLadder(ctx, await viewerOf(ctx, request.auth, custcode), eventId, trackId));
    },
  );
};
