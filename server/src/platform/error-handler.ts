import { ERRORS, type ErrorEntry, type ErrorName, type Language } from '@aiedu/contracts';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { AppError } from './errors.js';
import { errorMessage, requestLanguage } from './i18n.js';
import { localiseIssue } from './validation-messages.js';

interface Mapped {
  entry: ErrorEntry;
  status: number;
  data: unknown;
}

/** PostgreSQL error codes that mean the request, not the server, was wrong. */
const PG_CLIENT_ERRORS: Record<string, ErrorName> = {
  '23505': 'OPERATION_FAILED', // unique_violation
  '23503': 'OPERATION_FAILED', // foreign_key_violation
  '23514': 'BAD_REQUEST', // check_violation
  '22P02': 'BAD_REQUEST', // invalid_text_representation (e.g. a malformed uuid)
  '22021': 'BAD_REQUEST', // character_not_in_repertoire (NUL in text)
  '22001': 'BAD_REQUEST', // string_data_right_truncation
  '22003': 'BAD_REQUEST', // numeric_value_out_of_range
  '22007': 'BAD_REQUEST', // invalid_datetime_format
  '22008': 'BAD_REQUEST', // datetime_field_overflow
};

/** `data.issues` of a refusal, each message in the caller's language. */
function localiseIssues(details: unknown, language: Language): unknown {
  const issues = (details as { issues?: unknown } | null)?.issues;
  if (!Array.isArray(issues)) return details;
  return {
    ...(details as object),
    issues: (issues as { path: string; message: string }[]).map((i) => ({
      ...i,
      message: localiseIssue(i.message, language),
    })),
  };
}

function mapError(error: unknown, language: Language): Mapped {
  if (error instanceof AppError) {
    return { entry: error.entry, status: error.status, data: localiseIssues(error.details ?? null, language) };
  }
  if (hasZodFastifySchemaValidationErrors(error)) {
    const issues = error.validation.map((v) => ({
      path: `${error.validationContext ?? 'body'}${v.instancePath.replaceAll('/', '.')}`,
      message: localiseIssue(
        v.message ?? '',
        language,
        (v.params as { issue?: Parameters<typeof localiseIssue>[2] }).issue,
      ),
    }));
    return { entry: ERRORS.BAD_REQUEST, status: 400, data: { issues } };
  }
  if (isResponseSerializationError(error)) {
    return { entry: ERRORS.UNKNOWN, status: 500, data: null };
  }
  const pgCode = findPgCode(error);
  if (pgCode && PG_CLIENT_ERRORS[pgCode]) {
    const entry = ERRORS[PG_CLIENT_ERRORS[pgCode]];
    return { entry, status: entry.status, data: null };
  }
  const fastifyError = error as Partial<FastifyError>;
  const status = fastifyError.statusCode;
  if (status === 413) return { entry: ERRORS.FILE_TOO_LARGE, status: 413, data: null };
  // A path parameter or a request line too long: the caller's parameter, answered with its own status.
  if (status === 414 || status === 431) return { entry: ERRORS.BAD_REQUEST, status, data: null };
  if (status === 429) return { entry: ERRORS.TOO_FREQUENT, status: 429, data: null };
  if (status && status >= 400 && status < 500) {
    const entry = fastifyError.validation || status === 400 ? ERRORS.BAD_REQUEST : ERRORS.INVALID_REQUEST;
    return { entry, status, data: null };
  }
  return { entry: ERRORS.UNKNOWN, status: 500, data: null };
}

/** Drizzle wraps driver errors; the PostgreSQL SQLSTATE sits on the error or its cause. */
function findPgCode(error: unknown): string | undefined {
  for (let e = error as { code?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 3; depth++) {
    if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code)) return e.code;
    e = e.cause as typeof e;
  }
  return undefined;
}

export function sendError(request: FastifyRequest, reply: FastifyReply, error: unknown) {
  const language = requestLanguage(request);
  const { entry, status, data } = mapError(error, language);
  if (status >= 500) {
    // The body never carries the stack or SQL; the log has both, under the request id.
    request.log.error({ err: error }, 'request failed');
  } else {
    request.log.info({ code: entry.code, status }, 'request refused');
  }
  return reply
    .code(status)
    .type('application/json; charset=utf-8')
    .send({ errorCode: entry.code, errorMsg: errorMessage(entry, language), data });
}

export function registerErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((error, request, reply) => sendError(request, reply, error));
}
