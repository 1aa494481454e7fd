import type { ErrorKey } from '../errors.js';
import type { Language } from '../languages.js';
import { en } from './en.js';
import { ja } from './ja.js';
import { zh_CHS } from './zh_CHS.js';
import { zh_CHT } from './zh_CHT.js';

/** Error messages by language: the same text on the server (`errorMsg`) and in the web client. */
export const ERROR_MESSAGES: Record<Language, Record<ErrorKey, string>> = { en, zh_CHS, zh_CHT, ja };
export { VALIDATION_MESSAGES } from './validation.js';
