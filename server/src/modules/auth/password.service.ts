import { and, eq, isNull, ne } from 'drizzle-orm';
import type { AppContext } from '../../platform/context.js';
import { refreshTokens, users } from '../../platform/db/schema/index.js';
import { AppError } from '../../platform/errors.js';
import { assertAcceptablePassword } from '../../platform/password-policy.js';
import { hashPassword, verifyPassword } from '../../platform/passwords.js';
import * as repo from './auth.repository.js';
import { sessionDeps, startSession, type Requester } from './session.service.js';

/** The rule every self-chosen password follows (spec 5, "simple"): 6–20 with lower, upper and digit. */
export const USER_PASSWORD_RULE = 'simple' as const;

async function setPassword(ctx: AppContext, userId: string, plain: string, keepSession?: string) {
  assertAcceptablePassword(plain, USER_PASSWORD_RULE);
  const passwordHash = await hashPassword(plain);
  await ctx.db.transaction(async (tx) => {
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
}

/** Change with the old password; answers a fresh token pair for this sign-in. */
export async function changePassword(
  ctx: AppContext,
  userId: string,
  input: { oldPassword: string; newPassword: string },
  requester: Requester,
) {
  const user = await repo.findUserById(ctx.db, userId);
  if (!user || !(await verifyPassword(user.passwordHash, input.oldPassword))) throw new AppError('WRONG_CREDENTIALS');
  await setPassword(ctx, userId, input.newPassword);
  return startSession(sessionDeps(ctx), { ...user, mustChangePassword: false }, requester);
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
  await setPassword(ctx, userId, newPassword);
  return startSession(sessionDeps(ctx), { ...user, mustChangePassword: false }, requester);
}

/** Reset after proving the contact with a code (the code is checked by the caller). */
export async function resetPassword(ctx: AppContext, userId: string, newPassword: string) {
  await setPassword(ctx, userId, newPassword);
}
