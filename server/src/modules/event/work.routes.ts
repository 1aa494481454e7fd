import {
  EVENT_API,
  ZEventImage,
  ZPage,
  ZSaveWork,
  ZUpdateWork,
  ZWork,
  ZWorkAdminQuery,
  ZWorkAuditDecision,
} from '@aiedu/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/auth/auth-guard.js';
import type { AppContext } from '../../platform/context.js';
import { envelopeOf, ok } from '../../platform/envelope.js';
import { organisedEvent } from './event-access.js';
import { registerVideoUploads, sendVideo, uploadCover } from './work.media.js';
import { pageOfWorks } from './work.repository.js';
import { auditWork, createWork, listTeamWorks, submitWork, teamMove, updateWork, workDetail } from './work.service.js';

const ZEventId = z.object({ eventId: z.uuid() });
const ZWorkId = z.object({ workId: z.uuid() });

/**
 * Works of an event (spec 3 and 4): a passed team writes drafts and submits them while submission is open by the
 * server's clock; organisers accept them for review or refuse them. Every move is one of `WORK_TRANSITIONS`.
 */
export const workRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const tags = ['event'];
  const take = { permission: 'event.take' as const };
  const manage = { permission: 'event.manage' as const };
  const driver = () => app.runtimes.driver;

  registerVideoUploads(app, ctx, app.runtimes.instance);

  app.get(
    EVENT_API.works,
    {
      config: { auth: 'required' },
      schema: {
        tags,
        summary: "The caller's team's works",
        querystring: ZEventId,
        response: envelopeOf(z.array(ZWork)),
      },
    },
    async (request) => ok(await listTeamWorks(ctx, requireAuth(request), request.query.eventId)),
  );

  app.post(
    EVENT_API.works,
    {
      config: take,
      schema: {
        tags,
        summary: 'Create a draft work (4514 without a passed registration, 4501 outside submission)',
        body: ZSaveWork,
        response: envelopeOf(ZWork),
      },
    },
    async (request) => ok(await createWork(ctx, request, requireAuth(request), request.body)),
  );

  app.put(
    EVENT_API.works,
    {
      config: take,
      schema: { tags, summary: 'Update a draft work', body: ZUpdateWork, response: envelopeOf(ZWork) },
    },
    async (request) => ok(await updateWork(ctx, request, requireAuth(request), request.body)),
  );

  app.get(
    EVENT_API.workDetail,
    {
      config: { auth: 'optional' },
      schema: {
        tags,
        summary:
          'One work: its team, organisers, its judges (without names); anyone once it placed in published results',
        querystring: ZWorkId,
        response: envelopeOf(ZWork),
      },
    },
    async (request) => ok(await workDetail(ctx, request.auth, request.query.workId)),
  );

  app.put(
    EVENT_API.workSubmit,
    {
      config: take,
      schema: {
        tags,
        summary: "Submit a draft (DRAFT → SUBMITTED), freezing the attached project's snapshot",
        querystring: ZWorkId,
        response: envelopeOf(ZWork),
      },
    },
    async (request) => ok(await submitWork(ctx, driver(), request, requireAuth(request), request.query.workId)),
  );

  app.put(
    EVENT_API.workRecall,
    {
      config: take,
      schema: { tags, summary: 'Recall a submitted work (→ DRAFT)', querystring: ZWorkId, response: envelopeOf(ZWork) },
    },
    async (request) => ok(await teamMove(ctx, request, requireAuth(request), request.query.workId, 'DRAFT')),
  );

  app.put(
    EVENT_API.workWithdraw,
    {
      config: take,
      schema: { tags, summary: 'Withdraw a work (→ CLOSED)', querystring: ZWorkId, response: envelopeOf(ZWork) },
    },
    async (request) => ok(await teamMove(ctx, request, requireAuth(request), request.query.workId, 'CLOSED')),
  );

  app.post(
    EVENT_API.uploadWorkCover,
    {
      config: take,
      schema: {
        tags,
        summary: 'Upload a work cover (multipart "file": JPG or PNG, at most 10 MB)',
        consumes: ['multipart/form-data'],
        response: envelopeOf(ZEventImage),
      },
    },
    async (request) => ok(await uploadCover(ctx, request)),
  );

  app.get(
    EVENT_API.workVideo,
    {
      config: { auth: 'optional' },
      schema: { tags, summary: "A work's video (MP4, byte ranges)", querystring: ZWorkId },
    },
    async (request, reply) => sendVideo(ctx, request, reply, request.query.workId),
  );

  app.get(
    EVENT_API.workAdmin,
    {
      config: manage,
      schema: {
        tags,
        summary: 'Every work of an event (organisers)',
        querystring: ZWorkAdminQuery,
        response: envelopeOf(ZPage(ZWork)),
      },
    },
    async (request) => {
      await organisedEvent(ctx.db, requireAuth(request), request.query.eventId);
      return ok(await pageOfWorks(ctx, request.query));
    },
  );

  app.post(
    EVENT_API.workAudit,
    {
      config: manage,
      schema: {
        tags,
        summary: 'Accept a submitted work for review (→ PENDING_REVIEW) or refuse it with a reason (→ FAIL)',
        body: ZWorkAuditDecision,
        response: envelopeOf(ZWork),
      },
    },
    async (request) => ok(await auditWork(ctx, request, requireAuth(request), request.body)),
  );
};
