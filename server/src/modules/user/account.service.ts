import { ROLES } from '@aiedu/contracts';
import { and, eq, inArray, or, sql } from 'drizzle-orm';
import type { AppContext } from '../../platform/context.js';
import { accountSpace, PUBLIC_SPACE, users } from '../../platform/db/schema/index.js';
import { AppError } from '../../platform/errors.js';
import { assertOwnPassword } from '../../platform/password-policy.js';
import { hashPassword } from '../../platform/passwords.js';
import { findCustomerByCode, findSingleCustomerId, isAccountActive } from '../auth/auth.repository.js';
import { signedIn } from '../auth/login.service.js';
import { isCustomerSingle } from '../system/system-config.service.js';
import { resetPassword } from '../auth/password.service.js';
import { sessionDeps, startSession, type Requester } from '../auth/session.service.js';
import { consumeCode, contactKind, type Scene } from './verification.service.js';

/**
 * The spaces a code flow looks for the account in, in order: the customer of the code, or the public space for an
 * empty code. A one-customer deployment's page sends the one customer's code (or none) while learners who signed up
 * by phone are in the public space: for that code (or none) it is the one customer and then the public space, as
 * for the password sign-in. An unknown code answers as an unknown contact does.
 */
async function spacesOf(ctx: AppContext, custcode: string): Promise<(string | null)[]> {
  const customer = custcode ? await findCustomerByCode(ctx.db, custcode) : undefined;
  if (custcode && !customer) throw new AppError('CONTACT_INVALID');
  if (!(await isCustomerSingle(ctx.db, ctx.config))) return [customer?.id ?? null];
  const single = await findSingleCustomerId(ctx.db);
  if (!customer) return single ? [single, null] : [null];
  return customer.id === single ? [single, null] : [customer.id];
}

/**
 * The account of a phone or email in the first of `spaces` that has one: a probe of the phone and the email index
 * for each space.
 */
async function findByContact(ctx: AppContext, spaces: (string | null)[], contact: string) {
  const [row] = await ctx.db
    .select()
    .from(users)
    .where(
      and(
        inArray(
          accountSpace,
          spaces.map((space) => space ?? PUBLIC_SPACE),
        ),
        or(eq(users.phone, contact), eq(users.email, contact)),
      ),
    )
    .orderBy(sql`${users.customerId} is null`)
    .limit(1);
  return row;
}

/** Before a code is sent: sign-up needs a free contact, the other scenes an existing account. */
export async function assertCodeTarget(ctx: AppContext, scene: Scene, target: string, custcode: string) {
  const kind = contactKind(target);
  if (scene === 'BIND') return;
  // Sign-up always makes a public-space account.
  const spaces = scene === 'REGISTER' ? [null] : await spacesOf(ctx, custcode);
  const existing = await findByContact(ctx, spaces, target);
  if (scene === 'REGISTER' && existing) throw new AppError(kind === 'phone' ? 'PHONE_TAKEN' : 'EMAIL_TAKEN');
  if (scene !== 'REGISTER' && !existing)
    throw new AppError(kind === 'phone' ? 'CONTACT_INVALID' : 'EMAIL_NOT_REGISTERED');
}

/** Sign-up by phone in the public space; the username is the phone number. */
export async function registerByPhone(ctx: AppContext, input: { phone: string; password: string; verifyCode: string }) {
  assertOwnPassword(input.password, [ROLES.student]);
  // The code first: without it nobody learns whether the phone has an account.
  await consumeCode(ctx, 'REGISTER', input.phone, input.verifyCode);
  if (await findByContact(ctx, [null], input.phone)) throw new AppError('PHONE_TAKEN');
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
  const account = await findByContact(ctx, await spacesOf(ctx, input.custcode), input.user);
  await consumeCode(ctx, 'LOGIN', input.user, input.verifyCode);
  if (!account) throw new AppError('VERIFY_CODE_INVALID');
  if (!(await isAccountActive(ctx.db, account.id))) throw new AppError('ACCOUNT_DISABLED');
  return signedIn(account, await startSession(sessionDeps(ctx), account, requester));
}

export async function resetPasswordWithCode(
  ctx: AppContext,
  input: { user: string; password: string; verifyCode: string; custcode: string },
) {
  const kind = contactKind(input.user);
  // Everyone's rule first: a password nobody may choose is refused before the code is used up. An administrator's
  // stronger rule is judged once the code has proven the contact, so the answer tells nobody else whose it is.
  assertOwnPassword(input.password, []);
  const account = await findByContact(ctx, await spacesOf(ctx, input.custcode), input.user);
  await consumeCode(ctx, 'RESET_PWD', input.user, input.verifyCode);
  if (!account) throw new AppError(kind === 'email' ? 'EMAIL_NOT_REGISTERED' : 'RESET_PASSWORD_FAILED');
  await resetPassword(ctx, account, input.password);
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
  const holder = await findByContact(ctx, [me.customerId], input.target);
  if (holder && holder.id !== userId) throw new AppError(kind === 'phone' ? 'PHONE_TAKEN' : 'EMAIL_TAKEN');
  await ctx.db
    .update(users)
    .set(kind === 'phone' ? { phone: input.target } : { email: input.target })
    .where(eq(users.id, userId));
}
