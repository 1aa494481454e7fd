import { and, eq, isNull, lt } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import { schools, ssoProviders, ssoStates, students, userIdentities, users } from '../../platform/db/schema/index.js';

export type Provider = typeof ssoProviders.$inferSelect;
export type NewProvider = Omit<typeof ssoProviders.$inferInsert, 'id'>;
export type NewSsoState = typeof ssoStates.$inferInsert;

/** A customer's providers, or every one for a super administrator (`customerId` null). */
function providerScope(customerId: string | null) {
  return customerId ? eq(ssoProviders.customerId, customerId) : undefined;
}

export function listProviders(db: Db, customerId: string | null) {
  return db.select().from(ssoProviders).where(providerScope(customerId));
}

export async function insertProvider(db: Db, values: NewProvider) {
  const [row] = await db.insert(ssoProviders).values(values).returning();
  return row!;
}

/** Removes a provider within the caller's scope; false when there was none to remove. */
export async function deleteProvider(db: Db, id: string, customerId: string | null) {
  const removed = await db
    .delete(ssoProviders)
    .where(and(eq(ssoProviders.id, id), providerScope(customerId)))
    .returning({ id: ssoProviders.id });
  return removed.length > 0;
}

/** The enabled provider of a type for a customer, or of the public space (`customerId` null). */
export async function findEnabledProvider(db: Db, customerId: string | null, type: string) {
  const scope = customerId ? eq(ssoProviders.customerId, customerId) : isNull(ssoProviders.customerId);
  const [row] = await db
    .select()
    .from(ssoProviders)
    .where(and(scope, eq(ssoProviders.type, type), eq(ssoProviders.enabled, true)));
  return row;
}

export async function findProviderById(db: Db, id: string) {
  const [row] = await db.select().from(ssoProviders).where(eq(ssoProviders.id, id));
  return row;
}

/** Stores a pending sign-in, dropping the ones that expired. */
export async function insertState(db: Db, values: NewSsoState, now: Date) {
  await db.delete(ssoStates).where(lt(ssoStates.expiresAt, now));
  await db.insert(ssoStates).values(values);
}

/** Takes a pending sign-in: it can be used once. */
export async function takeState(db: Db, state: string) {
  const [row] = await db.delete(ssoStates).where(eq(ssoStates.state, state)).returning();
  return row;
}

export async function findLinkedUserId(db: Db, providerId: string, subject: string) {
  const [link] = await db
    .select({ userId: userIdentities.userId })
    .from(userIdentities)
    .where(and(eq(userIdentities.providerId, providerId), eq(userIdentities.subject, subject)));
  return link?.userId;
}

/**
 * Creates an account linked to the provider's subject, trying the usernames in order until one is free;
 * undefined when none was. Run it in a transaction: the account and its link come together or not at all.
 */
export async function createLinkedUser(
  tx: Db,
  account: Omit<typeof users.$inferInsert, 'username'>,
  usernames: string[],
  link: { providerId: string; subject: string },
) {
  for (const username of usernames) {
    const [user] = await tx
      .insert(users)
      .values({ ...account, username })
      .onConflictDoNothing()
      .returning();
    if (user) {
      await tx.insert(userIdentities).values({ userId: user.id, ...link });
      return user;
    }
  }
  return undefined;
}

/** Whether the school belongs to the customer itself (not to a customer below it). */
export async function isSchoolOf(db: Db, schoolId: string, customerId: string) {
  const [row] = await db
    .select({ id: schools.id })
    .from(schools)
    .where(and(eq(schools.id, schoolId), eq(schools.customerId, customerId)));
  return Boolean(row);
}

/** Puts a new account on its school's roster, as a student with no class yet. */
export async function addToRoster(db: Db, student: { userId: string; customerId: string; schoolId: string }) {
  await db.insert(students).values(student);
}
