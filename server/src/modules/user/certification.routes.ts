import {
  API,
  ZReviewCertificationRequest,
  ZSchoolOption,
  ZTeacherCertification,
  ZTeacherCertificationRequest,
} from '@aiedu/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/auth/auth-guard.js';
import type { AppContext } from '../../platform/context.js';
import { envelopeOf, ok } from '../../platform/envelope.js';
import {
  latestCertification,
  listPendingCertifications,
  reviewCertification,
  searchSchools,
  submitCertification,
} from './certification.service.js';

export const certificationRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const tags = ['user'];

  app.post(
    API.teacherCertification,
    {
      config: { auth: 'required' },
      schema: {
        tags,
        summary: 'Ask to be certified as a teacher (mainland or non-mainland documents)',
        body: ZTeacherCertificationRequest,
        response: envelopeOf(ZTeacherCertification),
      },
    },
    async (request) => ok(await submitCertification(ctx, requireAuth(request), request.body)),
  );

  app.get(
    API.teacherCertification,
    {
      config: { auth: 'required' },
      schema: {
        tags,
        summary: "The caller's latest certification request",
        response: envelopeOf(ZTeacherCertification.nullable()),
      },
    },
    async (request) => ok(await latestCertification(ctx, requireAuth(request).userId)),
  );

  app.get(
    `${API.teacherCertification}/pending`,
    {
      config: { permission: 'certification.review' },
      schema: { tags, summary: 'Requests waiting for review', response: envelopeOf(z.array(ZTeacherCertification)) },
    },
    async (request) => ok(await listPendingCertifications(ctx, requireAuth(request))),
  );

  app.put(
    `${API.teacherCertification}/:id/review`,
    {
      config: { permission: 'certification.review' },
      schema: {
        tags,
        summary: 'Certify or reject a request',
        params: z.object({ id: z.uuid() }),
        body: ZReviewCertificationRequest,
        response: envelopeOf(ZTeacherCertification),
      },
    },
    async (request) => ok(await reviewCertification(ctx, requireAuth(request), request.params.id, request.body)),
  );

  app.get(
    API.fuzzySearchSchool,
    {
      config: { auth: 'required' },
      schema: {
        tags,
        summary:
          "Switched-on schools of the caller's customer (public space: listed ones) whose name contains the text",
        querystring: z.object({ partName: z.string().trim().min(1).max(50) }),
        response: envelopeOf(z.array(ZSchoolOption)),
      },
    },
    async (request) => ok(await searchSchools(ctx, requireAuth(request), request.query.partName)),
  );
};
