import type { AppContext } from '../../platform/context.js';
import { AppError } from '../../platform/errors.js';
import { isValidRange } from '../../platform/shield.js';
import * as repo from './shield.repository.js';

const present = (r: repo.AddressRange) => ({ ...r, createdAt: r.createdAt.toISOString() });

/** Loads the exempt ranges (configuration plus every customer's list) into the shield. */
export async function refreshShieldAllowlist(ctx: AppContext) {
  ctx.shield.setAllowlist([...ctx.config.shieldAllow, ...(await repo.allRanges(ctx.db))]);
}

export async function listRanges(ctx: AppContext, customerId: string | null) {
  return (await repo.listRanges(ctx.db, customerId)).map(present);
}

export async function addRange(ctx: AppContext, customerId: string | null, input: { range: string; note: string }) {
  if (!isValidRange(input.range)) throw new AppError('BAD_REQUEST');
  const row = await repo.insertRange(ctx.db, { ...input, customerId });
  await refreshShieldAllowlist(ctx);
  return present(row);
}

export async function removeRange(ctx: AppContext, customerId: string | null, id: string) {
  if (!(await repo.deleteRange(ctx.db, id, customerId))) throw new AppError('NOT_FOUND');
  await refreshShieldAllowlist(ctx);
}
