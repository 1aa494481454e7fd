import { randomInt } from 'node:crypto';
import type { TTracePoint } from '@aiedu/contracts';
import { and, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import { captchas } from '../../platform/db/schema/index.js';
import { AppError } from '../../platform/errors.js';
import { drawPuzzle, PUZZLE, PIECE_CANVAS } from './captcha-image.js';
import { isHumanTrace } from './captcha-trace.js';
import { drawImageCode } from './image-code.js';
import { isUuid } from '../../platform/ids.js';

/** A slide passes within ±5 px; a puzzle or image code lives 2 minutes; an image code takes 5 tries. */
export const CAPTCHA_RULES = { toleranceX: 5, ttlMs: 2 * 60_000, maxTries: 5 } as const;

export async function createCaptcha(db: Db, now: Date) {
  const puzzle = await drawPuzzle();
  const [row] = await db
    .insert(captchas)
    .values({
      kind: 'slider',
      answerX: puzzle.x,
      expiresAt: new Date(now.getTime() + CAPTCHA_RULES.ttlMs),
      createdAt: now,
    })
    .returning({ id: captchas.id });
  return {
    captchaId: row!.id,
    displayData: {
      baseImg: puzzle.baseImg,
      jigsawImg: puzzle.jigsawImg,
      y: puzzle.y,
      width: PUZZLE.width,
      height: PUZZLE.height,
      pieceSize: PIECE_CANVAS,
    },
  };
}

/**
 * Checks a slide: within ±5 px, with a trace a person could have made (see captcha-trace), passes. A puzzle takes
 * one check, right or wrong: a second check of it fails like an expired one, so a wrong slide needs a new puzzle.
 */
export async function checkCaptcha(
  db: Db,
  captchaId: string,
  slide: { x: number; trace?: readonly TTracePoint[] | undefined },
  now: Date,
) {
  const [row] = await db
    .update(captchas)
    .set({ tries: sql`${captchas.tries} + 1` })
    .where(
      and(eq(captchas.id, captchaId), eq(captchas.kind, 'slider'), eq(captchas.tries, 0), gt(captchas.expiresAt, now)),
    )
    .returning({ answerX: captchas.answerX });
  if (!row || Math.abs(row.answerX - slide.x) > CAPTCHA_RULES.toleranceX || !isHumanTrace(slide.trace, slide.x)) {
    throw new AppError('CAPTCHA_WRONG');
  }
  await db.update(captchas).set({ passedAt: now }).where(eq(captchas.id, captchaId));
  return { pass: true as const };
}

/** A new image code for the legacy form, stored under the client's `acid` (a UUID); a new request replaces it. */
export async function createImageCode(db: Db, acid: string, now: Date) {
  const code = String(randomInt(1000, 10_000));
  const expiresAt = new Date(now.getTime() + CAPTCHA_RULES.ttlMs);
  await db
    .insert(captchas)
    .values({ id: acid, kind: 'image', answerX: Number(code), expiresAt, createdAt: now })
    .onConflictDoUpdate({
      target: captchas.id,
      set: { answerX: Number(code), expiresAt, tries: 0, usedAt: null },
      setWhere: eq(captchas.kind, 'image'),
    });
  return drawImageCode(code);
}

/**
 * Uses up an image code typed in the legacy form: right digits, unused, unexpired. Like the slider, 5 tries end it:
 * each try is counted and judged by one conditional update, so parallel tries never get past the fifth.
 */
export async function consumeImageCode(db: Db, acid: string | undefined, typed: string | undefined, now: Date) {
  if (!acid || !typed || !isUuid(acid)) return false;
  const right = /^\d{4}$/.test(typed) ? sql`${captchas.answerX} = ${Number(typed)}` : sql`false`;
  const [row] = await db
    .update(captchas)
    .set({
      tries: sql`${captchas.tries} + 1`,
      usedAt: sql`case when ${right} then ${now.toISOString()}::timestamptz end`,
    })
    .where(
      and(
        eq(captchas.id, acid),
        eq(captchas.kind, 'image'),
        isNull(captchas.usedAt),
        gt(captchas.expiresAt, now),
        lt(captchas.tries, CAPTCHA_RULES.maxTries),
      ),
    )
    .returning({ usedAt: captchas.usedAt });
  return Boolean(row?.usedAt);
}

/** Uses up a passed captcha for one sign-in; false when it was never passed, is used or has expired. */
export async function consumeCaptcha(db: Db, captchaId: string | undefined, now: Date): Promise<boolean> {
  if (!captchaId || !isUuid(captchaId)) return false;
  const rows = await db
    .update(captchas)
    .set({ usedAt: now })
    .where(
      and(
        eq(captchas.id, captchaId),
        isNull(captchas.usedAt),
        sql`${captchas.passedAt} is not null`,
        gt(captchas.expiresAt, now),
      ),
    )
    .returning({ id: captchas.id });
  return rows.length === 1;
}
