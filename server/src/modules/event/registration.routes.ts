import {
  EVENT_API,
  ZEventImage,
  ZPage,
  ZQualificationDecision,
  ZQualificationQuery,
  ZRegistration,
  ZSaveRegistration,
} from '@aiedu/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/auth/auth-guard.js';
import type { AppContext } from '../../platform/context.js';
import { envelopeOf, ok } from '../../platform/envelope.js';
import {
  decideQualification,
  getRegistration,
  listQualification,
  saveRegistration,
  submitRegistration,
  uploadPhoto,
  withdrawRegistration,
} from './registration.service.js';

const ZRegistrationId = z.object({ registrationId: z.uuid() });

/**
 * A team's registration (spec 3's declaration) and the organisers' qualification audit. Applicants' personal data
 * is answered only to the team itself and the event's organisers.
 */
export const registrationRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const tags = ['event'];
  const take = { permission: 'event.take' as const };
  const manage = { permission: 'event.manage' as const };

  app.get(
    EVENT_API.registration,
    {
      config: { auth: 'required' },
      schema: {
        tags,
        summary: "The caller's team registration in an event, or null",
        querystring: z.object({ eventId: z.uuid() }),
        response: envelopeOf(ZRegistration.nullable()),
      },
    },
    async (request) => ok(await getRegistration(ctx, requireAuth(request), request.query.eventId)),
  );

  app.post(
    EVENT_API.registration,
    {
      config: take,
      schema: {
        tags,
        summary: 'Create the team, or update it while in progress (4501 outside registration, 4502, 4504, 4505)',
        body: ZSaveRegistration,
        response: envelopeOf(ZRegistration),
      },
    },
    async (request) => ok(await saveRegistration(ctx, request, requireAuth(request), request.body)),
  );

  app.put(
    EVENT_API.registrationSubmit,
    {
      config: take,
      schema: {
        tags,
        summary: 'Send the registration for the qualification audit (→ pendingReview), during registration',
        querystring: ZRegistrationId,
        response: envelopeOf(ZRegistration),
      },
    },
    async (request) => ok(await submitRegistration(ctx, request, requireAuth(request), request.query.registrationId)),
  );

  app.put(
    EVENT_API.registrationWithdraw,
    {
      config: take,
      schema: {
        tags,
        summary: 'The team withdraws (→ ended)',
        querystring: ZRegistrationId,
        response: envelopeOf(ZRegistration),
      },
    },
    async (request) => ok(await withdrawRegistration(ctx, request, requireAuth(request), request.query.registrationId)),
  );

  app.post(
    EVENT_API.uploadPhoto,
    {
      config: take,
      schema: {
        tags,
        summary: 'Upload a declaration photo (multipart "file": JPG or PNG, at most 2 MB)',
        consumes: ['multipart/form-data'],
        response: envelopeOf(ZEventImage),
      },
    },
    async (request) => ok(await uploadPhoto(ctx, request)),
  );

  app.get(
    EVENT_API.qualification,
    {
      config: manage,
      schema: {
        tags,
        summary: "An event's registrations for the qualification audit, with the applicants' data (organisers)",
        querystring: ZQualificationQuery,
        response: envelopeOf(ZPage(ZRegistration)),
      },
    },
    async (request) => ok(await listQualification(ctx, requireAuth(request), request.query)),
  );

  app.post(
    EVENT_API.qualificationDecide,
    {
      config: manage,
      schema: {
        tags,
        summary: 'Pass a pending registration, or refuse it with a reason (to correct, or final); else 4503',
        body: ZQualificationDecision,
        response: envelopeOf(ZRegistration),
      },
    },
    async (request) => ok(await decideQualification(ctx, request, requireAuth(request), request.body)),
  );
};
