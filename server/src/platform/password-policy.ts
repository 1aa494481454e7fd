import { isValidPassword, type PasswordStrength } from '@aiedu/contracts';
import { dictionary } from '@zxcvbn-ts/language-common';
import { AppError } from './errors.js';

/** The 10,000 most common passwords (zxcvbn's list is ordered by frequency), compared case-insensitively. */
const COMMON = new Set(dictionary['passwords-common'].slice(0, 10_000).map((p) => p.toLowerCase()));

export function isCommonPassword(plain: string): boolean {
  return COMMON.has(plain.toLowerCase());
}

/** Decodes a base64 password field (DECISIONS: every password travels as base64 of its UTF-8 text). */
export function decodePassword(encoded: string): string {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(encoded)) throw new AppError('BAD_REQUEST');
  return Buffer.from(encoded, 'base64').toString('utf8');
}

/** Refuses a new password that breaks the form's rule (spec 5) or is one of the most common passwords. */
export function assertAcceptablePassword(plain: string, strength: PasswordStrength) {
  if (!isValidPassword(plain, strength) || isCommonPassword(plain)) throw new AppError('PASSWORD_WEAK');
}
