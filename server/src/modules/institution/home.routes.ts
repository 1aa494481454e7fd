import {
  LIMITS,
  MODULES,
  ZInstitutionHome,
  ZSideModules,
  ZOptionalHttpUrl,
  ZUpdateInstitutionHomeRequest,
} from '@aiedu/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/auth/auth-guard.js';
import type { AppContext } from '../../platform/context.js';
import { envelopeOf, ok, sendJson } from '../../platform/envelope.js';
import { AppError } from '../../platform/errors.js';
import { findCustomerById } from '../auth/auth.repository.js';
import {
  getCustomerModules,
  getInstitutionHome,
  keptInstitutionHomes,
  setBanner,
  setCustomerModules,
  sideOf,
  updateInstitutionHome,
} from './home.service.js';
import { readUpload } from '../../platform/uploads.js';

/**
 * The institution's home page (banners, project types, footer), edited by its administrators, and the modules each
 * side may use, set only by super administrators (a sub-customer keeps only those its parent has too).
 */
export const homeRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const tags = ['institution'];
  const config = { permission: 'subCustomer.manage' as const };
  const ownCustomer = (customerId: string | null) => {
    if (!customerId) throw new AppError('NO_PERMISSION_PAGE');
    return customerId;
  };

  app.get(
    '/gw/api/v1/school/home',
    {
      schema: {
        tags,
        summary: "An institution's home page content, for /home of its users",
        querystring: z.object({ custcode: z.string().min(1).max(20) }),
        response: envelopeOf(ZInstitutionHome),
      },
    },
    async (request, reply) => {
      // Kept as the answer's JSON: the landing page of every school's visitors costs no query and no serialising.
      const { custcode } = request.query;
      const json = await keptInstitutionHomes(ctx).get(custcode.toLowerCase(), async () =>
        String(reply.serialize(ok(await getInstitutionHome(ctx, custcode)))),
      );
      return sendJson(reply, json);
    },
  );

  app.put(
    '/api/v1/admin/institution-home',
    {
      config,
      schema: {
        tags,
        summary:
          'Update banner links, home project types and footer sites (modules are set by a super administrator: refused here)',
        body: ZUpdateInstitutionHomeRequest,
        response: envelopeOf(z.null()),
      },
    },
    async (request) => {
      await updateInstitutionHome(ctx, request, ownCustomer(requireAuth(request).customerId), request.body);
      return ok(null);
    },
  );

  app.post(
    '/api/v1/admin/institution-home/banners/:slot',
    {
      config,
      schema: {
        tags,
        summary: 'Replace one of the three banners (multipart "file": JPG/PNG/BMP under 3 MB; field "link")',
        consumes: ['multipart/form-data'],
        params: z.object({ slot: z.coerce.number().int().min(0).max(2) }),
        response: envelopeOf(z.null()),
      },
    },
    async (request) => {
      const customerId = ownCustomer(requireAuth(request).customerId);
      const file = await readUpload(request, LIMITS.bannerBytes);
      const link = ZOptionalHttpUrl.safeParse(file.fields.link ?? '');
      if (!link.success) {
        throw new AppError('BAD_REQUEST', { issues: [{ path: 'body.link', message: link.error.issues[0]!.message }] });
      }
      const image = { name: file.filename, bytes: file.bytes };
      await setBanner(ctx, request, customerId, request.params.slot, image, link.data);
      return ok(null);
    },
  );

  const customerModules = '/api/v1/admin_super/organizes/:id/modules';
  const superConfig = { permission: 'customer.manage' as const };
  const params = z.object({ id: z.uuid() });
  app.get(
    customerModules,
    {
      config: superConfig,
      schema: {
        tags,
        summary: "The modules a customer's teachers and students may use",
        params,
        response: envelopeOf(ZSideModules),
      },
    },
    async (request) => ok(await getCustomerModules(ctx, request.params.id)),
  );
  app.put(
    customerModules,
    {
      config: superConfig,
      schema: {
        tags,
        summary: "Set the modules of a customer's teacher and student sides",
        params,
        body: ZSideModules,
        response: envelopeOf(ZSideModules),
      },
    },
    async (request) => ok(await setCustomerModules(ctx, request, request.params.id, request.body)),
  );

  app.get(
    '/gw/api/v1/school/modules',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        summary: "The modules the caller's side (teacher or student) may use",
        response: envelopeOf(z.array(z.object({ id: z.enum(MODULES) }))),
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const customer = auth.customerId ? await findCustomerById(ctx.db, auth.customerId) : undefined;
      if (!customer) return ok(MODULES.map((id) => ({ id })));
      const home = await getInstitutionHome(ctx, customer.code);
      return ok(home.modules[sideOf(auth)].map((id) => ({ id })));
    },
  );
};
