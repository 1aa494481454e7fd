import {
  EVENT_API,
  EVENT_LIMITS,
  ZAddJudge,
  ZCloseRound,
  ZCloseRoundResult,
  ZEventCertificates,
  ZEventCertificatesResult,
  ZEventImage,
  ZEventResults,
  ZJudge,
  ZJudgingItem,
  ZPublishResults,
  ZReviewProgress,
  ZReviewProgressQuery,
  ZReviewSettings,
  ZReviewSettingsView,
  ZSaveScore,
  ZScore,
} from '@aiedu/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/auth/auth-guard.js';
import type { AppContext } from '../../platform/context.js';
import { envelopeOf, ok } from '../../platform/envelope.js';
import { organisedEvent } from './event-access.js';
import { judgingList, saveScore } from './judging.service.js';
import { issueEventCertificates, publishResults, results } from './results.service.js';
import { closeRound } from './review.rounds.js';
import {
  addJudge,
  assignEvent,
  getSettings,
  listJudges,
  removeJudge,
  reopenScore,
  reviewProgress,
  saveSettings,
  uploadReviewFile,
} from './review.service.js';

const ZEventId = z.object({ eventId: z.uuid() });
const ZReviewFileQuery = ZEventId.extend({ kind: z.enum(['manual', 'sheet']) });
const ZReopen = z.object({ reason: z.string().trim().min(1).max(EVENT_LIMITS.reason) });

/**
 * The review of an event (spec 3 and 5): organisers set how judges score, name judges in groups, give the works to
 * the groups and follow their progress; judges score the works of their group; organisers publish the ranking and
 * give the winners certificates.
 */
