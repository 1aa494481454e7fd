import {
  CERT_API,
  CERT_PNG_WIDTH,
  ZAddAuditorRequest,
  ZCertAuditor,
  ZCertSettings,
  ZPage,
  ZReissueRequest,
  ZRevokeRequest,
  ZUserCert,
  ZUserCertListQuery,
} from '@aiedu/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/auth/auth-guard.js';
import type { AppContext } from '../../platform/context.js';
import { envelopeOf, ok } from '../../platform/envelope.js';
import { addAuditor, getSettings, listAuditors, putSettings, removeAuditor } from './auditor.service.js';
import { CREDENTIAL_MEDIA_TYPE } from './badge.js';
import { attachment } from './cert-access.js';
import { certBadge, certPdf, certPng, listUserCerts, myCerts, reissueCert, revokeCert } from './user-cert.service.js';

const ZUserCertId = z.object({ userCertId: z.uuid() });

/** The customer's auditors and review setting, and the holders' certificates (list, revoke, reissue, PDF, PNG, badge). */
export const userCertRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const tags = ['certificate'];
  const auditing = { permission: 'certificateReview.manage' as const };
  const issue = { permission: 'certificate.issue' as const };
  const signedIn = { auth: 'required' as const };

  app.get(
    CERT_API.auditor,
    {
      config: auditing,
      schema: { tags, summary: 'The customer’s auditors', response: envelopeOf(z.array(ZCertAuditor)) },
    },
    async (request) => ok(await listAuditors(ctx, requireAuth(request))),
  );

  app.post(
    CERT_API.auditor,
    {
      config: auditing,
      schema: {
        tags,
        summary: 'Make a teacher or administrator of the customer an auditor (4408 already one)',
        body: ZAddAuditorRequest,
        response: envelopeOf(ZCertAuditor),
      },
    },
    async (request) => ok(await addAuditor(ctx, request, requireAuth(request), request.body.userId)),
  );

  app.delete(
    CERT_API.auditor,
    {
      config: auditing,
      schema: {
        tags,
        summary: 'Remove an auditor',
        querystring: z.object({ auditorId: z.uuid(), userId: z.uuid() }),
        response: envelopeOf(z.null()),
      },
    },
    async (request) => {
      await removeAuditor(ctx, request, requireAuth(request), request.query.auditorId, request.query.userId);
      return ok(null);
    },
  );

  app.get(
    CERT_API.auditorSettings,
    {
      config: auditing,
      schema: { tags, summary: 'Whether issuances wait for review', response: envelopeOf(ZCertSettings) },
    },
    async (request) => ok(await getSettings(ctx, requireAuth(request))),
  );

  app.put(
    CERT_API.auditorSettings,
    {
      config: auditing,
      schema: {
        tags,
        summary: 'Switch review of issuances on or off',
        body: ZCertSettings,
        response: envelopeOf(ZCertSettings),
      },
    },
    async (request) => ok(await putSettings(ctx, request, requireAuth(request), request.body)),
  );

  app.get(
    CERT_API.userCert,
    {
      config: issue,
      schema: {
        tags,
        summary: 'Issued certificates: the caller’s issuances’, or the customer’s for its managers',
        querystring: ZUserCertListQuery,
        response: envelopeOf(ZPage(ZUserCert)),
      },
    },
    async (request) => ok(await listUserCerts(ctx, requireAuth(request), request.query)),
  );

  app.get(
    CERT_API.myCerts,
    {
      config: signedIn,
      schema: { tags, summary: 'The caller’s own certificates', response: envelopeOf(z.array(ZUserCert)) },
    },
    async (request) => ok(await myCerts(ctx, requireAuth(request))),
  );

  app.put(
    CERT_API.revoke,
    {
      config: issue,
      schema: {
        tags,
        summary: 'Revoke a certificate with a reason (4404 already revoked); it stays verifiable as revoked',
        querystring: ZUserCertId,
        body: ZRevokeRequest,
        response: envelopeOf(ZUserCert),
      },
    },
    async (request) =>
      ok(await revokeCert(ctx, request, requireAuth(request), request.query.userCertId, request.body.reason)),
  );

  app.put(
    CERT_API.reissue,
    {
      config: issue,
      schema: {
        tags,
        summary: 'Replace a certificate after a correction: the old one revoked, a new one with a new number',
        querystring: ZUserCertId,
        body: ZReissueRequest,
        response: envelopeOf(ZUserCert),
      },
    },
    async (request) =>
      ok(await reissueCert(ctx, request, requireAuth(request), request.query.userCertId, request.body)),
  );

  app.get(
    CERT_API.pdf,
    {
      config: signedIn,
      schema: { tags, summary: 'A certificate as PDF (holder, issuer, managers)', querystring: ZUserCertId },
    },
    async (request, reply) => {
      const { pdf, number } = await certPdf(ctx, requireAuth(request), request.query.userCertId);
      return reply
        .type('application/pdf')
        .header('content-disposition', attachment(`${number}.pdf`))
        .send(Buffer.from(pdf));
    },
  );

  app.get(
    CERT_API.png,
    {
      config: signedIn,
      schema: {
        tags,
        summary: 'A certificate as a PNG picture drawn from its PDF (holder, issuer, managers)',
        querystring: ZUserCertId.extend({
          width: z.coerce
            .number()
            .int()
            .min(CERT_PNG_WIDTH.min)
            .max(CERT_PNG_WIDTH.max)
            .default(CERT_PNG_WIDTH.default),
        }),
      },
    },
    async (request, reply) => {
      const { userCertId, width } = request.query;
      const { png, number } = await certPng(ctx, requireAuth(request), userCertId, width);
      return reply
        .type('image/png')
        .header('content-disposition', attachment(`${number}.png`))
        .header('cache-control', 'private, no-cache')
        .send(png);
    },
  );

  app.get(
    CERT_API.badge,
    {
      config: signedIn,
      schema: {
        tags,
        summary: 'A certificate as an Open Badges 3.0 credential (VC-JWT file)',
        querystring: ZUserCertId,
      },
    },
    async (request, reply) => {
      const { jwt, number } = await certBadge(ctx, requireAuth(request), request.query.userCertId);
      return reply
        .type(CREDENTIAL_MEDIA_TYPE)
        .header('content-disposition', attachment(`${number}.jwt`))
        .send(jwt);
    },
  );
};
