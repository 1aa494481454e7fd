import { and, count, eq, getTableColumns, inArray, isNull, or, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import {
  accountSpace,
  customerCodeIs,
  customers,
  loginAttempts,
  loginFailures,
  PUBLIC_SPACE,
  refreshTokens,
  schools,
  users,
} from '../../platform/db/schema/index.js';

export async function findCustomerByCode(db: Db, code: string) {
  const [row] = await db.select().from(customers).where(customerCodeIs(code));
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
 * Where a password sign-in looks for the account: the customer of the code ('customer'), the public space for an
 * empty code ('public'), or, in a one-customer deployment ('single'), the customer of the code (the one customer
 * for an empty code) and, when that is the one customer, the public space after it, where learners who signed up by
 * phone are.
 */
export type SignInSpace = 'customer' | 'public' | 'single';

/**
 * The one customer of a one-customer deployment, as the sign-in page's setting names it: the first enabled
 * top-level customer made (ids are time-ordered).
 */
const singleCustomer = sql`(select c.id from ${customers} c where c.parent_id is null and c.enabled order by c.id limit 1)`;

/** The one customer's id, or undefined when there is none. */
export async function findSingleCustomerId(db: Db): Promise<string | undefined> {
  const [row] = await db.select({ id: sql<string | null>`${singleCustomer}` }).from(sql`(select 1) one`);
  return row?.id ?? undefined;
}

/**
 * The accounts an identifier names in the spaces of `space`, and the order that picks one of them. Each way of
 * naming an account is compared in the form its unique index holds, so the lookup is a few index probes however
 * many accounts the customer has (emails are stored in lower case, so an email typed in any case is lowered); a
 * customer's account wins over a public one, and within a space a username wins over another account's phone or
 * email.
 */
function accountLookup(space: SignInSpace, custcode: SQLWrapper, identifier: SQLWrapper) {
  const byUsername = sql`${users.username} = ${identifier}`;
  const inCustomer = (customerId: SQL) =>
    or(
      and(sql`${users.customerId} = ${customerId}`, byUsername),
      and(sql`${accountSpace} = ${customerId}`, sql`${users.phone} = ${identifier}`),
      and(sql`${accountSpace} = ${customerId}`, sql`${users.email} = lower(${identifier})`),
    );
  const inPublic = or(
    and(isNull(users.customerId), byUsername),
    and(sql`${accountSpace} = ${PUBLIC_SPACE}::uuid`, sql`${users.phone} = ${identifier}`),
    and(sql`${accountSpace} = ${PUBLIC_SPACE}::uuid`, sql`${users.email} = lower(${identifier})`),
  );
  // The customer of the code, null for an unknown code (so nothing matches).
  const customerOfCode = sql`(select ${customers.id} from ${customers} where ${customerCodeIs(custcode)})`;
  const where =
    space === 'customer'
      ? inCustomer(customerOfCode)
      : space === 'public'
        ? inPublic
        : or(
            inCustomer(sql`(case when ${custcode} = '' then ${singleCustomer} else ${customerOfCode} end)`),
            and(sql`(${custcode} = '' or ${customerOfCode} = ${singleCustomer})`, inPublic),
          );
  return { where, orderBy: [sql`${users.customerId} is null`, sql`${byUsername} desc nulls last`] };
}

/** The account an identifier names (see accountLookup), with whether it may sign in, as a CTE `found`. */
function foundAccount(db: Db, space: SignInSpace, custcode: SQLWrapper, identifier: SQLWrapper) {
  const lookup = accountLookup(space, custcode, identifier);
  return db.$with('found').as(
    db
      .select({ ...getTableColumns(users), active: accountActive.as('active') })
      .from(users)
      .leftJoin(schools, eq(schools.id, users.schoolId))
      .where(lookup.where)
      .orderBy(...lookup.orderBy)
      .limit(1),
  );
}

/**
 * The key a password attempt counts under: the account's id when the identifier names one, so its username, phone
 * and email share one count; else the key of what was typed (`typedKey`, which always holds a line break, as an id
 * never does), so an identifier that names nobody behaves as one that does and reveals nothing.
 */
const attemptKey = (found: ReturnType<typeof foundAccount>, typedKey: SQLWrapper) =>
  sql<string>`coalesce((select ${found.id}::text from ${found}), ${typedKey})`;

/**
 * Counts one more attempt of `accountKey`, in a window that starts again once it is older than `since`; answers the
 * attempts counted with it. The upsert waits for an attempt of the same key being counted at the same moment and
 * reads what it wrote.
 */
function countAttempt(db: Db, accountKey: SQLWrapper | string, now: SQLWrapper | string, since: SQLWrapper | string) {
  const expired = sql`${loginAttempts.windowStart} < ${since}::timestamptz`;
  return db
    .insert(loginAttempts)
    .values({ accountKey: sql`${accountKey}`, attempts: 1, windowStart: sql`${now}::timestamptz` })
    .onConflictDoUpdate({
      target: loginAttempts.accountKey,
      set: {
        attempts: sql`case when ${expired} then 1 else ${loginAttempts.attempts} + 1 end`,
        windowStart: sql`case when ${expired} then excluded.window_start else ${loginAttempts.windowStart} end`,
      },
    })
    .returning({ accountKey: loginAttempts.accountKey, attempts: loginAttempts.attempts });
}

/** The completed failures of an address since `since` (attempts still being judged are not among them). */
const addressFailures = (db: Db, ip: SQLWrapper, since: SQLWrapper) =>
  db.$with('address').as(
    db
      .select({ failures: sql<number>`count(*)::int`.as('failures') })
      .from(loginFailures)
      .where(and(sql`${loginFailures.ip} = ${ip}`, sql`${loginFailures.createdAt} >= ${since}::timestamptz`)),
  );

/**
 * Everything a password sign-in reads and the attempt it starts, as one prepared statement: the account named by
 * username, email or phone (see SignInSpace), with whether it, its customer, every customer above that and its
 * school are switched on; the attempt counted under the account's key with those before it that are still in the
 * window (judged wrong or being judged); and the recent failures of the address. The last two decide whether the
 * slider captcha is due. The account is null when there is none: the counts come back either way.
 */
function prepareLoginState(db: Db, space: SignInSpace) {
  const found = foundAccount(db, space, sql.placeholder('custcode'), sql.placeholder('identifier'));
  const attempt = db
    .$with('attempt')
    .as(
      countAttempt(
        db,
        attemptKey(found, sql.placeholder('typedKey')),
        sql.placeholder('now'),
        sql.placeholder('since'),
      ),
    );
  const address = addressFailures(db, sql.placeholder('ip'), sql.placeholder('since'));
  return db
    .with(found, attempt, address)
    .select()
    .from(attempt)
    .crossJoin(address)
    .leftJoin(found, sql`true`)
    .prepare(`login_state_${space}`);
}

const loginStatements = new WeakMap<Db, Partial<Record<SignInSpace, ReturnType<typeof prepareLoginState>>>>();

/** A database's sign-in statement for a kind of space, prepared on first use. */
export function loginStatement(db: Db, space: SignInSpace) {
  let statements = loginStatements.get(db);
  if (!statements) loginStatements.set(db, (statements = {}));
  return (statements[space] ??= prepareLoginState(db, space));
}

export interface AttemptInput {
  space: SignInSpace;
  custcode: string;
  identifier: string;
  /** The key of what was typed, for an identifier that names no account. */
  typedKey: string;
  ip: string;
  since: Date;
}

/** Starts a password attempt (see prepareLoginState); answers the key it counts under, the counts and the account. */
export async function loginState(db: Db, input: AttemptInput & { now: Date }) {
  const [row] = await loginStatement(db, input.space).execute({
    custcode: input.custcode,
    identifier: input.identifier,
    typedKey: input.typedKey,
    ip: input.ip,
    now: input.now.toISOString(),
    since: input.since.toISOString(),
  });
  const { attempt, address, found } = row!;
  return {
    accountKey: attempt.accountKey,
    failures: { account: attempt.attempts - 1, address: address.failures },
    found: found ? { user: withoutActive(found), active: Boolean(found.active) } : undefined,
  };
}

const withoutActive = <T extends { active: unknown }>({ active: _active, ...user }: T) => user;

/** What the next password attempt of an identifier would count before it, without starting one. */
export async function attemptState(db: Db, input: AttemptInput) {
  const found = foundAccount(db, input.space, sql`${input.custcode}`, sql`${input.identifier}`);
  const since = input.since.toISOString();
  const address = addressFailures(db, sql`${input.ip}`, sql`${since}`);
  const [row] = await db
    .with(found, address)
    .select({
      account: sql<number>`coalesce((select ${loginAttempts.attempts} from ${loginAttempts} where ${loginAttempts.accountKey} = ${attemptKey(found, sql`${input.typedKey}`)} and ${loginAttempts.windowStart} >= ${since}::timestamptz), 0)`,
      address: address.failures,
    })
    .from(address);
  return { account: row?.account ?? 0, address: row?.address ?? 0 };
}

/** Starts an attempt of an account key on its own (the password change); answers the attempts counted before it. */
export async function startAttempt(db: Db, accountKey: string, now: Date, since: Date): Promise<number> {
  const [row] = await countAttempt(db, accountKey, now.toISOString(), since.toISOString());
  return row!.attempts - 1;
}

/** An attempt that was not judged on the password (no captcha, a switched-off account) gives its place back. */
export async function withdrawAttempt(db: Db, accountKey: string) {
  await db
    .update(loginAttempts)
    .set({ attempts: sql`greatest(${loginAttempts.attempts} - 1, 0)` })
    .where(eq(loginAttempts.accountKey, accountKey));
}

/** A wrong password: the attempt stays counted for its account, and the failure counts for the address. */
export async function recordLoginFailure(db: Db, accountKey: string, ip: string, at: Date) {
  await db.insert(loginFailures).values({ accountKey, ip, createdAt: at });
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

/**
 * Stores a new refresh token. A password sign-in passes the key its attempt counted under: its attempts and
 * failures are cleared in the same statement.
 */
/**
 * Stores a sign-in's refresh token. A password sign-in passes the key its attempt counted under, which the same
 * statement clears (the password was right), and the password hash it verified: the token is stored live only while
 * the account still has that hash. The statement takes the account's row lock (see lockAccount), so a password
 * change either commits first, and the token is stored revoked, or waits and then revokes it with the others: a
 * password verified just before it changed does not open a session after the change. Answers whether the token is
 * live.
 */
export async function insertRefreshToken(
  db: Db,
  row: typeof refreshTokens.$inferInsert,
  password?: { accountKey: string; verifiedHash: string },
): Promise<boolean> {
  if (!password) {
    await db.insert(refreshTokens).values(row);
    return true;
  }
  const verified = db.$with('verified_account').as(
    db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.id, row.userId), eq(users.passwordHash, password.verifiedHash)))
      .for('no key update'),
  );
  const attempts = db
    .$with('settled_attempts')
    .as(db.delete(loginAttempts).where(eq(loginAttempts.accountKey, password.accountKey)).returning());
  const failures = db
    .$with('settled_failures')
    .as(db.delete(loginFailures).where(eq(loginFailures.accountKey, password.accountKey)).returning());
  const revokedAt = sql`(select case when exists (select from ${verified}) then null else ${row.createdAt ?? new Date()}::timestamptz end)`;
  const [stored] = await db
    .with(verified, attempts, failures)
    .insert(refreshTokens)
    .values({ ...row, revokedAt })
    .returning({ revokedAt: refreshTokens.revokedAt });
  return stored?.revokedAt === null;
}

