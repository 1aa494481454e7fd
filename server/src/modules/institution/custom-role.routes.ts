import {
  ROLE_API,
  ZCreateCustomRoleRequest,
  ZCustomRole,
  ZCustomRoleListQuery,
  ZMyRole,
  ZPage,
  ZRoleIdsRequest,
  ZSwitchRequest,
  ZUpdateCustomRoleRequest,
} from '@aiedu/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/auth/auth-guard.js';
import type { AppContext } from '../../platform/context.js';
import { envelopeOf, ok } from '../../platform/envelope.js';
import {
  createCustomRole,
  deleteCustomRoles,
  listCustomRoles,
  myRole,
  updateCustomRole,
} from './custom-role.service.js';

/** A custom role's id, or a built-in role's name (which every change refuses: built-in roles are fixed). */
const ZRoleId = z.object({ id: z.string().min(1).max(64) });

/**
 * Custom roles (`/api/v1/role`, spec 7: search, create, update, delete, batch delete, switch status): super
 * administrators define them; administrators who assign roles read them.
 */
export const customRoleRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const manage = { permission: 'role.manage' as const };
  const tags = ['institution'];

  app.get(
    ROLE_API.search,
    {
      config: { permission: 'user.manage' },
      schema: {
        tags,
        summary: 'Search the custom roles, with the accounts of the caller’s scope holding each',
        querystring: ZCustomRoleListQuery,
        response: envelopeOf(ZPage(ZCustomRole)),
      },
    },
    async (request) => ok(await listCustomRoles(ctx, requireAuth(request), request.query)),
  );
  app.get(
    ROLE_API.mine,
    {
      config: { auth: 'required' },
      schema: {
        tags,
        summary: 'The caller’s custom role, if any: the permissions of its administrator role it keeps',
        response: envelopeOf(ZMyRole),
      },
    },
    async (request) => ok(await myRole(ctx, requireAuth(request))),
  );
  app.post(
    ROLE_API.base,
    {
      config: manage,
      schema: {
        tags,
        summary: 'Create a custom role: a built-in administrator role narrowed to some of its permissions',
        body: ZCreateCustomRoleRequest,
        response: envelopeOf(ZCustomRole),
      },
    },
    async (request) => ok(await createCustomRole(ctx, request, request.body)),
  );
  app.put(
    `${ROLE_API.base}/:id`,
    {
      config: manage,
      schema: {
        tags,
        summary: 'Change a custom role’s name, description or permissions (built-in roles are fixed)',
        params: ZRoleId,
        body: ZUpdateCustomRoleRequest,
        response: envelopeOf(ZCustomRole),
      },
    },
    async (request) => ok(await updateCustomRole(ctx, request, requireAuth(request), request.params.id, request.body)),
  );
  app.put(
    `${ROLE_API.base}/:id/status`,
    {
      config: manage,
      schema: {
        tags,
        summary: 'Switch a custom role on or off; while off, its holders keep none of its permissions',
        params: ZRoleId,
        body: ZSwitchRequest,
        response: envelopeOf(ZCustomRole),
      },
    },
    async (request) => ok(await updateCustomRole(ctx, request, requireAuth(request), request.params.id, request.body)),
  );
  app.delete(
    `${ROLE_API.base}/:id`,
    {
      config: manage,
      schema: {
        tags,
        summary: 'Delete a custom role no account holds',
        params: ZRoleId,
        response: envelopeOf(z.null()),
      },
    },
    async (request) => {
      await deleteCustomRoles(ctx, request, [request.params.id]);
      return ok(null);
    },
  );
  app.post(
    ROLE_API.batchDelete,
    {
      config: manage,
      schema: {
        tags,
        summary: 'Delete several custom roles, all or none',
        body: ZRoleIdsRequest,
        response: envelopeOf(z.null()),
      },
    },
    async (request) => {
      await deleteCustomRoles(ctx, request, request.body.ids);
      return ok(null);
    },
  );
};
