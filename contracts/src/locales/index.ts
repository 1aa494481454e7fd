import type { ErrorKey } from '../errors.js';
import type { Language } from '../languages.js';
import { en } from './en.js';
import { ja } from './ja.js';
import { zh_CHS } from './zh_CHS.js';
import { zh_CHT } from './zh_CHT.js';

/** Error messages by language: the same text on the server (`errorMsg`) and in the web client. */
export const ERROR_MESSAGES: Record<Language, Record<ErrorKey, string>> = { en, zh_CHS, zh_CHT, ja };

/**
 * Messages given in simplified Chinese whatever the language: spec 8 lists the rate limits' messages as "Chinese
 * text only" (too many requests, too many uploads).
 */
export const CHINESE_ONLY_MESSAGES: readonly ErrorKey[] = ['tooFrequent', 'uploadRateLimited'];

/** The message of an error in a language, or in simplified Chinese for one of `CHINESE_ONLY_MESSAGES`. */
export function errorMessageIn(language: Language, key: ErrorKey): string {
  return ERROR_MESSAGES[CHINESE_ONLY_MESSAGES.includes(key) ? 'zh_CHS' : language][key];
}
export { VALIDATION_MESSAGES } from './validation.js';
