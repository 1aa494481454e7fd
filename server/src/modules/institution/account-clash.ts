import { and, eq, ne, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import { accountSpace, PUBLIC_SPACE, users } from '../../platform/db/schema/index.js';
import { AppError } from '../../platform/errors.js';

/**
 * Refuses an account an administrator creates or edits whose username (`1103`) or phone (`1114`) another account of
 * the same customer already holds, naming which one; `exceptId` is the account being edited.
 */
export async function assertAccountFree(
  db: Db,
  customerId: string | null,
  account: { username?: string | undefined; phone?: string | null | undefined },
  exceptId?: string,
) {
  const others = (match: ReturnType<typeof eq>) =>
    db
      .select({ id: users.id })
      .from(users)
      .where(and(match, exceptId ? ne(users.id, exceptId) : undefined))
      .limit(1);
  const space = sql`${accountSpace} = ${customerId ?? PUBLIC_SPACE}::uuid`;
  if (account.username) {
    const customer = customerId ? eq(users.customerId, customerId) : sql`${users.customerId} is null`;
    const [taken] = await others(and(customer, eq(users.username, account.username))!);
    if (taken) throw new AppError('USERNAME_TAKEN');
  }
  if (account.phone) {
    const [taken] = await others(and(space, eq(users.phone, account.phone))!);
    if (taken) throw new AppError('PHONE_TAKEN');
  }
}
