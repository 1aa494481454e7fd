import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/auth/auth-guard.js';
import type { AppContext } from '../../platform/context.js';
import { envelopeOf, ok } from '../../platform/envelope.js';
import { addRange, listRanges, refreshShieldAllowlist, removeRange } from './shield.service.js';

const PATH = '/gw/api/v1/sys/shield/ranges';

const ZRange = z.object({
  id: z.string(),
  customerId: z.string().nullable(),
  range: z.string(),
  note: z.string(),
  createdAt: z.string(),
});

/**
 * Administrators list their schools' address ranges so that a school behind one address is never shut out.
 * A customer administrator sees and edits their own customer's list; a super administrator every list.
 */
export const shieldRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const tags = ['system'];
  const timer = setInterval(() => void refreshShieldAllowlist(ctx).catch(() => undefined), 60_000);
  timer.unref();
  app.addHook('onClose', async () => clearInterval(timer));

  app.get(
    PATH,
    {
      config: { permission: 'shield.manage' },
      schema: {
        tags,
        summary: 'Address ranges the request shield never blocks',
        response: envelopeOf(z.array(ZRange)),
      },
    },
    async (request) => ok(await listRanges(ctx, requireAuth(request).customerId)),
  );

  app.post(
    PATH,
    {
      config: { permission: 'shield.manage' },
      schema: {
        tags,
        summary: 'Add an address or CIDR range of a school',
        body: z.object({ range: z.string().trim().min(2).max(50), note: z.string().trim().max(100).default('') }),
        response: envelopeOf(ZRange),
      },
    },
    async (request) => ok(await addRange(ctx, requireAuth(request).customerId, request.body)),
  );

  app.delete(
    `${PATH}/:id`,
    {
      config: { permission: 'shield.manage' },
      schema: { tags, summary: 'Remove a range', params: z.object({ id: z.uuid() }), response: envelopeOf(z.null()) },
    },
    async (request) => {
      await removeRange(ctx, requireAuth(request).customerId, request.params.id);
      return ok(null);
    },
  );
};
