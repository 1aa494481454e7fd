import { hasPermission, type Permission } from '@aiedu/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../errors.js';
import type { SessionCheck } from './session-check.js';
import type { AccessTokens, AuthContext } from './tokens.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The verified caller whose sign-in stands, or null for an anonymous request. */
    auth: AuthContext | null;
  }
  interface FastifyContextConfig {
    /** 'required': answer 1107 without a valid access token. Default: the token is read when present. */
    auth?: 'required' | 'optional';
    /** Callable while an administrator-set password waits to be changed (the change itself, logout, profile). */
    allowPendingPasswordChange?: boolean;
    /** The permission (contracts' PERMISSIONS table) a caller needs; implies auth 'required'. */
    permission?: Permission;
  }
}

export const AUTH_HEADER = 'x-authorization';

export function authHeader(request: FastifyRequest): string | undefined {
  const value = request.headers[AUTH_HEADER];
  const token = (Array.isArray(value) ? value[0] : value)?.trim();
  return token ? token.replace(/^Bearer\s+/i, '') : undefined;
}

/**
 * Reads the access token of every request and checks that its sign-in still stands; routes declare
 * `config: { auth: 'required' }` to refuse anonymous calls. A token whose sign-in ended is refused on those routes
 * as the token refresh refuses it (`E002`, or `E003` while the account, its school or customer is switched off);
 * elsewhere its caller is a visitor, as with an expired token.
 */
export function registerAuthGuard(app: FastifyInstance, tokens: AccessTokens, sessions: SessionCheck) {
  app.decorateRequest('auth', null);
  app.addHook('onRequest', async (request) => {
    const token = authHeader(request);
    const verified = token ? await tokens.verify(token) : null;
    const refusal = verified ? await sessions.refusal(verified) : null;
    request.auth = refusal ? null : verified;
    const config = request.routeOptions.config;
    if (config.auth !== 'required' && !config.permission) return;
    if (refusal) throw new AppError(refusal);
    if (!request.auth) throw new AppError('TOKEN_EXPIRED');
    if (request.auth.mustChangePassword && !config.allowPendingPasswordChange) {
      throw new AppError('PASSWORD_CHANGE_REQUIRED');
    }
    if (config.permission && !hasPermission(request.auth.roles, config.permission)) {
      throw new AppError('NO_PERMISSION_PAGE');
    }
  });
}

/** The caller of a route declared with `auth: 'required'`. */
export function requireAuth(request: FastifyRequest): AuthContext {
  if (!request.auth) throw new AppError('TOKEN_EXPIRED');
  return request.auth;
}
