import {
  CERT_API,
  CERT_LIMITS,
  ZCert,
  ZCertDetail,
  ZCertListQuery,
  ZCertPic,
  ZCertPreviewRequest,
  ZCreateCertRequest,
  ZNextNumber,
  ZNextNumberQuery,
  ZPage,
  ZUpdateCertRequest,
} from '@aiedu/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/auth/auth-guard.js';
import type { AppContext } from '../../platform/context.js';
import { envelopeOf, ok } from '../../platform/envelope.js';
import { AppError } from '../../platform/errors.js';
import { readUpload } from '../../platform/uploads.js';
import {
  createTemplate,
  deleteTemplate,
  listTemplates,
  nextNumber,
  picKeyFor,
  previewPdf,
  templateDetail,
  templateOptions,
  updateTemplate,
  uploadPic,
} from './cert.service.js';

const ZCertId = z.object({ certId: z.uuid() });
const ZOrigin = z.object({ originUrl: z.string().max(1000).optional() });
const ZPicQuery = z.object({
  key: z.string().min(1).max(300),
  expires: z.string().max(20).optional(),
  sig: z.string().max(100).optional(),
});

/** Certificate templates (spec 7's cert and certPic families): design, images, preview and the number rule. */
export const certRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const tags = ['certificate'];
  const manage = { permission: 'certificate.manage' as const };
  const issue = { permission: 'certificate.issue' as const };

  app.get(
    CERT_API.cert,
    {
      config: manage,
      schema: {
        tags,
        summary: "The customer's templates (keyword on the name, type), with how many were issued",
        querystring: ZCertListQuery,
        response: envelopeOf(ZPage(ZCert)),
      },
    },
    async (request) => ok(await listTemplates(ctx, requireAuth(request), request.query)),
  );

  app.post(
    CERT_API.cert,
    {
      config: manage,
      schema: { tags, summary: 'Create a template', body: ZCreateCertRequest, response: envelopeOf(ZCertDetail) },
    },
    async (request) => ok(await createTemplate(ctx, request, requireAuth(request), request.body)),
  );

  app.put(
    CERT_API.cert,
    {
      config: manage,
      schema: {
        tags,
        summary: 'Edit a template (`id` in the body)',
        body: ZUpdateCertRequest,
        response: envelopeOf(ZCertDetail),
      },
    },
    async (request) => ok(await updateTemplate(ctx, request, requireAuth(request), request.body)),
  );

  app.delete(
    CERT_API.cert,
    {
      config: manage,
      schema: {
        tags,
        summary: 'Delete a template: gone from lists and new issuances; issued certificates keep their design',
        querystring: ZCertId,
        response: envelopeOf(z.null()),
      },
    },
    async (request) => {
      await deleteTemplate(ctx, request, requireAuth(request), request.query.certId);
      return ok(null);
    },
  );

  app.get(
    CERT_API.certDetail,
    {
      // Issuers read the template they give (the issuing screen previews it); only managers change one.
      config: issue,
      schema: {
        tags,
        summary: 'One template with its design',
        querystring: ZCertId,
        response: envelopeOf(ZCertDetail),
      },
    },
    async (request) => ok(await templateDetail(ctx, requireAuth(request), request.query.certId)),
  );

  app.get(
    CERT_API.certOptions,
    {
      config: issue,
      schema: {
        tags,
        summary: "The templates an issuer may choose: every active template of the caller's customer, by name",
        response: envelopeOf(z.array(ZCert)),
      },
    },
    async (request) => ok(await templateOptions(ctx, requireAuth(request))),
  );

  app.put(
    CERT_API.uploadCertPic,
    {
      config: manage,
      schema: {
        tags,
        summary:
          'Upload a background or seal (multipart "file": JPG or PNG, at most 5 MB); `originUrl`: the image it replaces',
        querystring: ZOrigin,
        consumes: ['multipart/form-data'],
        response: envelopeOf(ZCertPic),
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const file = await readUpload(request, CERT_LIMITS.imageBytes);
      return ok(await uploadPic(ctx, auth, file.bytes, request.query.originUrl));
    },
  );

  app.get(
    CERT_API.certPic,
    {
      config: { auth: 'optional' as const },
      schema: {
        tags,
        summary:
          "A certificate image: by the signed address of an answer, or signed in by a key of the caller's customer",
        querystring: ZPicQuery,
      },
    },
    async (request, reply) => {
      const auth = request.auth ?? undefined;
      if (!request.query.sig && !auth) throw new AppError('CERTIFICATE_NOT_FOUND');
      const key = picKeyFor(ctx, auth, request.query);
      const stored = await ctx.storage.get(key).catch(() => {
        throw new AppError('CERTIFICATE_NOT_FOUND');
      });
      return reply
        .type(key.endsWith('.png') ? 'image/png' : 'image/jpeg')
        .header('cache-control', 'private, max-age=3600')
        .header('content-length', stored.size)
        .send(stored.stream);
    },
  );

  app.post(
    CERT_API.preview,
    {
      config: issue,
      schema: {
        tags,
        summary: 'A design drawn with sample values: the PDF an issued certificate would be',
        body: ZCertPreviewRequest,
      },
    },
    async (request, reply) => {
      const pdf = await previewPdf(ctx, requireAuth(request), request.body);
      return reply.type('application/pdf').header('cache-control', 'no-store').send(Buffer.from(pdf));
    },
  );

  app.get(
    CERT_API.nextNumber,
    {
      config: manage,
      schema: {
        tags,
        summary: 'The number the next certificate of a rule would get today (nothing handed out)',
        querystring: ZNextNumberQuery,
        response: envelopeOf(ZNextNumber),
      },
    },
    async (request) => ok(await nextNumber(ctx, requireAuth(request), request.query)),
  );
};
