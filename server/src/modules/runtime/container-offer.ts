import { CONTAINER_TYPES, type ContainerType } from '@aiedu/contracts';
import { eq } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import { customers } from '../../platform/db/schema/index.js';
import { AppError } from '../../platform/errors.js';

/**
 * The container types a customer's people may use (spec 3, Customer), in the platform's order. Someone without a
 * customer (a super administrator) may use every type.
 */
export async function offeredContainerTypes(db: Db, customerId: string | null): Promise<ContainerType[]> {
  if (!customerId) return [...CONTAINER_TYPES];
  const [customer] = await db
    .select({ containerTypes: customers.containerTypes })
    .from(customers)
    .where(eq(customers.id, customerId));
  const offered = new Set(customer?.containerTypes ?? CONTAINER_TYPES);
  return CONTAINER_TYPES.filter((type) => offered.has(type));
}

/** Refuses (3110) a container type the customer does not offer, naming the ones it does. */
export async function assertContainerTypeOffered(db: Db, customerId: string | null, type: ContainerType) {
  const offered = await offeredContainerTypes(db, customerId);
  if (!offered.includes(type)) throw new AppError('CONTAINER_TYPE_NOT_OFFERED', { offered });
}
