import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SessionEvents } from '../../platform/auth/session-events.js';
import { hashRefreshToken } from '../../platform/auth/tokens.js';
import type { AppContext } from '../../platform/context.js';
import { refreshTokens, users } from '../../platform/db/schema/index.js';
import { b64, buildCustomer, buildUser } from '../../test/factories.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import * as repo from './auth.repository.js';
import { resetPassword } from './password.service.js';
import { endSession, type SessionDeps } from './session.service.js';

/** Runs once, right after a token rotation has marked the old token replaced; the rotation goes on when it ends. */
const afterMark = vi.hoisted(() => ({ run: undefined as (() => Promise<void>) | undefined }));
/** Runs once, right before a sign-in stores its refresh token (its password verified); the sign-in goes on after. */
const beforeStore = vi.hoisted(() => ({ run: undefined as (() => Promise<void>) | undefined }));

vi.mock('./auth.repository.js', async (importOriginal) => {
  const original = await importOriginal<typeof repo>();
  return {
    ...original,
    markRefreshTokenReplaced: async (...args: Parameters<typeof original.markRefreshTokenReplaced>) => {
      const marked = await original.markRefreshTokenReplaced(...args);
      const run = afterMark.run;
      afterMark.run = undefined;
      await run?.();
      return marked;
    },
    insertRefreshToken: async (...args: Parameters<typeof original.insertRefreshToken>) => {
      const run = beforeStore.run;
      beforeStore.run = undefined;
      await run?.();
      return original.insertRefreshToken(...args);
    },
  };
});

let t: TestApp;
let customerId: string;
let custcode: string;
const sessions = new SessionEvents();

beforeAll(async () => {
  t = await createTestApp();
  const customer = await buildCustomer(t.database.db);
  customerId = customer.id;
  custcode = customer.code;
});
afterAll(() => t.close());

describe('a token rotation and a revocation of the same sign-in', () => {
  const refresh = (refreshToken: string) =>
    t.app.inject({ method: 'GET', url: '/gw/api/v1/auth/token', headers: { 'x-authorization': refreshToken } });
  const revocations = {
    'a logout': (familyId: string) =>
      endSession({ db: t.database.db, now: () => new Date(), sessions } as SessionDeps, familyId),
    'a password reset': (_familyId: string, userId: string) =>
      resetPassword(
        { db: t.database.db, now: () => new Date(), sessions } as AppContext,
        { id: userId, roles: [] },
        'Reset2026ok',
      ),
  };

  it.each(Object.keys(revocations) as (keyof typeof revocations)[])(
    'never leave a live token in a sign-in that %s ended while its token was being rotated',
    async (revocation) => {
      const student = await buildUser(t.database.db, { customerId });
      const pair = (
        await t.app.inject({
          method: 'POST',
          url: '/gw/api/v1/auth/login',
          payload: { custcode, usernameOrEmailOrPhone: student.username, password: b64(student.password) },
        })
      ).json().data;
      const { familyId } = (await repo.findRefreshToken(t.database.db, hashRefreshToken(pair.refreshToken)))!;
      // The revocation starts once the old token is marked replaced, while the rotation still has its new token to
      // store. On PostgreSQL the rotation goes on only once the revocation has finished or waits for a lock, so its
      // statements have begun; the embedded database runs one transaction at a time, in the order they were asked.
      let revoked: Promise<unknown> | undefined;
      afterMark.run = async () => {
        let settled = false;
        revoked = revocations[revocation](familyId, student.id).finally(() => (settled = true));
        if (t.database.kind !== 'postgres') return;
        await vi.waitFor(async () => {
          const waiting = await t.database.db.execute(
            sql`select 1 from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
          );
          expect(settled || (waiting as unknown as { rows: unknown[] }).rows.length > 0).toBe(true);
        });
      };

      const rotated = await refresh(pair.refreshToken);
      expect(rotated.json().errorCode).toBe('1000');
      await revoked;
      expect((await refresh(rotated.json().data.refreshToken)).json().errorCode).toBe('E002');
      expect(await repo.isFamilyActive(t.database.db, familyId)).toBe(false);
    },
  );
});

describe('a password sign-in and a change of the same password', () => {
  const login = (username: string, password: string) =>
    t.app.inject({
      method: 'POST',
      url: '/gw/api/v1/auth/login',
      payload: { custcode, usernameOrEmailOrPhone: username, password: b64(password) },
    });

  it('opens no session with a password that was changed while it was being verified', async () => {
    const student = await buildUser(t.database.db, { customerId });
    beforeStore.run = async () => {
      await resetPassword({ db: t.database.db, now: () => new Date(), sessions } as AppContext, student, 'Reset2026ok');
    };
    const refused = await login(student.username, student.password);
    expect(refused.json().errorCode).toBe('1102');
    expect(await t.database.db.select().from(refreshTokens).where(eq(refreshTokens.userId, student.id))).toEqual([
      expect.objectContaining({ revokedAt: expect.any(Date) }),
    ]);
    expect((await login(student.username, 'Reset2026ok')).json().errorCode).toBe('1000');
  });

  it('stores the token revoked when the change commits while the sign-in waits for the account', async () => {
    const student = await buildUser(t.database.db, { customerId });
    const [account] = await t.database.db.select().from(users).where(eq(users.id, student.id));
    const row = {
      userId: student.id,
      familyId: student.id,
      tokenHash: `hash-${student.id}`,
      expiresAt: new Date(Date.now() + 86_400_000),
      createdAt: new Date(),
    };
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let updated!: () => void;
    const changed = new Promise<void>((resolve) => (updated = resolve));
    // A password change that has written the account's new hash and not yet committed.
    const change = t.database.db.transaction(async (tx) => {
      await tx.update(users).set({ passwordHash: 'changed' }).where(eq(users.id, student.id));
      updated();
      await gate;
    });
    await changed;
    let settled = false;
    const stored = repo
      .insertRefreshToken(t.database.db, row, { accountKey: student.id, verifiedHash: account!.passwordHash })
      .finally(() => (settled = true));
    // On PostgreSQL the sign-in's statement waits for the account's lock; the embedded database runs one
    // transaction at a time, so the statement runs after the change whatever happens here.
    if (t.database.kind === 'postgres') {
      await vi.waitFor(async () => {
        const waiting = await t.database.db.execute(
          sql`select 1 from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
        );
        expect(settled || (waiting as unknown as { rows: unknown[] }).rows.length > 0).toBe(true);
      });
      expect(settled).toBe(false);
    }
    release();
    await change;
    expect(await stored).toBe(false);
    const [token] = await t.database.db.select().from(refreshTokens).where(eq(refreshTokens.tokenHash, row.tokenHash));
    expect(token?.revokedAt).toBeInstanceOf(Date);
  });
});
