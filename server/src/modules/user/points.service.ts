import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import { pointsLedger } from '../../platform/db/schema/index.js';

export async function getPointsTotal(db: Db, userId: string): Promise<number> {
  const [row] = await db
    .select({ total: sql<string>`coalesce(sum(${pointsLedger.delta}), 0)` })
    .from(pointsLedger)
    .where(eq(pointsLedger.userId, userId));
  return Number(row?.total ?? 0);
}

/** Adds (or with a negative delta, spends) points; later features write here. */
export async function addPoints(db: Db, userId: string, delta: number, reason: string) {
  await db.insert(pointsLedger).values({ userId, delta, reason });
}
