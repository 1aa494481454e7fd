import { ZLoginResponse } from '@aiedu/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/auth/auth-guard.js';
import type { AppContext } from '../../platform/context.js';
import { envelopeOf, ok } from '../../platform/envelope.js';
import { pageIsHttps } from './auth.routes.js';
import {
  addProvider,
  browserBinding,
  finishSso,
  listProviders,
  removeProvider,
  STATE_TTL_MS,
  startSso,
} from './sso.service.js';

const ZType = z.string().regex(/^[a-z0-9_-]{2,30}$/);
const ZCallbackQuery = z.record(z.string(), z.string().max(4000));
const ZSsoLogin = ZLoginResponse.extend({
  targetUrl: z.string(),
  custcode: z.string().describe("The customer code of the provider's customer; empty for the public space"),
});

const ZProvider = z.object({
  id: z.string(),
  customerId: z.string().nullable(),
  type: z.string(),
  name: z.string(),
  issuer: z.string(),
  clientId: z.string(),
  scopes: z.string(),
  autoCreate: z.boolean(),
  schoolId: z.string().nullable().describe('The school whose roster accounts created at first sign-in join'),
  enabled: z.boolean(),
  redirectUri: z.string().describe('Register this address at the provider'),
});

const PROVIDERS = '/gw/api/v1/sys/sso/providers';

/**
 * The cookie that binds a started sign-in to its browser. Lax, so that it is kept when the provider sends the
 * browser back with a top-level redirect from its own site; sent only to the calls under this path.
 */
const BINDING_COOKIE = { name: 'ssoBinding', path: '/gw/api/v1' } as const;

/** Third-party and single sign-on over OpenID Connect, configured per customer. */
export const ssoRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const tags = ['auth'];
  const requester = (request: { ip: string; headers: Record<string, unknown> }) => ({
    ip: request.ip,
    userAgent: String(request.headers['user-agent'] ?? ''),
  });

  app.get(
    '/gw/api/v1/auth/thirdparty/:type/authorize',
    {
      schema: {
        tags,
        summary: "Start a sign-in at the customer's identity provider",
        params: z.object({ type: ZType }),
        querystring: z.object({
          custcode: z.string().max(20).default(''),
          targetUrl: z.string().max(2000).default(''),
        }),
        response: envelopeOf(z.object({ url: z.string() })),
      },
    },
    async (request, reply) => {
      const { url, binding } = await startSso(ctx, { ...request.query, type: request.params.type });
      reply.setCookie(BINDING_COOKIE.name, binding, {
        path: BINDING_COOKIE.path,
        maxAge: STATE_TTL_MS / 1000,
        httpOnly: true,
        sameSite: 'lax',
        secure: pageIsHttps(request, ctx.config.publicUrl),
      });
      return ok({ url });
    },
  );

  /**
   * Finishes with the browser's binding. Once its own sign-in has been tried the cookie has served (the state is
   * spent either way); a callback of another sign-in leaves it to the one it binds.
   */
  async function finish(request: FastifyRequest, reply: FastifyReply, query: Record<string, string>) {
    const binding = app.parseCookie(request.headers.cookie ?? '')[BINDING_COOKIE.name];
    try {
      return ok(await finishSso(ctx, query, binding, requester(request)));
    } finally {
      if (query.state && binding === browserBinding(query.state)) {
        reply.clearCookie(BINDING_COOKIE.name, { path: BINDING_COOKIE.path });
      }
    }
  }

  for (const url of ['/gw/api/v1/auth/iaif_login', '/gw/api/v1/auth/uaa_login']) {
    app.get(
      url,
      {
        schema: {
          tags,
          summary: 'Finish a third-party sign-in with the query the provider returned',
          querystring: ZCallbackQuery,
          response: envelopeOf(ZSsoLogin),
        },
      },
      (request, reply) => finish(request, reply, request.query),
    );
  }

  app.post(
    '/gw/api/v1/user/thirdparty/:type/login',
    {
      schema: {
        tags: ['user'],
        summary: 'Finish a third-party sign-in (the callback query as data)',
        params: z.object({ type: ZType }),
        body: z.object({ data: ZCallbackQuery }),
        response: envelopeOf(ZSsoLogin),
      },
    },
    (request, reply) => finish(request, reply, request.body.data),
  );

  app.get(
    PROVIDERS,
    {
      config: { permission: 'sso.manage' },
      schema: { tags: ['system'], summary: 'Identity providers', response: envelopeOf(z.array(ZProvider)) },
    },
    async (request) => ok(await listProviders(ctx, requireAuth(request).customerId)),
  );

  app.post(
    PROVIDERS,
    {
      config: { permission: 'sso.manage' },
      schema: {
        tags: ['system'],
        summary: "Add an OpenID Connect provider for the caller's customer (a super administrator: the public space)",
        body: z.object({
          type: ZType,
          name: z.string().trim().min(1).max(50),
          issuer: z.url(),
          clientId: z.string().min(1).max(200),
          clientSecret: z.string().min(1).max(500),
          scopes: z.string().max(200).default('openid profile email'),
          autoCreate: z.boolean().default(true),
          schoolId: z
            .uuid()
            .nullable()
            .default(null)
            .describe("A school of the caller's customer: accounts created at first sign-in join its roster"),
        }),
        response: envelopeOf(ZProvider),
      },
    },
    async (request) => ok(await addProvider(ctx, requireAuth(request).customerId, request.body)),
  );

  app.delete(
    `${PROVIDERS}/:id`,
    {
      config: { permission: 'sso.manage' },
      schema: {
        tags: ['system'],
        summary: 'Remove a provider',
        params: z.object({ id: z.uuid() }),
        response: envelopeOf(z.null()),
      },
    },
    async (request) => {
      await removeProvider(ctx, requireAuth(request).customerId, request.params.id);
      return ok(null);
    },
  );
};
