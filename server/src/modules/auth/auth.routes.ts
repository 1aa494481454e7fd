import formbody from '@fastify/formbody';
import {
  API,
  SESSION_COOKIE_DAYS,
  SESSION_COOKIES,
  ZCaptcha,
  ZCaptchaCheckRequest,
  ZChangePasswordRequest,
  ZDefaultPasswordRequest,
  ZModifyPasswordRequest,
  ZLoginInfo,
  ZLoginInfoRequest,
  ZLoginRequest,
  ZLoginResponse,
  ZTokenPair,
  ZVerifyCodeEnabledQuery,
} from '@aiedu/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { authHeader, requireAuth } from '../../platform/auth/auth-guard.js';
import { envelopeOf, ok } from '../../platform/envelope.js';
import { AppError } from '../../platform/errors.js';
import { decodePassword } from '../../platform/password-policy.js';
import type { AppContext } from '../../platform/context.js';
import * as repo from './auth.repository.js';
import { checkCaptcha, createCaptcha, createImageCode } from './captcha.service.js';
import { isCaptchaRequired, login } from './login.service.js';
import { changePassword, replaceDefaultPassword } from './password.service.js';
import { endSession, refreshSession, sessionDeps } from './session.service.js';

const requester = (request: FastifyRequest) => ({
  ip: request.ip,
  userAgent: String(request.headers['user-agent'] ?? ''),
});

/**
 * Whether the page that asked is served over HTTPS, which is when the web client marks its own cookies Secure: the
 * scheme of its Origin or Referer, and only without either the request's own (through a trusted proxy) or the
 * configured public address. A Secure cookie sent to a page on plain HTTP would not be stored at all.
 */
export function pageIsHttps(request: Pick<FastifyRequest, 'headers' | 'protocol'>, publicUrl: string): boolean {
  for (const header of [request.headers.origin, request.headers.referer]) {
    if (!header) continue;
    try {
      return new URL(header).protocol === 'https:';
    } catch {
      // An unreadable header says nothing; try the next.
    }
  }
  return request.protocol === 'https' || publicUrl.startsWith('https:');
}

/** The legacy form login: `username` instead of `usernameOrEmailOrPhone`, form-encoded. */
const ZFormLogin = z.object({
  custcode: z.string().max(20).optional().default(''),
  username: z.string().trim().min(1).max(100),
  password: z.string().min(1).max(200),
  acid: z.string().max(100).optional(),
  verifycode: z.string().max(20).optional(),
  captchaId: z.string().max(100).optional(),
});

