import { ROLES } from '@aiedu/contracts';
import { and, eq, or, sql } from 'drizzle-orm';
import type { AppContext } from '../../platform/context.js';
import { accountSpace, PUBLIC_SPACE, users } from '../../platform/db/schema/index.js';
import { AppError } from '../../platform/errors.js';
import { assertAcceptablePassword } from '../../platform/password-policy.js';
import { hashPassword } from '../../platform/passwords.js';
import { findCustomerByCode, isAccountActive } from '../auth/auth.repository.js';
import { resetPassword, USER_PASSWORD_RULE } from '../auth/password.service.js';
import { sessionDeps, startSession, type Requester } from '../auth/session.service.js';
import { consumeCode, contactKind, type Scene } from './verification.service.js';

/** The customer a code flow happens in: the given customer code, or the public space. */
async function scopeOf(ctx: AppContext, custcode: string): Promise<string | null> {
  if (!custcode) return null;
  const customer = await findCustomerByCode(ctx.db, custcode);
  if (!customer) throw new AppError('CONTACT_INVALID');
  return customer.id;
}

/** The account of a phone or email in a customer or the public space: two probes of their unique indexes. */
async function findByContact(ctx: AppContext, customerId: string | null, contact: string) {
  const [row] = await ctx.db
    .select()
    .from(users)
    .where(
      and(
        sql`${accountSpace} = ${customerId ?? PUBLIC_SPACE}::uuid`,
        or(eq(users.phone, contact), eq(users.email, contact)),
      ),
    )
    .limit(1);
  return row;
}

/** Before a code is sent: sign-up needs a free contact, the other scenes an existing account. */
export async function assertCodeTarget(ctx: AppContext, scene: Scene, target: string, custcode: string) {
  const kind = contactKind(target);
  if (scene === 'BIND') return;
  const existing = await findByContact(ctx, await scopeOf(ctx, scene === 'REGISTER' ? '' : custcode), target);
  if (scene === 'REGISTER' && existing) throw new AppError(kind === 'phone' ? 'PHONE_TAKEN' : 'EMAIL_TAKEN');
  if (scene !== 'REGISTER' && !existing)
    throw new AppError(kind === 'phone' ? 'CONTACT_INVALID' : 'EMAIL_NOT_REGISTERED');
}

/** Sign-up by phone in the public space; the username is the phone number. */
export async function registerByPhone(ctx: AppContext, input: { phone: string; password: string; verifyCode: string }) {
  assertAcceptablePassword(input.password, USER_PASSWORD_RULE);
  // The code first: without it nobody learns whether the phone has an account.
  await consumeCode(ctx, 'REGISTER', input.phone, input.verifyCode);
  if (await findByContact(ctx, null, input.phone)) throw new AppError('PHONE_TAKEN');
  const passwordHash = await hashPassword(input.password);
  const [row] = await ctx.db
    .insert(users)
    .values({ username: input.phone, phone: input.phone, passwordHash, roles: [ROLES.student] })
    .onConflictDoNothing()
    .returning({ id: users.id });
  if (!row) throw new AppError('USERNAME_TAKEN');
  return { id: row.id };
}

export async function loginWithCode(
  ctx: AppContext,
  input: { user: string; verifyCode: string; custcode: string },
  requester: Requester,
) {
  contactKind(input.user);
  const account = await findByContact(ctx, await scopeOf(ctx, input.custcode), input.user);
  await consumeCode(ctx, 'LOGIN', input.user, input.verifyCode);
  if (!account) throw new AppError('VERIFY_CODE_INVALID');
  if (!(await isAccountActive(ctx.db, account.id))) throw new AppError('ACCOUNT_DISABLED');
  const pair = await startSession(sessionDeps(ctx), account, requester);
  return {
    id: account.id,
    roles: account.roles,
    ...pair,
    mustChangePassword: account.mustChangePassword,
    isSuper: false,
  };
}

export async function resetPasswordWithCode(
  ctx: AppContext,
  input: { user: string; password: string; verifyCode: string; custcode: string },
) {
  const kind = contactKind(input.user);
  assertAcceptablePassword(input.password, USER_PASSWORD_RULE);
  const account = await findByContact(ctx, await scopeOf(ctx, input.custcode), input.user);
  await consumeCode(ctx, 'RESET_PWD', input.user, input.verifyCode);
  if (!account) throw new AppError(kind === 'email' ? 'EMAIL_NOT_REGISTERED' : 'RESET_PASSWORD_FAILED');
  await resetPassword(ctx, account.id, input.password);
}

/**
 * Links a phone or email to the caller after proving it with a 'BIND' code; refused when another account has it
 * (said only to a caller who holds a valid code for it).
 */
export async function bindContact(ctx: AppContext, userId: string, input: { target: string; verifyCode: string }) {
  const kind = contactKind(input.target);
  const [me] = await ctx.db.select().from(users).where(eq(users.id, userId));
  if (!me) throw new AppError('TOKEN_EXPIRED');
  await consumeCode(ctx, 'BIND', input.target, input.verifyCode);
  const holder = await findByContact(ctx, me.customerId, input.target);
  if (holder && holder.id !== userId) throw new AppError(kind === 'phone' ? 'PHONE_TAKEN' : 'EMAIL_TAKEN');
  await ctx.db
    .update(users)
    .set(kind === 'phone' ? { phone: input.target } : { email: input.target })
    .where(eq(users.id, userId));
}
