import {
  EVENT_API,
  ZCreateEventRequest,
  ZEvent,
  ZEventImage,
  ZEventListQuery,
  ZMyContest,
  ZPage,
  ZUpdateEventRequest,
} from '@aiedu/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/auth/auth-guard.js';
import type { AppContext } from '../../platform/context.js';
import { envelopeOf, ok } from '../../platform/envelope.js';
import {
  createEvent,
  deleteEvent,
  eventDetail,
  listEvents,
  myContests,
  sendEventFile,
  updateEvent,
  uploadEventImage,
  viewerOf,
} from './event.service.js';

/** A public request names the customer whose events it shows by its code, as the institution home does. */
const custcode = z.string().trim().max(20).optional();

/**
 * Events (spec 1, 4): a public list and detail (platform-wide events to everyone, a customer's to its users and to
 * visitors naming it by `custcode`), organisers' create, update and delete, images, and the caller's contests.
 */
export const eventRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const tags = ['event'];
  const manage = { permission: 'event.manage' as const };

  app.get(
    EVENT_API.events,
    {
      config: { auth: 'optional' },
      schema: {
        tags,
        summary: 'Events the caller may see, newest registration first (no sign-in needed)',
        querystring: ZEventListQuery.extend({ custcode }),
        response: envelopeOf(ZPage(ZEvent)),
      },
    },
    async (request) => {
      const { custcode: code, ...query } = request.query;
      return ok(await listEvents(ctx, await viewerOf(ctx, request.auth, code), query));
    },
  );

  app.get(
    EVENT_API.detail,
    {
      config: { auth: 'optional' },
      schema: {
        tags,
        summary: "One event with the caller's part in it and the server's time (1004 when not visible)",
        querystring: z.object({ eventId: z.uuid(), custcode }),
        response: envelopeOf(ZEvent),
      },
    },
    async (request) => {
      const viewer = await viewerOf(ctx, request.auth, request.query.custcode);
      return ok(await eventDetail(ctx, viewer, request.query.eventId));
    },
  );

  app.post(
    EVENT_API.events,
    {
      config: manage,
      schema: {
        tags,
        summary: "Create an event of the caller's customer (platform-wide: super administrators)",
        body: ZCreateEventRequest,
        response: envelopeOf(ZEvent),
      },
    },
    async (request) => ok(await createEvent(ctx, request, requireAuth(request), request.body)),
  );

  app.put(
    EVENT_API.events,
    {
      config: manage,
      schema: {
        tags,
        summary: 'Update an event (4509 once its results are published)',
        body: ZUpdateEventRequest,
        response: envelopeOf(ZEvent),
      },
    },
    async (request) => ok(await updateEvent(ctx, request, requireAuth(request), request.body)),
  );

  app.delete(
    EVENT_API.events,
    {
      config: manage,
      schema: {
        tags,
        summary: 'Delete an event (4503 once a team registered)',
        querystring: z.object({ eventId: z.uuid() }),
        response: envelopeOf(z.null()),
      },
    },
    async (request) => {
      await deleteEvent(ctx, request, requireAuth(request), request.query.eventId);
      return ok(null);
    },
  );

  app.get(
    EVENT_API.mine,
    {
      config: { auth: 'required' },
      schema: {
        tags,
        summary: "The caller's contests: as a team member, a judge or an organiser",
        response: envelopeOf(z.array(ZMyContest)),
      },
    },
    async (request) => ok(await myContests(ctx, requireAuth(request))),
  );

  app.post(
    EVENT_API.uploadImage,
    {
      config: manage,
      schema: {
        tags,
        summary: 'Upload an event cover or image (multipart "file": JPG or PNG, at most 10 MB)',
        consumes: ['multipart/form-data'],
        response: envelopeOf(ZEventImage),
      },
    },
    async (request) => ok(await uploadEventImage(ctx, request)),
  );

  app.get(
    EVENT_API.file,
    {
      config: { auth: 'optional' },
      schema: {
        tags,
        summary: 'An event image (public)',
        querystring: z.object({ key: z.string().max(300) }),
      },
    },
    async (request, reply) => sendEventFile(ctx, reply, request.query.key),
  );
};
