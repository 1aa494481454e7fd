import {
  CERT_API,
  CERT_JWKS_PATH,
  ZCertVerification,
  ZCredentialVerification,
  ZVerifyCredentialRequest,
} from '@aiedu/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../platform/context.js';
import { envelopeOf, ok } from '../../platform/envelope.js';
import { AppError } from '../../platform/errors.js';
import { addressKey } from '../../platform/shield.js';
import { jwks } from './badge.js';
import { verifyCredential, verifyNumber } from './user-cert.service.js';

const MINUTE = 60_000;

/**
 * Verifications per client address a minute (`CERT_VERIFY_PER_MINUTE`): with Redis counted by the deployment as a
 * whole, else by each process. Numbers cannot be walked through faster than that.
 */
function verifyLimiter(ctx: AppContext) {
  const recent = new Map<string, number[]>();
  return async (request: FastifyRequest) => {
    const limit = ctx.config.certificates.verifyPerMinute;
    const key = addressKey(request.ip);
    const now = ctx.now().getTime();
    const shared = await ctx.cluster?.hit(`cert-verify:${key}`, now, MINUTE).catch(() => null);
    let count = shared ?? null;
    if (count === null) {
      const times = (recent.get(key) ?? []).filter((t) => now - t < MINUTE);
      times.push(now);
      recent.set(key, times);
      count = times.length;
      if (recent.size > 10_000) {
        for (const [k, t] of recent) if (!t.some((at) => now - at < MINUTE)) recent.delete(k);
      }
    }
    if (count > limit) throw new AppError('TOO_FREQUENT', { retryAfterSeconds: 60 });
  };
}

/** Public, without sign-in: verification by number or credential file, and the platform's signing keys. */
export const verifyRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const tags = ['certificate'];
  const limited = verifyLimiter(ctx);

  app.get(
    CERT_API.verify,
    {
      schema: {
        tags,
        summary: 'Verify a certificate by its number (4401 without one, 4005 unknown; rate-limited per address)',
        querystring: z.object({ number: z.string().max(40).optional() }),
        response: envelopeOf(ZCertVerification),
      },
    },
    async (request) => {
      const number = request.query.number?.trim() ?? '';
      if (!number) throw new AppError('CERT_NUMBER_REQUIRED');
      await limited(request);
      return ok(await verifyNumber(ctx, number));
    },
  );

  app.post(
    CERT_API.verifyCredential,
    {
      schema: {
        tags,
        summary: 'Check an Open Badges 3.0 credential: genuine (its proof holds) and its certificate’s state now',
        body: ZVerifyCredentialRequest,
        response: envelopeOf(ZCredentialVerification),
      },
    },
    async (request) => {
      await limited(request);
      return ok(await verifyCredential(ctx, request.body.credential));
    },
  );

  app.get(
    CERT_JWKS_PATH,
    { schema: { tags, summary: 'The platform’s public keys that sign certificate credentials (JWKS)' } },
    async (_request, reply) =>
      reply
        .type('application/json')
        .header('cache-control', 'public, max-age=3600')
        .send(await jwks(ctx.config)),
  );
};
