import { and, eq, isNull, lte, or } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import { loginAttempts } from '../../platform/db/schema/index.js';

/**
 * Holds the attempts of an account key until `until`, unless a hold is running at `now`: answers whether it was
 * placed (the attempt may be judged). One conditional update, so of attempts sent together only one places it.
 */
export async function holdAttempts(db: Db, accountKey: string, now: Date, until: Date): Promise<boolean> {
  const rows = await db
    .update(loginAttempts)
    .set({ retryAt: until })
    .where(
      and(eq(loginAttempts.accountKey, accountKey), or(isNull(loginAttempts.retryAt), lte(loginAttempts.retryAt, now))),
    )
    .returning({ accountKey: loginAttempts.accountKey });
  return rows.length === 1;
}

/** Lifts the hold an attempt placed that was not judged after all (its captcha failed, the account is off). */
export async function liftHold(db: Db, accountKey: string, until: Date) {
  await db
    .update(loginAttempts)
    .set({ retryAt: null })
    .where(and(eq(loginAttempts.accountKey, accountKey), eq(loginAttempts.retryAt, until)));
}

/** Until when the attempts of an account key are held; undefined when no hold runs at `now`. */
export async function heldUntil(db: Db, accountKey: string, now: Date): Promise<Date | undefined> {
  const [row] = await db
    .select({ retryAt: loginAttempts.retryAt })
    .from(loginAttempts)
    .where(eq(loginAttempts.accountKey, accountKey));
  return row?.retryAt && row.retryAt > now ? row.retryAt : undefined;
}