export const reviewRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const tags = ['event'];
  const manage = { permission: 'event.manage' as const };
  const signedIn = { auth: 'required' as const };

  app.get(
    EVENT_API.reviewSettings,
    {
      config: signedIn,
      schema: {
        tags,
        summary: 'The review settings (organisers and judges); null until set',
        querystring: ZEventId,
        response: envelopeOf(ZReviewSettingsView.nullable()),
      },
    },
    async (request) => ok(await getSettings(ctx, requireAuth(request), request.query.eventId)),
  );

  app.put(
    EVENT_API.reviewSettings,
    {
      config: manage,
      schema: {
        tags,
        summary: 'Set how judges score (criteria and weights, or overall), the groups and the review files',
        querystring: ZEventId,
        body: ZReviewSettings,
        response: envelopeOf(ZReviewSettingsView.nullable()),
      },
    },
    async (request) => ok(await saveSettings(ctx, request, requireAuth(request), request.query.eventId, request.body)),
  );

  app.post(
    EVENT_API.uploadReviewFile,
    {
      config: manage,
      schema: {
        tags,
        summary: 'Upload the judges\' manual or the review sheet (multipart "file": PDF, at most 500 MB)',
        querystring: ZReviewFileQuery,
        consumes: ['multipart/form-data'],
        response: envelopeOf(ZEventImage),
      },
    },
    async (request) =>
      ok(await uploadReviewFile(ctx, request, requireAuth(request), request.query.eventId, request.query.kind)),
  );

  app.get(
    EVENT_API.judges,
    {
      config: manage,
      schema: { tags, summary: 'The judges of an event', querystring: ZEventId, response: envelopeOf(z.array(ZJudge)) },
    },
    async (request) => {
      const event = await organisedEvent(ctx.db, requireAuth(request), request.query.eventId);
      return ok(await listJudges(ctx.db, event.id));
    },
  );

  app.post(
    EVENT_API.judges,
    {
      config: manage,
      schema: {
        tags,
        summary: "Name a judge by username among the customer's accounts (4510 when already one)",
        body: ZAddJudge,
        response: envelopeOf(ZJudge),
      },
    },
    async (request) => ok(await addJudge(ctx, request, requireAuth(request), request.body)),
  );

  app.delete(
    EVENT_API.judges,
    {
      config: manage,
      schema: {
        tags,
        summary: 'Remove a judge',
        querystring: z.object({ judgeId: z.uuid() }),
        response: envelopeOf(z.array(ZJudge)),
      },
    },
    async (request) => ok(await removeJudge(ctx, request, requireAuth(request), request.query.judgeId)),
  );

  app.post(
    EVENT_API.assign,
    {
      config: manage,
      schema: {
        tags,
        summary: 'Give every work pending review to a judge group, evenly, never to a judge of its school (4511)',
        querystring: ZEventId,
        response: envelopeOf(ZReviewProgress),
      },
    },
    async (request) => ok(await assignEvent(ctx, request, requireAuth(request), request.query.eventId)),
  );

  app.get(
    EVENT_API.progress,
    {
      config: manage,
      schema: {
        tags,
        summary: 'Review progress per judge group of a round (the current one by default)',
        querystring: ZReviewProgressQuery,
        response: envelopeOf(ZReviewProgress),
      },
    },
    async (request) => ok(await reviewProgress(ctx, requireAuth(request), request.query.eventId, request.query.round)),
  );

  app.post(
    EVENT_API.closeRound,
    {
      config: manage,
      schema: {
        tags,
        summary:
          "Close the current review round: each track's best works go on to the next round's groups (4512 unscored, 4511 no fit)",
        body: ZCloseRound,
        response: envelopeOf(ZCloseRoundResult),
      },
    },
    async (request) => ok(await closeRound(ctx, request, requireAuth(request), request.body.eventId)),
  );

  app.put(
    EVENT_API.reopenScore,
    {
      config: manage,
      schema: {
        tags,
        summary: "Reopen a judge's submitted score with a reason (logged)",
        querystring: z.object({ scoreId: z.uuid() }),
        body: ZReopen,
        response: envelopeOf(z.object({ id: z.string() })),
      },
    },
    async (request) =>
      ok(await reopenScore(ctx, request, requireAuth(request), request.query.scoreId, request.body.reason)),
  );

  app.get(
    EVENT_API.judging,
    {
      config: signedIn,
      schema: {
        tags,
        summary: "The works of the caller's judge group with their own scores (4507 for a non-judge)",
        querystring: ZEventId,
        response: envelopeOf(z.array(ZJudgingItem)),
      },
    },
    async (request) => ok(await judgingList(ctx, requireAuth(request), request.query.eventId)),
  );

  for (const [url, submit, summary] of [
    [EVENT_API.score, false, 'Save a draft score (4506 once submitted, 4507 for a work not of the group)'],
    [EVENT_API.scoreSubmit, true, 'Submit a score: final until an organiser reopens it'],
  ] as const) {
    app.route({
      method: submit ? 'POST' : 'PUT',
      url,
      config: signedIn,
      schema: { tags, summary, body: ZSaveScore, response: envelopeOf(ZScore) },
      handler: async (request) => {
        const body = request.body as z.infer<typeof ZSaveScore>;
        return ok(await saveScore(ctx, request, requireAuth(request), body, submit));
      },
    });
  }

  app.post(
    EVENT_API.results,
    {
      config: manage,
      schema: {
        tags,
        summary: 'Publish the results: rank the audited works and give the awards (4512 unscored, 4509 twice)',
        body: ZPublishResults,
        response: envelopeOf(ZEventResults),
      },
    },
    async (request) => ok(await publishResults(ctx, request, requireAuth(request), request.body.eventId)),
  );

  app.get(
    EVENT_API.results,
    {
      config: { auth: 'optional' },
      schema: {
        tags,
        summary: 'The published results, public; before publication, the ranking so far to organisers only',
        querystring: ZEventId,
        response: envelopeOf(ZEventResults),
      },
    },
    async (request) => ok(await results(ctx, request.auth, request.query.eventId)),
  );

  app.post(
    EVENT_API.certificates,
    {
      config: manage,
      schema: {
        tags,
        summary: 'Give the award winners certificates: one issuance per award from a template of the customer',
        body: ZEventCertificates,
        response: envelopeOf(ZEventCertificatesResult),
      },
    },
    async (request) => ok(await issueEventCertificates(ctx, request, requireAuth(request), request.body)),
  );
};
