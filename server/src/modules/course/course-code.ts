import { randomInt } from 'node:crypto';
import { COURSE_CODE_ALPHABET, LIMITS } from '@aiedu/contracts';
import { AppError } from '../../platform/errors.js';

export const COURSE_CODE_ATTEMPTS = 10;

/** A random course code from the alphabet without look-alikes. */
export function randomCourseCode(): string {
  let code = '';
  for (let i = 0; i < LIMITS.courseCode; i++) code += COURSE_CODE_ALPHABET[randomInt(COURSE_CODE_ALPHABET.length)];
  return code;
}

/**
 * Inserts with fresh codes until one is free: `insert` answers null when the code is taken (an
 * `on conflict do nothing`, so the transaction stays usable). Gives up with COURSE_CODE_UNAVAILABLE.
 */
export async function withFreeCourseCode<T>(
  insert: (code: string) => Promise<T | null>,
  next: () => string = randomCourseCode,
): Promise<T> {
  for (let attempt = 0; attempt < COURSE_CODE_ATTEMPTS; attempt++) {
    const row = await insert(next());
    if (row) return row;
  }
  throw new AppError('COURSE_CODE_UNAVAILABLE');
}