export const authRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  await app.register(formbody);
  const deps = { ...sessionDeps(ctx), config: ctx.config, shield: ctx.shield };
  const tags = ['auth'];

  app.post(
    API.authLogin,
    { schema: { tags, summary: 'Password sign-in', body: ZLoginRequest, response: envelopeOf(ZLoginResponse) } },
    async (request) => {
      const body = request.body;
      const input = {
        custcode: body.custcode,
        identifier: body.usernameOrEmailOrPhone,
        password: decodePassword(body.password),
        captchaId: body.captchaId,
        acid: body.acid,
        verifycode: body.verifycode,
      };
      return ok(await login(deps, input, requester(request)));
    },
  );

  app.post(
    API.formLogin,
    {
      schema: {
        tags,
        summary: 'Form-encoded sign-in (legacy form)',
        body: ZFormLogin,
        response: envelopeOf(ZLoginResponse),
      },
    },
    async (request) => {
      const { custcode, username, password, captchaId, acid, verifycode } = request.body;
      const input = { custcode, identifier: username, password: decodePassword(password), captchaId, acid, verifycode };
      return ok(await login(deps, input, requester(request)));
    },
  );

  const logout = async (request: FastifyRequest) => {
    await endSession(deps, requireAuth(request).sessionId);
    return ok(null);
  };
  for (const url of [API.authLogout, API.authUaaLogout, API.formLogout]) {
    app.post(
      url,
      {
        // Also while an administrator-set password waits to be changed: the holder may leave instead.
        config: { auth: 'required', allowPendingPasswordChange: true },
        schema: { tags, summary: 'Sign out: ends this sign-in everywhere' },
      },
      logout,
    );
  }

  const passwordConfig = { auth: 'required' as const, allowPendingPasswordChange: true };
  app.put(
    API.changePassword,
    {
      config: passwordConfig,
      schema: {
        tags,
        summary: 'Change the password; answers a fresh token pair',
        body: ZChangePasswordRequest,
        response: envelopeOf(ZTokenPair),
      },
    },
    async (request) => {
      const input = {
        oldPassword: decodePassword(request.body.oriPasswd),
        newPassword: decodePassword(request.body.newPasswd),
      };
      return ok(await changePassword(ctx, requireAuth(request).userId, input, requester(request)));
    },
  );
  app.post(
    API.modifyPassword,
    {
      config: passwordConfig,
      schema: {
        tags,
        summary: 'Change the password (legacy form)',
        body: ZModifyPasswordRequest,
        response: envelopeOf(ZTokenPair),
      },
    },
    async (request) => {
      const input = { oldPassword: decodePassword(request.body.pwd), newPassword: decodePassword(request.body.newPwd) };
      return ok(await changePassword(ctx, requireAuth(request).userId, input, requester(request)));
    },
  );
  app.put(
    API.defaultPassword,
    {
      config: passwordConfig,
      schema: {
        tags,
        summary: 'Replace a password an administrator set (only while that change is pending)',
        body: ZDefaultPasswordRequest,
        response: envelopeOf(ZTokenPair),
      },
    },
    async (request) => {
      const newPassword = decodePassword(request.body.newPasswd);
      return ok(await replaceDefaultPassword(ctx, requireAuth(request).userId, newPassword, requester(request)));
    },
  );

  app.get(
    API.authToken,
    {
      schema: {
        tags,
        summary: 'New token pair for the refresh token in X-Authorization (rotates it)',
        response: envelopeOf(ZTokenPair),
      },
    },
    async (request, reply) => {
      const refreshToken = authHeader(request);
      if (!refreshToken) throw new AppError('TOKEN_EXPIRED');
      const pair = await refreshSession(deps, refreshToken, requester(request));
      // A browser that keeps this very session in its cookies gets them replaced by the answer itself: when the
      // page that asked is left before the answer arrives (the web client sends the refresh with keepalive), the
      // browser still stores the new pair, and the next page does not send the spent token (which would revoke
      // the whole session family).
      if (app.parseCookie(request.headers.cookie ?? '')[SESSION_COOKIES.refreshToken] === refreshToken) {
        const options = {
          path: '/',
          maxAge: SESSION_COOKIE_DAYS * 24 * 60 * 60,
          sameSite: 'strict',
          secure: pageIsHttps(request, ctx.config.publicUrl),
        } as const;
        reply
          .setCookie(SESSION_COOKIES.token, pair.token, options)
          .setCookie(SESSION_COOKIES.refreshToken, pair.refreshToken, options);
      }
      return ok(pair);
    },
  );

  app.post(
    API.authLoginInfo,
    {
      schema: {
        tags,
        summary: 'Who an access token belongs to',
        body: ZLoginInfoRequest,
        response: envelopeOf(ZLoginInfo),
      },
    },
    async (request) => {
      const auth = await ctx.tokens.verify(request.body.token);
      if (!auth || !(await repo.isFamilyActive(ctx.db, auth.sessionId))) throw new AppError('TOKEN_EXPIRED');
      const customer = auth.customerId ? await repo.findCustomerById(ctx.db, auth.customerId) : undefined;
      return ok({ id: auth.userId, roles: auth.roles, customerId: auth.customerId, custcode: customer?.code ?? '' });
    },
  );

  app.get(
    API.authVerifyCodeEnabled,
    {
      schema: {
        tags,
        summary: 'Whether the next sign-in of this account needs the slider captcha',
        querystring: ZVerifyCodeEnabledQuery,
        response: envelopeOf(z.boolean()),
      },
    },
    async (request) => {
      const { custcode, username } = request.query;
      return ok(await isCaptchaRequired(deps, custcode, username, request.ip));
    },
  );

  app.get(
    API.captcha,
    { schema: { tags, summary: 'A new slider puzzle', response: envelopeOf(ZCaptcha) } },
    async (request) => {
      // Every puzzle is drawn (three images) and stored: the shield stops an address that asks for too many.
      await ctx.shield.record(request.ip, 'captchaRequest');
      return ok(await createCaptcha(ctx.db, ctx.now()));
    },
  );

  app.get(
    API.imageCode,
    {
      schema: {
        tags,
        summary: 'The image code of the legacy form login (PNG) for the client-chosen id `acid`',
        querystring: z.object({ acid: z.uuid() }),
      },
    },
    async (request, reply) => {
      // Drawn and stored like the slider's puzzle, and counted by the shield the same way.
      await ctx.shield.record(request.ip, 'captchaRequest');
      return reply
        .header('cache-control', 'no-store')
        .type('image/png')
        .send(await createImageCode(ctx.db, request.query.acid, ctx.now()));
    },
  );

  app.post(
    API.captchaCheck,
    {
      schema: {
        tags,
        summary: 'Check a slide: passes within ±5 px with a trace a person could have made; one check per puzzle',
        body: ZCaptchaCheckRequest,
        response: envelopeOf(z.object({ pass: z.literal(true) })),
      },
    },
    async (request) => {
      const { captchaId, checkedData } = request.body;
      try {
        return ok(await checkCaptcha(ctx.db, captchaId, checkedData, ctx.now()));
      } catch (error) {
        // A failed slide counts toward the address's request shield, like a wrong password.
        await ctx.shield.record(request.ip, 'loginFailure');
        throw error;
      }
    },
  );
};
