import { and, count, eq, gte, inArray, isNull, or, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import {
  accountSpace,
  customers,
  loginFailures,
  PUBLIC_SPACE,
  refreshTokens,
  schools,
  users,
} from '../../platform/db/schema/index.js';

export async function findCustomerByCode(db: Db, code: string) {
  const [row] = await db.select().from(customers).where(eq(customers.code, code));
  return row;
}

/**
 * Whether the user's customer and every customer above it are switched on (true in the public space): switching a
 * customer off stops the people of its sub-customers too. One walk up the parent links, each step a probe of the
 * primary key; `union` (not `union all`) ends the walk should the links ever form a loop.
 */
const customersSwitchedOn = sql<boolean>`not exists (
  with recursive line(id, parent_id, enabled) as (
    select c.id, c.parent_id, c.enabled from ${customers} c where c.id = ${users.customerId}
    union
    select c.id, c.parent_id, c.enabled from ${customers} c join line on c.id = line.parent_id
  )
  select 1 from line where not line.enabled
)`;

/** Whether the user, every customer above them and their school are switched on. */
const accountActive = sql<boolean>`${users.enabled} and ${customersSwitchedOn} and coalesce(${schools.enabled}, true)`;

/**
 * Everything a password sign-in reads, as one prepared statement: the recent failures of the account key and of the
 * address (which decide whether the slider captcha is due), and the account named by username, email or phone
 * within the customer of the code (or the public space for an empty code), with whether it, its customer, every
 * customer above that and its school are switched on. The account is null when there is none: the failures come
 * back either way.
 */
function prepareLoginState(db: Db, space: 'customer' | 'public') {
  const accountKey = sql.placeholder('accountKey');
  const ip = sql.placeholder('ip');
  const identifier = sql.placeholder('identifier');
  const failures = db
    .select({
      account: sql<number>`count(*) filter (where ${loginFailures.accountKey} = ${accountKey})::int`.as('account'),
      address: sql<number>`count(*) filter (where ${loginFailures.ip} = ${ip})::int`.as('address'),
    })
    .from(loginFailures)
    .where(
      and(
        sql`${loginFailures.createdAt} >= ${sql.placeholder('since')}::timestamptz`,
        or(sql`${loginFailures.accountKey} = ${accountKey}`, sql`${loginFailures.ip} = ${ip}`),
      ),
    )
    .as('failures');
  // The customer of the code (null for an unknown code, so nothing matches), or the public space. Each way of naming
  // an account is compared in the form its unique index holds, so the lookup is three index probes however many
  // accounts the customer has; a username wins over another account's phone or email.
  const customerOfCode = sql`(select ${customers.id} from ${customers} where ${customers.code} = ${sql.placeholder('custcode')})`;
  const inSpace = space === 'customer' ? sql`${users.customerId} = ${customerOfCode}` : isNull(users.customerId);
  const spaceId = space === 'customer' ? customerOfCode : sql`${PUBLIC_SPACE}::uuid`;
  const byUsername = sql`${users.username} = ${identifier}`;
  return db
    .select({
      accountFailures: failures.account,
      addressFailures: failures.address,
      user: users,
      active: accountActive,
    })
    .from(failures)
    .leftJoin(
      users,
      or(
        and(inSpace, byUsername),
        and(sql`${accountSpace} = ${spaceId}`, sql`${users.phone} = ${identifier}`),
        and(sql`${accountSpace} = ${spaceId}`, sql`${users.email} = ${identifier}`),
      ),
    )
    .leftJoin(schools, eq(schools.id, users.schoolId))
    .orderBy(sql`${byUsername} desc nulls last`)
    .limit(1)
    .prepare(`login_state_${space}`);
}

const loginStatements = new WeakMap<Db, Record<'customer' | 'public', ReturnType<typeof prepareLoginState>>>();

/** A database's sign-in statement for the customers' spaces or for the public space, prepared on first use. */
export function loginStatement(db: Db, space: 'customer' | 'public') {
  let statements = loginStatements.get(db);
  if (!statements) {
    statements = { customer: prepareLoginState(db, 'customer'), public: prepareLoginState(db, 'public') };
    loginStatements.set(db, statements);
  }
  return statements[space];
}

export async function loginState(
  db: Db,
  input: { custcode: string; identifier: string; accountKey: string; ip: string; since: Date },
) {
  const [row] = await loginStatement(db, input.custcode ? 'customer' : 'public').execute({
    custcode: input.custcode,
    identifier: input.identifier,
    accountKey: input.accountKey,
    ip: input.ip,
    since: input.since.toISOString(),
  });
  return {
    failures: { account: row?.accountFailures ?? 0, address: row?.addressFailures ?? 0 },
    found: row?.user ? { user: row.user, active: Boolean(row.active) } : undefined,
  };
}

export async function findUserById(db: Db, userId: string) {
  const [row] = await db.select().from(users).where(eq(users.id, userId));
  return row;
}

/** Whether the user, their customer, every customer above it and their school are all switched on. */
export async function isAccountActive(db: Db, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ active: accountActive })
    .from(users)
    .leftJoin(schools, eq(schools.id, users.schoolId))
    .where(eq(users.id, userId));
  return Boolean(row?.active);
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
