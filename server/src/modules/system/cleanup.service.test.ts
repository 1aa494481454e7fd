import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.js';
import type { Database } from '../../platform/db/client.js';
import {
  captchas,
  loginAttempts,
  loginFailures,
  outbox,
  refreshTokens,
  ssoProviders,
  ssoStates,
  users,
  verificationCodes,
} from '../../platform/db/schema/index.js';
import { createTestDatabase } from '../../test/test-db.js';
import { deleteStaleSignInRecords } from './cleanup.service.js';

const HOUR = 3_600_000;
const now = new Date('2026-11-22T09:00:00+08:00');
const ago = (ms: number) => new Date(now.getTime() - ms);

describe('deleting stale sign-in records', () => {
  let database: Database;

  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.close());

  it('deletes the rows well past every window that reads them, and keeps the recent ones', async () => {
    const { db } = database;
    await db.insert(captchas).values([
      { answerX: 1, expiresAt: ago(25 * HOUR), createdAt: ago(25 * HOUR) },
      { answerX: 2, expiresAt: ago(23 * HOUR), createdAt: ago(23 * HOUR) },
    ]);
    const [provider] = await db
      .insert(ssoProviders)
      .values({ type: 'school', name: 'School', issuer: 'https://id.school', clientId: 'c', clientSecret: 's' })
      .returning();
    const state = (name: string, expiresAt: Date) => ({
      state: name,
      providerId: provider!.id,
      nonce: 'n',
      codeVerifier: 'v',
      redirectUri: 'https://ai.school/cb',
      expiresAt,
    });
    await db.insert(ssoStates).values([state('old', ago(25 * HOUR)), state('recent', ago(HOUR))]);
    await db.insert(loginFailures).values([
      { accountKey: 'old', ip: '192.0.2.1', createdAt: ago(25 * HOUR) },
      { accountKey: 'recent', ip: '192.0.2.1', createdAt: ago(23 * HOUR) },
    ]);
    await db.insert(loginAttempts).values([
      { accountKey: 'old', attempts: 2, windowStart: ago(25 * HOUR) },
      { accountKey: 'recent', attempts: 1, windowStart: ago(23 * HOUR) },
    ]);
    const code = (target: string, createdAt: Date) => ({
      scene: 'LOGIN' as const,
      target,
      codeHash: 'h',
      expiresAt: new Date(createdAt.getTime() + 600_000),
      createdAt,
    });
    // The per-target limit counts the last 24 hours: a code of 30 hours ago is kept, one of 49 hours ago is not.
    await db.insert(verificationCodes).values([code('old', ago(49 * HOUR)), code('recent', ago(30 * HOUR))]);

    const [user] = await db.insert(users).values({ username: 'pupil', passwordHash: 'x' }).returning();
    // A token that expired 25 hours ago goes; one that expired an hour ago stays, revoked or replaced or not.
    const token = (tokenHash: string, expiresAt: Date, more: object = {}) => ({
      userId: user!.id,
      familyId: user!.id,
      tokenHash,
      expiresAt,
      ...more,
    });
    await db
      .insert(refreshTokens)
      .values([
        token('expired', ago(25 * HOUR)),
        token('expired-revoked', ago(25 * HOUR), { revokedAt: ago(40 * 24 * HOUR) }),
        token('replaced-recently-expired', ago(HOUR), { replacedAt: ago(30 * 24 * HOUR) }),
        token('live', new Date(now.getTime() + 24 * HOUR)),
      ]);

    const message = (target: string, createdAt: Date) => ({
      channel: 'sms' as const,
      target,
      body: 'code',
      deliveredBy: 'outbox',
      createdAt,
    });
    await db.insert(outbox).values([message('old', ago(31 * 24 * HOUR)), message('recent', ago(29 * 24 * HOUR))]);

    await deleteStaleSignInRecords({ db, now: () => now, config: loadConfig({}) });

    expect((await db.select().from(captchas)).map((r) => r.answerX)).toEqual([2]);
    expect((await db.select().from(ssoStates)).map((r) => r.state)).toEqual(['recent']);
    expect((await db.select().from(loginFailures)).map((r) => r.accountKey)).toEqual(['recent']);
    expect((await db.select().from(loginAttempts)).map((r) => r.accountKey)).toEqual(['recent']);
    expect((await db.select().from(verificationCodes)).map((r) => r.target)).toEqual(['recent']);
    expect((await db.select().from(refreshTokens)).map((r) => r.tokenHash).sort()).toEqual([
      'live',
      'replaced-recently-expired',
    ]);
    expect((await db.select().from(outbox)).map((r) => r.target)).toEqual(['recent']);
  });

  it('keeps failed sign-ins for a captcha window longer than a day', async () => {
    const { db } = database;
    await db.delete(loginFailures);
    await db.insert(loginFailures).values({ accountKey: 'long', ip: '192.0.2.2', createdAt: ago(30 * HOUR) });
    const config = loadConfig({ LOGIN_FAILURE_WINDOW_MINUTES: String(20 * 60) });
    await deleteStaleSignInRecords({ db, now: () => now, config });
    expect(await db.select().from(loginFailures)).toHaveLength(1);
  });
});
