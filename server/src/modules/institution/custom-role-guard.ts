import { hasEffectivePermission } from '@aiedu/contracts';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../platform/context.js';
import { AppError } from '../../platform/errors.js';
import { heldCustomRole, isAdminRole } from './custom-role.service.js';

/**
 * Every route that needs a permission refuses an administrator whose custom role leaves it out (`1006`), after
 * the auth guard has checked the built-in roles: a custom role only narrows them. Only administrator accounts can
 * hold one, so nobody else is asked about it.
 */
export function registerCustomRoleGuard(app: FastifyInstance, ctx: AppContext) {
  app.addHook('onRequest', async (request) => {
    const permission = request.routeOptions.config.permission;
    const auth = request.auth;
    if (!permission || !auth?.roles.some(isAdminRole)) return;
    const held = await heldCustomRole(ctx, auth.userId);
    if (held && !hasEffectivePermission(auth.roles, permission, held)) throw new AppError('NO_PERMISSION_PAGE');
  });
}
