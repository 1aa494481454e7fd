import { ADMIN_SET_PASSWORD_RULE, isValidPassword, ownPasswordRule, type PasswordStrength } from '@aiedu/contracts';
import { dictionary } from '@zxcvbn-ts/language-common';
import { AppError } from './errors.js';

/** The 10,000 most common passwords (zxcvbn's list is ordered by frequency), compared case-insensitively. */
const COMMON = new Set(dictionary['passwords-common'].slice(0, 10_000).map((p) => p.toLowerCase()));

export function isCommonPassword(plain: string): boolean {
  return COMMON.has(plain.toLowerCase());
}

/** Decodes a base64 password field (DECISIONS: every password travels as base64 of its UTF-8 text). */
export function decodePassword(encoded: string): string {
  const plain = readPassword(encoded);
  if (plain === null) throw new AppError('BAD_REQUEST');
  return plain;
}

/** The same decoding, answering null for text that is not base64 (a batch reports it on its row). */
export function readPassword(encoded: string): string | null {
  return /^[A-Za-z0-9+/]*={0,2}$/.test(encoded) ? Buffer.from(encoded, 'base64').toString('utf8') : null;
}

/** Refuses a new password that breaks the form's rule (spec 5) or is one of the most common passwords. */
function assertAcceptablePassword(plain: string, strength: PasswordStrength) {
  if (!isValidPassword(plain, strength) || isCommonPassword(plain)) throw new AppError('PASSWORD_WEAK');
}

/** A password the holder of `roles` chooses for themselves: simple, or strong for administrators (contracts). */
export function assertOwnPassword(plain: string, roles: readonly string[]) {
  assertAcceptablePassword(plain, ownPasswordRule(roles));
}

/**
 * A password an administrator sets for someone else (initial, reset, import): the weak rule, 6–20 visible ASCII
 * characters, since its holder must replace it at the next sign-in.
 */
export function isAdminSetPassword(plain: string): boolean {
  return isValidPassword(plain, ADMIN_SET_PASSWORD_RULE);
}

export function assertAdminSetPassword(plain: string) {
  if (!isAdminSetPassword(plain)) throw new AppError('PASSWORD_WEAK');
}
