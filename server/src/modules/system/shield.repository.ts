import { and, desc, eq } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import { addressRanges } from '../../platform/db/schema/index.js';

export type AddressRange = typeof addressRanges.$inferSelect;

/** A customer's ranges, or every one for a super administrator (`customerId` null). */
function scopeOf(customerId: string | null) {
  return customerId ? eq(addressRanges.customerId, customerId) : undefined;
}

export async function allRanges(db: Db): Promise<string[]> {
  const rows = await db.select({ range: addressRanges.range }).from(addressRanges);
  return rows.map((r) => r.range);
}

export function listRanges(db: Db, customerId: string | null) {
  return db.select().from(addressRanges).where(scopeOf(customerId)).orderBy(desc(addressRanges.createdAt));
}

export async function insertRange(db: Db, values: { customerId: string | null; range: string; note: string }) {
  const [row] = await db.insert(addressRanges).values(values).returning();
  return row!;
}

/** Removes a range within the caller's scope; false when there was none to remove. */
export async function deleteRange(db: Db, id: string, customerId: string | null) {
  const removed = await db
    .delete(addressRanges)
    .where(and(eq(addressRanges.id, id), scopeOf(customerId)))
    .returning({ id: addressRanges.id });
  return removed.length > 0;
}
