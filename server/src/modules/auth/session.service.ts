import { v7 as uuidv7 } from 'uuid';
import { AppError } from '../../platform/errors.js';
import type { SessionRefusal } from '../../platform/auth/session-check.js';
import type { SessionEvents, SessionsEnded } from '../../platform/auth/session-events.js';
import { hashRefreshToken, newRefreshToken, type AccessTokens, type AuthContext } from '../../platform/auth/tokens.js';
import type { AppContext } from '../../platform/context.js';
import type { Db } from '../../platform/db/client.js';
import * as repo from './auth.repository.js';

export interface SessionDeps {
  db: Db;
  tokens: AccessTokens;
  refreshTtlDays: number;
  now: () => Date;
  sessions: SessionEvents;
}

export function sessionDeps(ctx: AppContext): SessionDeps {
  return {
    db: ctx.db,
    tokens: ctx.tokens,
    now: ctx.now,
    refreshTtlDays: ctx.config.refreshTokenTtlDays,
    sessions: ctx.sessions,
  };
}

export interface TokenPair {
  token: string;
  refreshToken: string;
}

export interface Requester {
  ip: string;
  userAgent: string;
}

interface SessionUser {
  id: string;
  customerId: string | null;
  roles: string[];
  mustChangePassword: boolean;
}

function refreshTokenRow(
  deps: SessionDeps,
  userId: string,
  familyId: string,
  refresh: { hash: string },
  requester: Requester,
) {
  const now = deps.now();
  return {
    userId,
    familyId,
    tokenHash: refresh.hash,
    expiresAt: new Date(now.getTime() + deps.refreshTtlDays * 86_400_000),
    ip: requester.ip,
    userAgent: requester.userAgent.slice(0, 300),
    createdAt: now,
  };
}

const accessToken = (deps: SessionDeps, user: SessionUser, familyId: string) =>
  deps.tokens.sign({
    userId: user.id,
    customerId: user.customerId,
    roles: user.roles,
    sessionId: familyId,
    mustChangePassword: user.mustChangePassword,
  });

/**
 * A new sign-in: a new refresh-token family. A password sign-in passes the key its attempt counted under, which
 * the same statement clears (the password was right), and the hash it verified: a password changed while it was
 * being verified is wrong by the time the session would start (WRONG_CREDENTIALS).
 */
export async function startSession(
  deps: SessionDeps,
  user: SessionUser,
  requester: Requester,
  password?: { accountKey: string; verifiedHash: string },
): Promise<TokenPair> {
  const familyId = uuidv7();
  const refresh = newRefreshToken();
  const live = await repo.insertRefreshToken(
    deps.db,
    refreshTokenRow(deps, user.id, familyId, refresh, requester),
    password,
  );
  if (!live) throw new AppError('WRONG_CREDENTIALS');
  return { token: await accessToken(deps, user, familyId), refreshToken: refresh.token };
}

/** Why an ended sign-in of `userId` is refused: E003 while the account, its school or customer is off, else E002. */
async function endedRefusal(db: Db, userId: string): Promise<SessionRefusal> {
  return (await repo.isAccountActive(db, userId)) ? 'SESSION_REPLACED' : 'ACCOUNT_DISABLED';
}

/**
 * Exchanges a refresh token for a new pair (rotation). A token used a second time revokes its whole family (E002);
 * a disabled account, customer or school revokes it too (E003), and a revoked token of such an account answers E003
 * as well.
 */
export async function refreshSession(
  deps: SessionDeps,
  refreshToken: string,
  requester: Requester,
): Promise<TokenPair> {
  const now = deps.now();
  const row = await repo.findRefreshToken(deps.db, hashRefreshToken(refreshToken));
  if (!row || row.expiresAt <= now) throw new AppError('TOKEN_EXPIRED');
  if (row.revokedAt) throw new AppError(await endedRefusal(deps.db, row.userId));
  if (row.replacedAt) {
    await revoke(deps, row.familyId);
    throw new AppError(await endedRefusal(deps.db, row.userId));
  }
  const refresh = newRefreshToken();
  // Under the account's lock (see lockAccount), so that no revocation falls between the mark and the insert.
  const outcome = await deps.db.transaction(async (transaction) => {
    const tx = transaction as unknown as Db;
    const account = await repo.lockAccount(tx, row.userId);
    const marked = await repo.markRefreshTokenReplaced(tx, row.id, now);
    if (!marked || !account?.active) {
      await repo.revokeFamily(tx, row.familyId, now);
      return account?.active ? ('SESSION_REPLACED' as const) : ('ACCOUNT_DISABLED' as const);
    }
    await repo.insertRefreshToken(tx, refreshTokenRow(deps, account.user.id, row.familyId, refresh, requester));
    return account.user;
  });
  if (typeof outcome === 'string') {
    deps.sessions.ended({ sessionId: row.familyId });
    throw new AppError(outcome);
  }
  return { token: await accessToken(deps, outcome, row.familyId), refreshToken: refresh.token };
}

async function revoke(deps: SessionDeps, sessionId: string) {
  await deps.db.transaction(async (transaction) => {
    const tx = transaction as unknown as Db;
    await repo.lockAccountOfFamily(tx, sessionId);
    await repo.revokeFamily(tx, sessionId, deps.now());
  });
  deps.sessions.ended({ sessionId });
}

export async function endSession(deps: SessionDeps, sessionId: string) {
  await revoke(deps, sessionId);
}

/**
 * Why the sign-in of an access token no longer stands, or null while it does, as the token refresh would answer:
 * E003 while the account, its school or a customer above it is switched off, E002 once the sign-in ended (or its
 * account was deleted). The auth guard asks this for the requests that carry a token (platform/auth/session-check.ts).
 */
export async function sessionRefusal(db: Db, auth: AuthContext): Promise<SessionRefusal | null> {
  const standing = await repo.sessionStanding(db, auth.sessionId, auth.userId);
  if (!standing) return 'SESSION_REPLACED';
  if (!standing.active) return 'ACCOUNT_DISABLED';
  return standing.live ? null : 'SESSION_REPLACED';
}

/**
 * Ends, inside the caller's transaction, the sign-ins an administrator's change ends: an account switched off or
 * given a new password, the people of a school or of customers switched off. Answers what to announce
 * (`sessions.ended`) once the transaction has committed.
 */
export async function revokeSessionsOf(tx: Db, of: repo.AccountsOf, at: Date): Promise<SessionsEnded> {
  await repo.revokeSessionsOf(tx, of, at);
  return 'userId' in of ? { userId: of.userId } : { all: true };
}

/** Whether a sign-in still stands (logout, a reused refresh token or a password change end it). */
export function isSessionActive(db: Db, sessionId: string): Promise<boolean> {
  return repo.isFamilyActive(db, sessionId);
}

/** The sessions of `sessionIds` that still stand, in one query. */
export function activeSessions(db: Db, sessionIds: string[]): Promise<Set<string>> {
  return repo.activeFamilies(db, sessionIds);
}
