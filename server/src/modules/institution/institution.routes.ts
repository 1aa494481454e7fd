import {
  ZCreateCustomerRequest,
  ZCreateSchoolRequest,
  ZCustomer,
  ZPage,
  ZSchool,
  ZSortedListQuery,
  ZSubCustomerLimits,
  ZSwitchRequest,
  ZUpdateCustomerRequest,
  ZUpdateSchoolRequest,
} from '@aiedu/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/auth/auth-guard.js';
import type { AppContext } from '../../platform/context.js';
import { envelopeOf, ok } from '../../platform/envelope.js';
import { callerScope, targetCustomer } from '../../platform/tenancy.js';
import {
  createCustomer,
  listCustomers,
  listSubCustomers,
  updateCustomer,
  updateSubCustomer,
} from './customer.service.js';
import { subCustomerLimits } from './customer-offer.service.js';
import { createSchool, listSchools, updateSchool } from './school.service.js';

const CUSTOMERS = '/api/v1/admin_super/organizes';
const SCHOOLS = '/api/v1/admin_organize/schools';
const SUB_CUSTOMERS = '/api/v1/admin/sub-customers';
const ZId = z.object({ id: z.uuid() });

/** Customers (super administrators) and schools (institution administrators). */
export const institutionRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const tags = ['institution'];
  const customerConfig = { permission: 'customer.manage' as const };
  const schoolConfig = { permission: 'school.manage' as const };
  const ownSchoolConfig = { permission: 'school.edit' as const };

  app.get(
    CUSTOMERS,
    {
      config: customerConfig,
      schema: { tags, summary: 'Customers', querystring: ZSortedListQuery, response: envelopeOf(ZPage(ZCustomer)) },
    },
    async (request) => ok(await listCustomers(ctx, request.query)),
  );
  app.post(
    CUSTOMERS,
    {
      config: customerConfig,
      schema: {
        tags,
        summary: 'Create a customer and its administrator',
        body: ZCreateCustomerRequest,
        response: envelopeOf(ZCustomer),
      },
    },
    async (request) => ok(await createCustomer(ctx, request, request.body)),
  );
  app.put(
    `${CUSTOMERS}/:id`,
    {
      config: customerConfig,
      schema: {
        tags,
        summary: 'Update a customer',
        params: ZId,
        body: ZUpdateCustomerRequest,
        response: envelopeOf(ZCustomer),
      },
    },
    async (request) => ok(await updateCustomer(ctx, request, request.params.id, request.body)),
  );
  app.put(
    `${CUSTOMERS}/:id/status`,
    {
      config: customerConfig,
      schema: {
        tags,
        summary: 'Switch a customer on or off (off: nobody under it can sign in or refresh)',
        params: ZId,
        body: ZSwitchRequest,
        response: envelopeOf(ZCustomer),
      },
    },
    async (request) =>
      ok(await updateCustomer(ctx, request, request.params.id, { enabled: request.body.enabled }, 'switch')),
  );

  const subConfig = { permission: 'subCustomer.manage' as const };
  app.get(
    SUB_CUSTOMERS,
    {
      config: subConfig,
      schema: { tags, summary: 'Sub-customers below the caller’s customer', response: envelopeOf(z.array(ZCustomer)) },
    },
    async (request) => ok(await listSubCustomers(ctx, await callerScope(ctx.db, requireAuth(request)))),
  );
  app.get(
    `${SUB_CUSTOMERS}/limits`,
    {
      config: subConfig,
      schema: {
        tags,
        summary:
          'What a sub-customer may be given under the caller’s customer (or a parentId inside its subtree): the parent’s quotas and container types',
        querystring: z.object({ parentId: z.uuid().optional() }),
        response: envelopeOf(ZSubCustomerLimits),
      },
    },
    async (request) =>
      ok(await subCustomerLimits(ctx, await callerScope(ctx.db, requireAuth(request)), request.query.parentId)),
  );
  app.post(
    SUB_CUSTOMERS,
    {
      config: subConfig,
      schema: {
        tags,
        summary:
          'Create a sub-customer (under the caller’s customer, or a parentId inside its subtree) and its administrator, within the parent’s quotas and container types (the parent’s where none are given)',
        body: ZCreateCustomerRequest.extend({ parentId: z.uuid().optional() }),
        response: envelopeOf(ZCustomer),
      },
    },
    async (request) => {
      const { parentId, ...input } = request.body;
      const parent = targetCustomer(await callerScope(ctx.db, requireAuth(request)), parentId);
      return ok(await createCustomer(ctx, request, input, parent));
    },
  );

  for (const [suffix, summary] of [
    ['', 'Update a sub-customer in the caller’s subtree, within its parent’s quotas and container types'],
    ['/status', 'Switch a sub-customer in the caller’s subtree on or off'],
  ] as const) {
    app.put(
      `${SUB_CUSTOMERS}/:id${suffix}`,
      {
        config: subConfig,
        schema: {
          tags,
          summary,
          params: ZId,
          body: suffix ? ZSwitchRequest : ZUpdateCustomerRequest,
          response: envelopeOf(ZCustomer),
        },
      },
      async (request) => {
        const scope = await callerScope(ctx.db, requireAuth(request));
        return ok(
          await updateSubCustomer(ctx, request, scope, request.params.id, request.body, suffix ? 'switch' : 'update'),
        );
      },
    );
  }

  app.get(
    SCHOOLS,
    {
      config: ownSchoolConfig,
      schema: {
        tags,
        summary: 'Schools of the caller’s customer (school staff: their own school)',
        querystring: ZSortedListQuery,
        response: envelopeOf(ZPage(ZSchool)),
      },
    },
    async (request) => ok(await listSchools(ctx, requireAuth(request), request.query)),
  );
  app.post(
    SCHOOLS,
    {
      config: schoolConfig,
      schema: {
        tags,
        summary: 'Create a school within the school quota (super administrators name the customer)',
        body: ZCreateSchoolRequest.extend({ customerId: z.uuid().optional() }),
        response: envelopeOf(ZSchool),
      },
    },
    async (request) => ok(await createSchool(ctx, request, requireAuth(request), request.body)),
  );
  app.put(
    `${SCHOOLS}/:id`,
    {
      config: ownSchoolConfig,
      schema: {
        tags,
        summary: 'Update a school',
        params: ZId,
        body: ZUpdateSchoolRequest,
        response: envelopeOf(ZSchool),
      },
    },
    async (request) => ok(await updateSchool(ctx, request, requireAuth(request), request.params.id, request.body)),
  );
  app.put(
    `${SCHOOLS}/:id/status`,
    {
      config: schoolConfig,
      schema: {
        tags,
        summary: 'Switch a school on or off',
        params: ZId,
        body: ZSwitchRequest,
        response: envelopeOf(ZSchool),
      },
    },
    async (request) =>
      ok(
        await updateSchool(
          ctx,
          request,
          requireAuth(request),
          request.params.id,
          { enabled: request.body.enabled },
          'switch',
        ),
      ),
  );
};
