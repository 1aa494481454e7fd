import { and, desc, eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/auth/auth-guard.js';
import type { AppContext } from '../../platform/context.js';
import { addressRanges } from '../../platform/db/schema/index.js';
import { envelopeOf, ok } from '../../platform/envelope.js';
import { AppError } from '../../platform/errors.js';
import { isValidRange } from '../../platform/shield.js';

const PATH = '/gw/api/v1/sys/shield/ranges';

const ZRange = z.object({
  id: z.string(),
  customerId: z.string().nullable(),
  range: z.string(),
  note: z.string(),
  createdAt: z.string(),
});

/** Loads the exempt ranges (configuration plus every customer's list) into the shield. */
export async function refreshShieldAllowlist(ctx: AppContext) {
  const rows = await ctx.db.select({ range: addressRanges.range }).from(addressRanges);
  ctx.shield.setAllowlist([...ctx.config.shieldAllow, ...rows.map((r) => r.range)]);
}

/**
 * Administrators list their schools' address ranges so that a school behind one address is never shut out.
 * A customer administrator sees and edits their own customer's list; a super administrator every list.
 */
export const shieldRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const tags = ['system'];
  const timer = setInterval(() => void refreshShieldAllowlist(ctx).catch(() => undefined), 60_000);
  timer.unref();
  app.addHook('onClose', async () => clearInterval(timer));

  const scopeOf = (customerId: string | null) => (customerId ? eq(addressRanges.customerId, customerId) : undefined);
  const present = (r: typeof addressRanges.$inferSelect) => ({ ...r, createdAt: r.createdAt.toISOString() });

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
    async (request) => {
      const rows = await ctx.db
        .select()
        .from(addressRanges)
        .where(scopeOf(requireAuth(request).customerId))
        .orderBy(desc(addressRanges.createdAt));
      return ok(rows.map(present));
    },
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
    async (request) => {
      if (!isValidRange(request.body.range)) throw new AppError('BAD_REQUEST');
      const [row] = await ctx.db
        .insert(addressRanges)
        .values({ ...request.body, customerId: requireAuth(request).customerId })
        .returning();
      await refreshShieldAllowlist(ctx);
      return ok(present(row!));
    },
  );

  app.delete(
    `${PATH}/:id`,
    {
      config: { permission: 'shield.manage' },
      schema: { tags, summary: 'Remove a range', params: z.object({ id: z.uuid() }), response: envelopeOf(z.null()) },
    },
    async (request) => {
      const scope = scopeOf(requireAuth(request).customerId);
      const removed = await ctx.db
        .delete(addressRanges)
        .where(and(eq(addressRanges.id, request.params.id), scope))
        .returning({ id: addressRanges.id });
      if (removed.length === 0) throw new AppError('NOT_FOUND');
      await refreshShieldAllowlist(ctx);
      return ok(null);
    },
  );
};
