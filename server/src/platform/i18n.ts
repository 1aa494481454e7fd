import { DEFAULT_LANGUAGE, ERROR_MESSAGES, isLanguage, type ErrorEntry, type Language } from '@aiedu/contracts';
import type { FastifyRequest } from 'fastify';

/** The request's language from its `language` header; zh_CHS when missing or unknown. */
export function requestLanguage(request: FastifyRequest): Language {
  const header = request.headers.language;
  const value = Array.isArray(header) ? header[0] : header;
  return isLanguage(value) ? value : DEFAULT_LANGUAGE;
}

export function errorMessage(entry: ErrorEntry, language: Language): string {
  return ERROR_MESSAGES[language][entry.key];
}
