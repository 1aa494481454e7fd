import { createHash, randomInt } from 'node:crypto';
import { EMAIL, PHONE, type Language } from '@aiedu/contracts';
import { and, count, desc, eq, gt, gte, isNull, lt, ne, sql } from 'drizzle-orm';
import type { AppContext } from '../../platform/context.js';
import { verificationCodes } from '../../platform/db/schema/index.js';
import { AppError } from '../../platform/errors.js';
import { deliver, type Messenger } from '../../platform/messaging/messenger.js';
import { codeMessage } from './verification.messages.js';

export type Scene = (typeof verificationCodes.$inferSelect)['scene'];

export const CODE_RULES = { ttlMs: 10 * 60_000, resendMs: 60_000, maxAttempts: 5 } as const;

export type ContactKind = 'phone' | 'email';

/** Which kind of contact a target is, by its pattern; refuses anything that is neither. */
export function contactKind(target: string): ContactKind {
  if (PHONE.test(target)) return 'phone';
  if (EMAIL.test(target)) return 'email';
  throw new AppError('CONTACT_INVALID');
}

const hashCode = (id: string, code: string) => createHash('sha256').update(`${id}:${code}`).digest('base64url');

/** What a request refused for its target stores instead of a code hash: no code matches it. */
const REFUSED_REQUEST = 'refused';

/**
 * Sends a six-digit code for one scene and target, within the per-target and per-address limits. `assertTarget`
 * (whether the target may get a code: a free contact for sign-up, an existing account otherwise) runs only once the
 * request has been counted by the request shield and has passed its address's hourly limit, and a request it refuses
 * still counts toward that limit: answers about which phones and emails exist cannot be drawn without bound.
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
  const [perAddress] = await db
    .select({ n: count() })
    .from(verificationCodes)
    .where(
      and(eq(verificationCodes.ip, input.ip), gte(verificationCodes.createdAt, new Date(now.getTime() - 3_600_000))),
    );
  if ((perAddress?.n ?? 0) >= config.codesPerAddressPerHour) throw new AppError('TOO_FREQUENT');
  try {
    await assertTarget?.();
  } catch (error) {
    // Kept as a spent row of its address (never usable, not counted for the target), then refused as it was.
    await db.insert(verificationCodes).values({
      scene: input.scene,
      target: input.target,
      codeHash: REFUSED_REQUEST,
      ip: input.ip,
      expiresAt: now,
      usedAt: now,
      createdAt: now,
    });
    throw error;
  }

  const sentToTarget = and(eq(verificationCodes.target, input.target), ne(verificationCodes.codeHash, REFUSED_REQUEST));
  const [last] = await db
    .select({ createdAt: verificationCodes.createdAt })
    .from(verificationCodes)
    .where(sentToTarget)
    .orderBy(desc(verificationCodes.createdAt))
    .limit(1);
  if (last && now.getTime() - last.createdAt.getTime() < CODE_RULES.resendMs) throw new AppError('TOO_FREQUENT');
  const [perTarget] = await db
    .select({ n: count() })
    .from(verificationCodes)
    .where(and(sentToTarget, gte(verificationCodes.createdAt, new Date(now.getTime() - 86_400_000))));
  if ((perTarget?.n ?? 0) >= config.codesPerTargetPerDay) throw new AppError('TOO_FREQUENT');

  const code = String(randomInt(1_000_000)).padStart(6, '0');
  const [row] = await db
    .insert(verificationCodes)
    .values({
      scene: input.scene,
      target: input.target,
      codeHash: 'pending',
      ip: input.ip,
      expiresAt: new Date(now.getTime() + CODE_RULES.ttlMs),
      createdAt: now,
    })
    .returning({ id: verificationCodes.id });
  await db
    .update(verificationCodes)
    .set({ codeHash: hashCode(row!.id, code) })
    .where(eq(verificationCodes.id, row!.id));
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
