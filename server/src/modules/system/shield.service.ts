import type { AppContext } from '../../platform/context.js';
import { AppError } from '../../platform/errors.js';
import { isExemptableRange, isValidRange, WIDEST_EXEMPT_RANGE } from '../../platform/shield.js';
import * as repo from './shield.repository.js';

const present = (r: repo.AddressRange) => ({ ...r, createdAt: r.createdAt.toISOString() });

/**
 * Loads the exempt ranges (configuration plus every customer's list) into the shield. A listed range wider than
 * administrators may add (one stored before that bound) is left out: it would exempt every customer's visitors.
 */
export async function refreshShieldAllowlist(ctx: AppContext) {
  const listed = (await repo.allRanges(ctx.db)).filter(isExemptableRange);
  ctx.shield.setAllowlist([...ctx.config.shieldAllow, ...listed]);
}

export async function listRanges(ctx: AppContext, customerId: string | null) {
  return (await repo.listRanges(ctx.db, customerId)).map(present);
}

export async function addRange(ctx: AppContext, customerId: string | null, input: { range: string; note: string }) {
  if (!isValidRange(input.range)) throw new AppError('BAD_REQUEST', { reason: 'range' });
  if (!isExemptableRange(input.range)) {
    throw new AppError('BAD_REQUEST', { reason: 'range too wide', widest: WIDEST_EXEMPT_RANGE });
  }
  const row = await repo.insertRange(ctx.db, { ...input, customerId });
  await refreshShieldAllowlist(ctx);
  return present(row);
}

export async function removeRange(ctx: AppContext, customerId: string | null, id: string) {
  if (!(await repo.deleteRange(ctx.db, id, customerId))) throw new AppError('NOT_FOUND');
  await refreshShieldAllowlist(ctx);
}