export async function findRefreshToken(db: Db, tokenHash: string) {
  const [row] = await db.select().from(refreshTokens).where(eq(refreshTokens.tokenHash, tokenHash));
  return row;
}

/**
 * Takes the account's row lock until the end of the transaction, and answers the account with whether it may sign
 * in. A token rotation takes it before it marks the old token and stores the new one, and every revocation of an
 * account's sign-ins takes it (or updates the account's row, which takes it too) before it marks the tokens: so a
 * revocation either comes first, and the rotation finds its token revoked, or waits for the rotation and then sees
 * the new token too. Without it a rotation could store a live token in a family a logout had just ended.
 */
export async function lockAccount(db: Db, userId: string) {
  const [row] = await db
    .select({ user: users, active: accountActive })
    .from(users)
    .leftJoin(schools, eq(schools.id, users.schoolId))
    .where(eq(users.id, userId))
    .for('no key update', { of: users });
  return row ? { user: row.user, active: Boolean(row.active) } : undefined;
}

/** Takes the row lock of the account a sign-in (refresh-token family) belongs to: see lockAccount. */
export async function lockAccountOfFamily(db: Db, familyId: string) {
  const ofFamily = db
    .select({ userId: refreshTokens.userId })
    .from(refreshTokens)
    .where(eq(refreshTokens.familyId, familyId))
    .limit(1);
  await db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.id, sql`(${ofFamily})`))
    .for('no key update');
}

