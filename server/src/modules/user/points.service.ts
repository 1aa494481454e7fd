import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import { preparedStatement } from '../../platform/db/prepared.js';
import { pointsLedger } from '../../platform/db/schema/index.js';

/** The caller's balance, asked by the header of every page. */
const balance = preparedStatement((db, name) =>
  db
    .select({ total: sql<string>`coalesce(sum(${pointsLedger.delta}), 0)` })
    .from(pointsLedger)
    .where(eq(pointsLedger.userId, sql.placeholder('userId')))
    .prepare(name),
);

export async function getPointsTotal(db: Db, userId: string): Promise<number> {
  const [row] = await balance(db).execute({ userId });
  return Number(row?.total ?? 0);
}

/** Adds (or with a negative delta, spends) points; later features write here. */
export async function addPoints(db: Db, userId: string, delta: number, reason: string) {
  await db.insert(pointsLedger).values({ userId, delta, reason });
}
