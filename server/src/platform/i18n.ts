import { DEFAULT_LANGUAGE, errorMessageIn, isLanguage, type ErrorEntry, type Language } from '@aiedu/contracts';
import type { FastifyRequest } from 'fastify';

/** A `language` header's value as a language; zh_CHS when missing or unknown. */
export function languageOf(value: string | null | undefined): Language {
  return isLanguage(value) ? value : DEFAULT_LANGUAGE;
}

/** The request's language from its `language` header; zh_CHS when missing or unknown. */
export function requestLanguage(request: FastifyRequest): Language {
  const header = request.headers.language;
  return languageOf(Array.isArray(header) ? header[0] : header);
}

/** `errorMsg` of a refusal: in the request's language, the rate limits' in Chinese only (spec 8). */
export function errorMessage(entry: ErrorEntry, language: Language): string {
  return errorMessageIn(language, entry.key);
}