/** Marks a token replaced; false when it was replaced or revoked before (the caller treats that as a reuse). */
export async function markRefreshTokenReplaced(db: Db, id: string, at: Date): Promise<boolean> {
  const rows = await db
    .update(refreshTokens)
    .set({ replacedAt: at })
    .where(and(eq(refreshTokens.id, id), isNull(refreshTokens.replacedAt), isNull(refreshTokens.revokedAt)))
    .returning({ id: refreshTokens.id });
  return rows.length === 1;
}

/** Revokes every token of a family; run it holding the account's lock (lockAccountOfFamily). */
export async function revokeFamily(db: Db, familyId: string, at: Date) {
  await db
    .update(refreshTokens)
    .set({ revokedAt: at })
    .where(and(eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt)));
}

/**
 * Whether a sign-in (refresh-token family) of `userId` still has a live token, and whether the account, its school
 * and every customer above it are switched on; undefined when the account is gone.
 */
export async function sessionStanding(db: Db, familyId: string, userId: string) {
  const live = sql<boolean>`exists (select 1 from ${refreshTokens} where ${refreshTokens.familyId} = ${familyId}
    and ${refreshTokens.userId} = ${users.id} and ${refreshTokens.revokedAt} is null)`;
  const [row] = await db
    .select({ live, active: accountActive })
    .from(users)
    .leftJoin(schools, eq(schools.id, users.schoolId))
    .where(eq(users.id, userId));
  return row && { live: Boolean(row.live), active: Boolean(row.active) };
}

/** Accounts whose sign-ins an administrator's change ends: one account, a school's people, the people of customers. */
export type AccountsOf = { userId: string } | { schoolId: string } | { customerIds: string[] };

/**
 * Revokes every live token of the accounts of `of`, after taking their row locks in the order of their ids (see
 * lockAccount).
 */
export async function revokeSessionsOf(db: Db, of: AccountsOf, at: Date) {
  const which =
    'userId' in of
      ? eq(users.id, of.userId)
      : 'schoolId' in of
        ? eq(users.schoolId, of.schoolId)
        : inArray(users.customerId, of.customerIds);
  await db.select({ id: users.id }).from(users).where(which).orderBy(users.id).for('no key update');
  await db
    .update(refreshTokens)
    .set({ revokedAt: at })
    .where(
      and(
        inArray(refreshTokens.userId, db.select({ id: users.id }).from(users).where(which)),
        isNull(refreshTokens.revokedAt),
      ),
    );
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
