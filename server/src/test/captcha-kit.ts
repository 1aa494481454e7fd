import { API, type TCaptcha, type TTracePoint } from '@aiedu/contracts';
import { eq } from 'drizzle-orm';
import { captchas } from '../platform/db/schema/index.js';
import type { TestApp } from './test-app.js';

/**
 * The trace of a person's drag from 0 to `x`: the handle held still for a moment after it is grabbed, then moved
 * with a slow start, a fast middle and a slow end, over `ms`.
 */
export function slideTrace(x: number, ms = 700, points = 24): TTracePoint[] {
  const grab = 80;
  return [
    { x: 0, t: 0 },
    ...Array.from({ length: points - 1 }, (_, i) => {
      const f = i / (points - 2);
      return { x: Math.round((x * (1 - Math.cos(Math.PI * f))) / 2), t: Math.round(grab + (ms - grab) * f) };
    }),
  ];
}

type Headers = Record<string, string>;

/** A new slider puzzle, with its answer read from the database. */
export async function newPuzzle(t: TestApp, headers: Headers = {}) {
  const data: TCaptcha = (await t.app.inject({ method: 'GET', url: API.captcha, headers })).json().data;
  const [row] = await t.database.db.select().from(captchas).where(eq(captchas.id, data.captchaId));
  return { ...data, answerX: row!.answerX };
}

/** Checks a slide to `x`, dragged as a person would unless another trace is given. */
export function slide(
  t: TestApp,
  captchaId: string,
  x: number,
  options: { headers?: Headers; trace?: TTracePoint[] | undefined } = {},
) {
  const trace = 'trace' in options ? options.trace : slideTrace(x);
  return t.app.inject({
    method: 'POST',
    url: API.captchaCheck,
    headers: options.headers ?? {},
    payload: { captchaId, checkedData: { x, trace } },
  });
}

/** A puzzle solved as a person solves it: its id unlocks one sign-in. */
export async function passedCaptcha(t: TestApp, headers: Headers = {}): Promise<string> {
  const puzzle = await newPuzzle(t, headers);
  const answer = (await slide(t, puzzle.captchaId, puzzle.answerX, { headers })).json();
  if (answer.errorCode !== '1000') throw new Error(`the puzzle was not passed: ${answer.errorCode}`);
  return puzzle.captchaId;
}
