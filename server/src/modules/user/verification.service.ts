import { createHash, randomInt } from 'node:crypto';
import { EMAIL, PHONE, type Language } from '@aiedu/contracts';
import { and, count, desc, eq, gt, gte, isNull, sql } from 'drizzle-orm';
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

/** Sends a six-digit code for one scene and target, within the per-target and per-address limits. */
export async function sendCode(
  ctx: AppContext,
  messengers: Messenger[],
  input: { scene: Scene; target: string; ip: string; language: Language },
) {
  const kind = contactKind(input.target);
  await ctx.shield.record(input.ip, 'codeRequest');
  const now = ctx.now();
  const { db, config } = ctx;
  const [last] = await db
    .select({ createdAt: verificationCodes.createdAt })
    .from(verificationCodes)
    .where(eq(verificationCodes.target, input.target))
    .orderBy(desc(verificationCodes.createdAt))
    .limit(1);
  if (last && now.getTime() - last.createdAt.getTime() < CODE_RULES.resendMs) throw new AppError('TOO_FREQUENT');
  const [perTarget] = await db
    .select({ n: count() })
    .from(verificationCodes)
    .where(
      and(
        eq(verificationCodes.target, input.target),
        gte(verificationCodes.createdAt, new Date(now.getTime() - 86_400_000)),
      ),
    );
  const [perAddress] = await db
    .select({ n: count() })
    .from(verificationCodes)
    .where(
      and(eq(verificationCodes.ip, input.ip), gte(verificationCodes.createdAt, new Date(now.getTime() - 3_600_000))),
    );
  if ((perTarget?.n ?? 0) >= config.codesPerTargetPerDay || (perAddress?.n ?? 0) >= config.codesPerAddressPerHour) {
    throw new AppError('TOO_FREQUENT');
  }

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
 * five wrong tries end the code.
 */
export async function consumeCode(ctx: AppContext, scene: Scene, target: string, code: string) {
  const now = ctx.now();
  const [row] = await ctx.db
    .select()
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
  if (!row || row.attempts >= CODE_RULES.maxAttempts) throw new AppError('VERIFY_CODE_INVALID');
  if (row.codeHash !== hashCode(row.id, code)) {
    await ctx.db
      .update(verificationCodes)
      .set({ attempts: sql`${verificationCodes.attempts} + 1` })
      .where(eq(verificationCodes.id, row.id));
    throw new AppError('VERIFY_CODE_INVALID');
  }
  const used = await ctx.db
    .update(verificationCodes)
    .set({ usedAt: now })
    .where(and(eq(verificationCodes.id, row.id), isNull(verificationCodes.usedAt)))
    .returning({ id: verificationCodes.id });
  if (used.length !== 1) throw new AppError('VERIFY_CODE_INVALID');
}
