import {
  CERT_API,
  CERT_LIMITS,
  ZCandidatesQuery,
  ZCertCandidate,
  ZCertIssuance,
  ZCertIssuanceDetail,
  ZCertIssuanceListQuery,
  ZCertReview,
  ZCertReviewDecision,
  ZCertReviewItem,
  ZCertUserListResult,
  ZCreateCertIssuance,
  ZPage,
} from '@aiedu/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/auth/auth-guard.js';
import type { AppContext } from '../../platform/context.js';
import { envelopeOf, ok } from '../../platform/envelope.js';
import { requestLanguage } from '../../platform/i18n.js';
import { readUpload } from '../../platform/uploads.js';
import { candidatesOf } from './candidates.js';
import { attachment } from './cert-access.js';
import { createIssuance, issuanceDetail, issuancePdf, listIssuances, resubmitIssuance } from './issuance.service.js';
import { decideReview, reviewHistory, reviewQueue, withdrawReview } from './review.service.js';
import { userCertRoutes } from './user-cert.routes.js';
import { readUserList, userListTemplate } from './user-list.js';

/** The students an issuance names, without the schema's minimum: none is answered 4402, the spec's own refusal. */
const ZStudents = z.array(z.uuid()).max(CERT_LIMITS.issueUsers);
const ZCreate = ZCreateCertIssuance.extend({ userIds: ZStudents });
const ZResubmit = ZCreate.omit({ certId: true });
const ZIssuanceId = z.object({ certIssId: z.uuid() });
const LIST_FILE_BYTES = 5 * 1024 * 1024;

/** Issuing certificates (spec 7's certIss and review families) and the holders' certificates. */
export const issuanceRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const tags = ['certificate'];
  const issue = { permission: 'certificate.issue' as const };
  const signedIn = { auth: 'required' as const };

  app.post(
    CERT_API.certIss,
    {
      config: issue,
      schema: {
        tags,
        summary: 'Issue a template to students (4402 none, 4406 one outside the caller’s scope); pending when reviewed',
        body: ZCreate,
        response: envelopeOf(ZCertIssuanceDetail),
      },
    },
    async (request) => ok(await createIssuance(ctx, request, requireAuth(request), request.body)),
  );

  app.get(
    CERT_API.certIss,
    {
      config: issue,
      schema: {
        tags,
        summary: 'Issuances: the caller’s own, or the customer’s for its managers',
        querystring: ZCertIssuanceListQuery,
        response: envelopeOf(ZPage(ZCertIssuance)),
      },
    },
    async (request) => ok(await listIssuances(ctx, requireAuth(request), request.query)),
  );

  app.get(
    CERT_API.certIssDetail,
    {
      config: issue,
      schema: {
        tags,
        summary: 'An issuance with its holders',
        querystring: ZIssuanceId,
        response: envelopeOf(ZCertIssuanceDetail),
      },
    },
    async (request) => ok(await issuanceDetail(ctx, requireAuth(request), request.query.certIssId)),
  );

  app.put(
    CERT_API.certIssResubmit,
    {
      config: issue,
      schema: {
        tags,
        summary: 'Correct a refused issuance and send it again (4403 when it is not refused)',
        querystring: ZIssuanceId,
        body: ZResubmit,
        response: envelopeOf(ZCertIssuanceDetail),
      },
    },
    async (request) =>
      ok(await resubmitIssuance(ctx, request, requireAuth(request), request.query.certIssId, request.body)),
  );

  app.post(
    CERT_API.certIssDownload,
    {
      config: issue,
      schema: { tags, summary: 'Every certificate of an issued issuance as one PDF (a blob)', body: ZIssuanceId },
    },
    async (request, reply) => {
      const { pdf, fileName } = await issuancePdf(ctx, requireAuth(request), request.body.certIssId);
      return reply.type('application/pdf').header('content-disposition', attachment(fileName)).send(Buffer.from(pdf));
    },
  );

  app.get(
    CERT_API.userTemplate,
    {
      config: issue,
      schema: { tags, summary: 'The xlsx list of students to fill in, headers in the caller’s language' },
    },
    async (request, reply) =>
      reply
        .type('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
        .header('content-disposition', 'attachment; filename="certificate-students.xlsx"')
        .send(await userListTemplate(requestLanguage(request))),
  );

  app.post(
    CERT_API.uploadUserTemplate,
    {
      config: issue,
      schema: {
        tags,
        summary: 'Read a list of students (multipart "file"): each row found or refused with the reason (a dry run)',
        querystring: z.object({ fileType: z.enum(['xlsx', 'csv']).default('xlsx') }),
        consumes: ['multipart/form-data'],
        response: envelopeOf(ZCertUserListResult),
      },
    },
    async (request) => {
      const file = await readUpload(request, LIST_FILE_BYTES);
      const name = file.filename.toLowerCase().endsWith(`.${request.query.fileType}`)
        ? file.filename
        : `list.${request.query.fileType}`;
      const auth = requireAuth(request);
      return ok(
        await readUserList(ctx, request, auth, { bytes: file.bytes, filename: name }, requestLanguage(request)),
      );
    },
  );

  app.get(
    CERT_API.candidates,
    {
      config: issue,
      schema: {
        tags,
        summary: 'The students of a class, a course’s learners or a schedule’s students, within the caller’s scope',
        querystring: ZCandidatesQuery,
        response: envelopeOf(z.array(ZCertCandidate)),
      },
    },
    async (request) =>
      ok(await candidatesOf(ctx.db, requireAuth(request), request.query.source, request.query.sourceId)),
  );

  app.get(
    CERT_API.review,
    {
      config: signedIn,
      schema: {
        tags,
        summary: 'Issuances waiting for the caller’s review (auditors; 4405)',
        response: envelopeOf(z.array(ZCertReviewItem)),
      },
    },
    async (request) => ok(await reviewQueue(ctx, requireAuth(request))),
  );

  app.post(
    CERT_API.review,
    {
      config: signedIn,
      schema: {
        tags,
        summary: 'Approve (numbers and issues) or refuse with a reason (4403 decided already, 4405 not an auditor)',
        body: ZCertReviewDecision,
        response: envelopeOf(ZCertIssuance),
      },
    },
    async (request) => ok(await decideReview(ctx, request, requireAuth(request), request.body)),
  );

  app.delete(
    CERT_API.review,
    {
      config: issue,
      schema: {
        tags,
        summary: 'The issuer withdraws a pending issuance',
        querystring: z.object({ reviewId: z.uuid() }),
        response: envelopeOf(z.null()),
      },
    },
    async (request) => {
      await withdrawReview(ctx, request, requireAuth(request), request.query.reviewId);
      return ok(null);
    },
  );

  app.get(
    CERT_API.reviewHistory,
    {
      config: signedIn,
      schema: {
        tags,
        summary: 'The review records of an issuance',
        querystring: ZIssuanceId,
        response: envelopeOf(z.array(ZCertReview)),
      },
    },
    async (request) => ok(await reviewHistory(ctx, requireAuth(request), request.query.certIssId)),
  );

  await app.register(userCertRoutes, { ctx });
};
