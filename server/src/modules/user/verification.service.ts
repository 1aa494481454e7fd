import { createHash, randomInt } from 'node:crypto';
import { isContact, PHONE, type Language } from '@aiedu/contracts';
import { and, count, desc, eq, gt, gte, isNull, lt, ne, sql } from 'drizzle-orm';
import type { AppContext } from '../../platform/context.js';
import type { Db } from '../../platform/db/client.js';
import { verificationCodes } from '../../platform/db/schema/index.js';
import { AppError } from '../../platform/errors.js';
import { deliver, type Messenger } from '../../platform/messaging/messenger.js';
import { codeMessage } from './verification.messages.js';

export type Scene = (typeof verificationCodes.$inferSelect)['scene'];

export const CODE_RULES = { ttlMs: 10 * 60_000, resendMs: 60_000, maxAttempts: 5 } as const;

export type ContactKind = 'phone' | 'email';

/**
 * Which kind of contact a target is, by its pattern; refuses anything that is neither. The routes read contacts as
 * `ZContact` does (an email in lower case), the form emails are stored and compared in.
 */
export function contactKind(target: string): ContactKind {
  if (!isContact(target)) throw new AppError('CONTACT_INVALID');
  return PHONE.test(target) ? 'phone' : 'email';
}

const hashCode = (id: string, code: string) => createHash('sha256').update(`${id}:${code}`).digest('base64url');

/**
 * What a request stores instead of a code hash while it is not (or never becomes) a code: no code matches it, it
 * counts toward its address's limit and not toward its target's.
 */
const REFUSED_REQUEST = 'refused';

/** Namespaces of the transaction locks that make each limit's count and the row it adds one step. */
const LOCKS = { address: 706_120_261, target: 706_120_262 } as const;

/**
 * Holds the lock of one address or target until the transaction ends: requests for the same one wait for each
 * other, so each counts the rows of those before it. (On the embedded database a transaction runs alone anyway.)
 */
async function lockFor(tx: Pick<Db, 'execute'>, kind: keyof typeof LOCKS, key: string) {
  await tx.execute(sql`select pg_advisory_xact_lock(${LOCKS[kind]}::int4, hashtext(${key}))`);
}

/**
 * Sends a six-digit code for one scene and target, within the per-target and per-address limits. `assertTarget`
 * (whether the target may get a code: a free contact for sign-up, an existing account otherwise) runs only once the
 * request has been counted by the request shield and has passed its address's hourly limit, and a request it refuses
 * still counts toward that limit: answers about which phones and emails exist cannot be drawn without bound.
 * Each limit is counted and its row written under a lock of the address or target, so requests sent in parallel
 * never pass it together; the message goes out after both, holding no lock.
 */
export async function sendCode(
  ctx: AppContext,
  messengers: Messenger[],
  input: { scene: Scene; target: string; ip: string; language: Language },
  assertTarget?: () => Promise<void>,
) {
  const kind = contactKind(input.target);
  await ctx.shield.record(input.ip, 'codeRequest');
  const now = ctx.now();
  const { db, config } = ctx;
  // The request takes its place in its address's hour as a refused one; it becomes a code once its target passes.
  const requestId = await db.transaction(async (tx) => {
    await lockFor(tx, 'address', input.ip);
    const [perAddress] = await tx
      .select({ n: count() })
      .from(verificationCodes)
      .where(
        and(eq(verificationCodes.ip, input.ip), gte(verificationCodes.createdAt, new Date(now.getTime() - 3_600_000))),
      );
    if ((perAddress?.n ?? 0) >= config.codesPerAddressPerHour) throw new AppError('TOO_FREQUENT');
    const [row] = await tx
      .insert(verificationCodes)
      .values({
        scene: input.scene,
        target: input.target,
        codeHash: REFUSED_REQUEST,
        ip: input.ip,
        expiresAt: now,
        usedAt: now,
        createdAt: now,
      })
      .returning({ id: verificationCodes.id });
    return row!.id;
  });
  // Between the transactions: it reads accounts through `ctx.db`, which on the embedded database waits for any open
  // transaction. A refusal leaves the row as it is, a spent row of its address (never usable, not counted for the
  // target).
  await assertTarget?.();

  const code = String(randomInt(1_000_000)).padStart(6, '0');
  const issued = await db.transaction(async (tx) => {
    await lockFor(tx, 'target', input.target);
    const sentToTarget = and(
      eq(verificationCodes.target, input.target),
      ne(verificationCodes.codeHash, REFUSED_REQUEST),
    );
    const [last] = await tx
      .select({ createdAt: verificationCodes.createdAt })
      .from(verificationCodes)
      .where(sentToTarget)
      .orderBy(desc(verificationCodes.createdAt))
      .limit(1);
    const [perTarget] = await tx
      .select({ n: count() })
      .from(verificationCodes)
      .where(and(sentToTarget, gte(verificationCodes.createdAt, new Date(now.getTime() - 86_400_000))));
    if (
      (last && now.getTime() - last.createdAt.getTime() < CODE_RULES.resendMs) ||
      (perTarget?.n ?? 0) >= config.codesPerTargetPerDay
    ) {
      // Held back for its target, not refused for it: it leaves no row, so it does not count toward its address.
      await tx.delete(verificationCodes).where(eq(verificationCodes.id, requestId));
      return false;
    }
    await tx
      .update(verificationCodes)
      .set({
        codeHash: hashCode(requestId, code),
        expiresAt: new Date(now.getTime() + CODE_RULES.ttlMs),
        usedAt: null,
      })
      .where(eq(verificationCodes.id, requestId));
    return true;
  });
  if (!issued) throw new AppError('TOO_FREQUENT');

  const message = codeMessage(input.language, input.scene, code);
  try {
    await deliver(db, messengers, {
      channel: kind === 'phone' ? 'sms' : 'email',
      target: input.target,
      secret: code,
      ...message,
    });
  } catch {
    throw new AppError(kind === 'email' ? 'EMAIL_SEND_FAILED' : 'NETWORK_ERROR');
  }
}

/**
 * Uses up the newest code of this scene and target. Wrong, expired, used, or sent for another scene: refused;
 * five tries end the code. Each try is counted and judged by one conditional update, so tries sent in parallel
 * never get past the fifth, and of two right ones only the first uses the code.
 */
export async function consumeCode(ctx: AppContext, scene: Scene, target: string, code: string) {
  const now = ctx.now();
  const [newest] = await ctx.db
    .select({ id: verificationCodes.id })
    .from(verificationCodes)
    .where(
      and(
        eq(verificationCodes.scene, scene),
        eq(verificationCodes.target, target),
        isNull(verificationCodes.usedAt),
        gt(verificationCodes.expiresAt, now),
      ),
    )
    .orderBy(desc(verificationCodes.createdAt))
    .limit(1);
  if (!newest) throw new AppError('VERIFY_CODE_INVALID');
  const right = sql`${verificationCodes.codeHash} = ${hashCode(newest.id, code)}`;
  const [tried] = await ctx.db
    .update(verificationCodes)
    .set({
      attempts: sql`${verificationCodes.attempts} + 1`,
      usedAt: sql`case when ${right} then ${now.toISOString()}::timestamptz end`,
    })
    .where(
      and(
        eq(verificationCodes.id, newest.id),
        isNull(verificationCodes.usedAt),
        gt(verificationCodes.expiresAt, now),
        lt(verificationCodes.attempts, CODE_RULES.maxAttempts),
      ),
    )
    .returning({ usedAt: verificationCodes.usedAt });
  if (!tried?.usedAt) throw new AppError('VERIFY_CODE_INVALID');
}
