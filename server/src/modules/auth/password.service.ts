import { and, eq, isNull, ne } from 'drizzle-orm';
import type { AppContext } from '../../platform/context.js';
import { refreshTokens, users } from '../../platform/db/schema/index.js';
import { AppError } from '../../platform/errors.js';
import { assertOwnPassword } from '../../platform/password-policy.js';
import { hashPassword, verifyPassword } from '../../platform/passwords.js';
import * as repo from './auth.repository.js';
import { sessionDeps, startSession, type Requester } from './session.service.js';

/**
 * Sets the account's own choice of password and ends its other sign-ins; answers the new hash. The password follows
 * the rule of the account's roles (simple, strong for administrators: `ownPasswordRule`).
 */
async function setPassword(
  ctx: AppContext,
  user: { id: string; roles: string[] },
  plain: string,
  keepSession?: string,
) {
  assertOwnPassword(plain, user.roles);
  const userId = user.id;
  const passwordHash = await hashPassword(plain);
  await ctx.db.transaction(async (tx) => {
    // The account's row first: that takes its lock, so a token rotation under way ends before the tokens below are
    // read, and its new token is revoked with them (see lockAccount).
    await tx.update(users).set({ passwordHash, mustChangePassword: false }).where(eq(users.id, userId));
    // Every other sign-in of this account ends: whoever knew the old password is out.
    await tx
      .update(refreshTokens)
      .set({ revokedAt: ctx.now() })
      .where(
        and(
          eq(refreshTokens.userId, userId),
          isNull(refreshTokens.revokedAt),
          keepSession ? ne(refreshTokens.familyId, keepSession) : undefined,
        ),
      );
  });
  ctx.sessions.ended({ userId, exceptSessionId: keepSession });
  return passwordHash;
}

/**
 * Change with the old password; answers a fresh token pair for this sign-in. Each try counts as a password attempt
 * of the account, like a sign-in: a wrong old password is a sign-in failure of the account and of the address (and
 * for the request shield), and once the account is at its captcha threshold the change is refused until the window
 * passes, so a stolen access token does not give unlimited guesses at the password.
 */
export async function changePassword(
  ctx: AppContext,
  userId: string,
  input: { oldPassword: string; newPassword: string },
  requester: Requester,
) {
  const user = await repo.findUserById(ctx.db, userId);
  if (!user) throw new AppError('TOKEN_EXPIRED');
  // A new password the rule refuses says nothing about the old one: refused before the attempt counts.
  assertOwnPassword(input.newPassword, user.roles);
  const now = ctx.now();
  const since = new Date(now.getTime() - ctx.config.loginFailureWindowMinutes * 60_000);
  // Counted under the account's id, as the sign-ins that name the account are.
  if ((await repo.startAttempt(ctx.db, userId, now, since)) >= ctx.config.captchaAfterAccountFailures) {
    await repo.withdrawAttempt(ctx.db, userId);
    throw new AppError('TOO_MANY_LOGIN_ATTEMPTS');
  }
  if (!(await verifyPassword(user.passwordHash, input.oldPassword))) {
    await repo.recordLoginFailure(ctx.db, userId, requester.ip, now);
    await ctx.shield.record(requester.ip, 'loginFailure');
    throw new AppError('WRONG_CREDENTIALS');
  }
  const verifiedHash = await setPassword(ctx, user, input.newPassword);
  return startSession(sessionDeps(ctx), { ...user, mustChangePassword: false }, requester, {
    accountKey: userId,
    verifiedHash,
  });
}

/** Replaces a password an administrator set, without the old one; only while the change is pending. */
export async function replaceDefaultPassword(
  ctx: AppContext,
  userId: string,
  newPassword: string,
  requester: Requester,
) {
  const user = await repo.findUserById(ctx.db, userId);
  if (!user?.mustChangePassword) throw new AppError('OPERATION_FAILED');
  await setPassword(ctx, user, newPassword);
  return startSession(sessionDeps(ctx), { ...user, mustChangePassword: false }, requester);
}

/** Reset after proving the contact with a code (the code is checked by the caller). */
export async function resetPassword(ctx: AppContext, user: { id: string; roles: string[] }, newPassword: string) {
  await setPassword(ctx, user, newPassword);
}
