import {
  ALL_ROLES,
  PERMISSIONS,
  ZAdminUser,
  ZAdminUserListQuery,
  ZCreateAdminUserRequest,
  ZIdsRequest,
  ZPage,
  ZResetPasswordByAdminRequest,
  ZRole,
  ZSwitchRequest,
  ZUpdateAdminUserRequest,
} from '@aiedu/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/auth/auth-guard.js';
import type { AppContext } from '../../platform/context.js';
import { envelopeOf, ok } from '../../platform/envelope.js';
import { createAdminUser, deleteAdminUsers, listAdminUsers, updateAdminUser } from './admin-user.service.js';

const USERS = '/api/v1/user';
const ZId = z.object({ id: z.uuid() });

/** Administrator accounts (`/api/v1/user`) and the roles with their permissions (`/api/v1/role`). */
export const adminUserRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const config = { permission: 'user.manage' as const };
  const tags = ['institution'];

  app.get(
    USERS,
    {
      config,
      schema: {
        tags,
        summary: 'Search administrator accounts in the caller’s scope',
        querystring: ZAdminUserListQuery,
        response: envelopeOf(ZPage(ZAdminUser)),
      },
    },
    async (request) => ok(await listAdminUsers(ctx, requireAuth(request), request.query)),
  );
  app.post(
    USERS,
    {
      config,
      schema: {
        tags,
        summary: 'Create an administrator account (must change the password at first sign-in)',
        body: ZCreateAdminUserRequest,
        response: envelopeOf(ZAdminUser),
      },
    },
    async (request) => ok(await createAdminUser(ctx, request, requireAuth(request), request.body)),
  );
  app.put(
    `${USERS}/:id`,
    {
      config,
      schema: {
        tags,
        summary: 'Update an administrator account (name, phone, whether a school administrator also teaches)',
        params: ZId,
        body: ZUpdateAdminUserRequest,
        response: envelopeOf(ZAdminUser),
      },
    },
    async (request) => ok(await updateAdminUser(ctx, request, requireAuth(request), request.params.id, request.body)),
  );
  app.put(
    `${USERS}/:id/status`,
    {
      config,
      schema: {
        tags,
        summary: 'Switch an administrator account on or off',
        params: ZId,
        body: ZSwitchRequest,
        response: envelopeOf(ZAdminUser),
      },
    },
    async (request) => ok(await updateAdminUser(ctx, request, requireAuth(request), request.params.id, request.body)),
  );
  app.put(
    `${USERS}/:id/password`,
    {
      config,
      schema: {
        tags,
        summary: 'Set an administrator’s password (6–20); they must change it at next sign-in',
        params: ZId,
        body: ZResetPasswordByAdminRequest,
        response: envelopeOf(ZAdminUser),
      },
    },
    async (request) => ok(await updateAdminUser(ctx, request, requireAuth(request), request.params.id, request.body)),
  );
  app.delete(
    `${USERS}/:id`,
    {
      config,
      schema: { tags, summary: 'Delete an administrator account', params: ZId, response: envelopeOf(z.null()) },
    },
    async (request) => {
      await deleteAdminUsers(ctx, request, requireAuth(request), [request.params.id]);
      return ok(null);
    },
  );
  app.post(
    `${USERS}/batch-delete`,
    {
      config,
      schema: {
        tags,
        summary: 'Delete several administrator accounts, all or none',
        body: ZIdsRequest,
        response: envelopeOf(z.null()),
      },
    },
    async (request) => {
      await deleteAdminUsers(ctx, request, requireAuth(request), request.body.ids);
      return ok(null);
    },
  );

  app.get(
    '/api/v1/role',
    {
      config,
      schema: {
        tags,
        summary: 'Every role with its permissions (the table in contracts)',
        response: envelopeOf(z.array(ZRole)),
      },
    },
    async () =>
      ok(
        ALL_ROLES.map((role) => ({
          role,
          permissions: Object.entries(PERMISSIONS)
            .filter(([, roles]) => (roles as readonly string[]).includes(role))
            .map(([permission]) => permission),
        })),
      ),
  );
};
