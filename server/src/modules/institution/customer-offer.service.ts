import {
  CONTAINER_TYPES,
  QUOTA_FIELDS,
  type ContainerType,
  type QuotaField,
  type TSubCustomerLimits,
} from '@aiedu/contracts';
import { eq, inArray, sql } from 'drizzle-orm';
import type { AppContext } from '../../platform/context.js';
import type { Db } from '../../platform/db/client.js';
import { customers } from '../../platform/db/schema/index.js';
import { AppError } from '../../platform/errors.js';
import { customerSubtree, type Scope } from '../../platform/tenancy.js';

type CustomerRow = typeof customers.$inferSelect;

/** What a customer can hand down to the customers below it: its quotas (null: no limit) and container types. */
export type Offer = TSubCustomerLimits;
type OfferInput = Partial<Pick<CustomerRow, QuotaField | 'containerTypes'>>;

/** The refusal of a quota above the parent's: the quota's own code where it has one, else a bad parameter. */
const QUOTA_ERRORS: Partial<Record<QuotaField, 'QUOTA_SCHOOLS' | 'QUOTA_TEACHERS' | 'QUOTA_STUDENTS'>> = {
  schoolQuota: 'QUOTA_SCHOOLS',
  teacherQuota: 'QUOTA_TEACHERS',
  studentQuota: 'QUOTA_STUDENTS',
};

const isContainerType = (t: string): t is ContainerType => (CONTAINER_TYPES as readonly string[]).includes(t);

/** The tighter of two limits (null: no limit). */
const tighter = (a: number | null, b: number | null) => (a === null ? b : b === null ? a : Math.min(a, b));

/** The ids of a customer and of every customer above it, the customer first and its top-level customer last. */
export async function customerChain(db: Db, customerId: string): Promise<string[]> {
  const result = await db.execute<{ id: string }>(sql`
    with recursive chain(id, parent_id, depth) as (
      select id, parent_id, 0 from customers where id = ${customerId}
      union all
      select c.id, c.parent_id, chain.depth + 1 from customers c join chain on c.id = chain.parent_id
      where chain.depth < 32
    )
    select id from chain order by depth`);
  return (result as unknown as { rows: { id: string }[] }).rows.map((r) => r.id);
}

/**
 * The rows of a customer and of those above it, top-level customer first. With `lock` they are locked in that
 * order, so concurrent changes anywhere in one tree queue on the same rows instead of deadlocking.
 */
export async function chainRows(db: Db, customerId: string, lock = false): Promise<CustomerRow[]> {
  const ids = (await customerChain(db, customerId)).reverse();
  if (!lock) {
    const rows = await db.select().from(customers).where(inArray(customers.id, ids));
    return ids.flatMap((id) => rows.filter((r) => r.id === id));
  }
  const rows: CustomerRow[] = [];
  for (const id of ids) {
    const [row] = await db.select().from(customers).where(eq(customers.id, id)).for('update');
    if (row) rows.push(row);
  }
  return rows;
}

/** What the last customer of a chain really offers: each quota the tightest along it, the container types all share. */
export function offerOf(chain: Pick<CustomerRow, QuotaField | 'containerTypes'>[]): Offer {
  const offer: Offer = {
    schoolQuota: null,
    teacherQuota: null,
    studentQuota: null,
    containerConcurrency: null,
    maxStartsPerPerson: null,
    studyConcurrency: null,
    containerTypes: [...CONTAINER_TYPES],
  };
  for (const row of chain) {
    for (const field of QUOTA_FIELDS) offer[field] = tighter(offer[field], row[field]);
    offer.containerTypes = offer.containerTypes.filter((t) => row.containerTypes.includes(t));
  }
  return offer;
}

/**
 * Refuses quotas or container types beyond what the parent offers: a quota above the parent's, or unlimited while
 * the parent's is limited (5002–5004 for schools, teachers and students, else 1001, naming the field and the
 * parent's limit), and a container type the parent does not offer (3110, naming those it does).
 */
export function assertWithinOffer(offer: Offer, input: OfferInput) {
  for (const field of QUOTA_FIELDS) {
    const limit = offer[field];
    const value = input[field];
    if (value === undefined || limit === null || (value !== null && value <= limit)) continue;
    const code = QUOTA_ERRORS[field];
    if (code) throw new AppError(code, { field, quota: limit });
    throw new AppError('BAD_REQUEST', { field, max: limit });
  }
  if (input.containerTypes?.some((t) => !(offer.containerTypes as string[]).includes(t)))
    throw new AppError('CONTAINER_TYPE_NOT_OFFERED', { offered: offer.containerTypes });
}

/** A new sub-customer's quotas and container types: those asked for, else its parent's; refused beyond them. */
export function inheritOffer<T extends OfferInput>(offer: Offer, input: T): T & Offer {
  const values = { ...offer, ...Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)) };
  assertWithinOffer(offer, values);
  return values as T & Offer;
}

/** Whether a change touches what a customer offers (so the customers below it may have to follow). */
export const touchesOffer = (input: object) =>
  [...QUOTA_FIELDS, 'containerTypes'].some((field) => (input as Record<string, unknown>)[field] !== undefined);

/**
 * Narrows every customer below `customerId` to the customer's new offer: quotas above it come down to it, and
 * container types it no longer offers are taken away, so no sub-customer offers more than the customer above it.
 */
export async function narrowBelow(db: Db, customerId: string, offer: Offer) {
  const below = (await customerSubtree(db, customerId)).filter((id) => id !== customerId);
  if (below.length === 0) return;
  const rows = await db.select().from(customers).where(inArray(customers.id, below));
  for (const row of rows) {
    const patch: OfferInput = {};
    for (const field of QUOTA_FIELDS) {
      const value = tighter(row[field], offer[field]);
      if (value !== row[field]) patch[field] = value;
    }
    const types = row.containerTypes.filter((t) => isContainerType(t) && offer.containerTypes.includes(t));
    if (types.length !== row.containerTypes.length) patch.containerTypes = types;
    if (Object.keys(patch).length > 0) await db.update(customers).set(patch).where(eq(customers.id, row.id));
  }
}

/**
 * What a sub-customer may be given under `parentId` (a customer of the caller's subtree; by default the caller's
 * own customer; super administrators name one).
 */
export async function subCustomerLimits(ctx: AppContext, scope: Scope, parentId: string | undefined): Promise<Offer> {
  let parent: string;
  if (scope.kind === 'all') {
    if (!parentId) throw new AppError('BAD_REQUEST');
    parent = parentId;
  } else if (scope.kind === 'customers') {
    if (parentId && !scope.customerIds.includes(parentId)) throw new AppError('NOT_FOUND');
    parent = parentId ?? scope.customerId;
  } else {
    throw new AppError('NO_PERMISSION_PAGE');
  }
  const chain = await chainRows(ctx.db, parent);
  if (chain.at(-1)?.id !== parent) throw new AppError('NOT_FOUND');
  return offerOf(chain);
}
