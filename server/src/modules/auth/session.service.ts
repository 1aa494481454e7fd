import { v7 as uuidv7 } from 'uuid';
import { AppError } from '../../platform/errors.js';
import type { SessionEvents } from '../../platform/auth/session-events.js';
import { hashRefreshToken, newRefreshToken, type AccessTokens } from '../../platform/auth/tokens.js';
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

async function issue(deps: SessionDeps, user: SessionUser, familyId: string, requester: Requester): Promise<TokenPair> {
  const now = deps.now();
  const refresh = newRefreshToken();
  await repo.insertRefreshToken(deps.db, {
    userId: user.id,
    familyId,
    tokenHash: refresh.hash,
    expiresAt: new Date(now.getTime() + deps.refreshTtlDays * 86_400_000),
    ip: requester.ip,
    userAgent: requester.userAgent.slice(0, 300),
    createdAt: now,
  });
  const token = await deps.tokens.sign({
    userId: user.id,
    customerId: user.customerId,
    roles: user.roles,
    sessionId: familyId,
    mustChangePassword: user.mustChangePassword,
  });
  return { token, refreshToken: refresh.token };
}

/** A new sign-in: a new refresh-token family. */
export function startSession(deps: SessionDeps, user: SessionUser, requester: Requester): Promise<TokenPair> {
  return issue(deps, user, uuidv7(), requester);
}

/**
 * Exchanges a refresh token for a new pair (rotation). A token used a second time revokes its whole family (E002);
 * a disabled account, customer or school revokes it too (E003).
 */
export async function refreshSession(
  deps: SessionDeps,
  refreshToken: string,
  requester: Requester,
): Promise<TokenPair> {
  const now = deps.now();
  const row = await repo.findRefreshToken(deps.db, hashRefreshToken(refreshToken));
  if (!row || row.expiresAt <= now) throw new AppError('TOKEN_EXPIRED');
  if (row.revokedAt) throw new AppError('SESSION_REPLACED');
  if (row.replacedAt || !(await repo.markRefreshTokenReplaced(deps.db, row.id, now))) {
    await revoke(deps, row.familyId);
    throw new AppError('SESSION_REPLACED');
  }
  const user = await repo.findUserById(deps.db, row.userId);
  if (!user || !(await repo.isAccountActive(deps.db, user.id))) {
    await revoke(deps, row.familyId);
    throw new AppError('ACCOUNT_DISABLED');
  }
  return issue(deps, user, row.familyId, requester);
}

async function revoke(deps: SessionDeps, sessionId: string) {
  await repo.revokeFamily(deps.db, sessionId, deps.now());
  deps.sessions.ended({ sessionId });
}

export async function endSession(deps: SessionDeps, sessionId: string) {
  await revoke(deps, sessionId);
}

/** Whether a sign-in still stands (logout, a reused refresh token or a password change end it). */
export function isSessionActive(db: Db, sessionId: string): Promise<boolean> {
  return repo.isFamilyActive(db, sessionId);
}

/** The sessions of `sessionIds` that still stand, in one query. */
export function activeSessions(db: Db, sessionIds: string[]): Promise<Set<string>> {
  return repo.activeFamilies(db, sessionIds);
}
