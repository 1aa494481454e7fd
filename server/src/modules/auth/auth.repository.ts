import { and, count, eq, gte, inArray, isNull, or, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import { customers, loginFailures, refreshTokens, schools, users } from '../../platform/db/schema/index.js';

export async function findCustomerByCode(db: Db, code: string) {
  const [row] = await db.select().from(customers).where(eq(customers.code, code));
  return row;
}

/**
 * The account a sign-in names by username, email or phone, within the customer of that code (or the public space
 * for an empty code), with whether it, its customer and its school are switched on: one query per sign-in.
 */
export async function findUserForLogin(db: Db, custcode: string, identifier: string) {
  const scope = custcode ? eq(customers.code, custcode) : isNull(users.customerId);
  const [row] = await db
    .select({
      user: users,
      active: sql<boolean>`${users.enabled} and coalesce(${customers.enabled}, true) and coalesce(${schools.enabled}, true)`,
    })
    .from(users)
    .leftJoin(customers, eq(customers.id, users.customerId))
    .leftJoin(schools, eq(schools.id, users.schoolId))
    .where(and(scope, or(eq(users.username, identifier), eq(users.email, identifier), eq(users.phone, identifier))))
    .limit(1);
  return row;
}

export async function findUserById(db: Db, userId: string) {
  const [row] = await db.select().from(users).where(eq(users.id, userId));
  return row;
}

/** Whether the user, their customer (and its parents' switch) and their school are all switched on. */
export async function isAccountActive(db: Db, userId: string): Promise<boolean> {
  const [row] = await db
    .select({
      enabled: users.enabled,
      customerEnabled: sql<boolean>`coalesce(${customers.enabled}, true)`,
      schoolEnabled: sql<boolean>`coalesce(${schools.enabled}, true)`,
    })
    .from(users)
    .leftJoin(customers, eq(customers.id, users.customerId))
    .leftJoin(schools, eq(schools.id, users.schoolId))
    .where(eq(users.id, userId));
  return Boolean(row && row.enabled && row.customerEnabled && row.schoolEnabled);
}

export async function countLoginFailures(db: Db, accountKey: string, ip: string, since: Date) {
  const [row] = await db
    .select({
      account: sql<number>`count(*) filter (where ${loginFailures.accountKey} = ${accountKey})`.mapWith(Number),
      address: sql<number>`count(*) filter (where ${loginFailures.ip} = ${ip})`.mapWith(Number),
    })
    .from(loginFailures)
    .where(
      and(gte(loginFailures.createdAt, since), or(eq(loginFailures.accountKey, accountKey), eq(loginFailures.ip, ip))),
    );
  return { account: row?.account ?? 0, address: row?.address ?? 0 };
}

export async function recordLoginFailure(db: Db, accountKey: string, ip: string, at: Date) {
  await db.insert(loginFailures).values({ accountKey, ip, createdAt: at });
}

export async function clearLoginFailures(db: Db, accountKey: string) {
  await db.delete(loginFailures).where(eq(loginFailures.accountKey, accountKey));
}

export async function insertRefreshToken(db: Db, row: typeof refreshTokens.$inferInsert) {
  await db.insert(refreshTokens).values(row);
}

export async function findRefreshToken(db: Db, tokenHash: string) {
  const [row] = await db.select().from(refreshTokens).where(eq(refreshTokens.tokenHash, tokenHash));
  return row;
}

/** Marks a token replaced; false when another request replaced it first (the loser is treated as a reuse). */
export async function markRefreshTokenReplaced(db: Db, id: string, at: Date): Promise<boolean> {
  const rows = await db
    .update(refreshTokens)
    .set({ replacedAt: at })
    .where(and(eq(refreshTokens.id, id), isNull(refreshTokens.replacedAt), isNull(refreshTokens.revokedAt)))
    .returning({ id: refreshTokens.id });
  return rows.length === 1;
}

export async function revokeFamily(db: Db, familyId: string, at: Date) {
  await db
    .update(refreshTokens)
    .set({ revokedAt: at })
    .where(and(eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt)));
}

export async function isFamilyActive(db: Db, familyId: string): Promise<boolean> {
  const [row] = await db
    .select({ n: count() })
    .from(refreshTokens)
    .where(and(eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt)));
  return (row?.n ?? 0) > 0;
}

export async function activeFamilies(db: Db, familyIds: string[]): Promise<Set<string>> {
  if (familyIds.length === 0) return new Set();
  const rows = await db
    .selectDistinct({ familyId: refreshTokens.familyId })
    .from(refreshTokens)
    .where(and(inArray(refreshTokens.familyId, familyIds), isNull(refreshTokens.revokedAt)));
  return new Set(rows.map((r) => r.familyId));
}

export async function findCustomerById(db: Db, id: string) {
  const [row] = await db.select().from(customers).where(eq(customers.id, id));
  return row;
}
