import { EventEmitter } from 'node:events';
import type { FastifyInstance } from 'fastify';
import { AppError } from './errors.js';

/**
 * NUL, which PostgreSQL cannot store in text (it answers an error naming the statement), and a UTF-16 surrogate
 * without its pair, which no encoding can write and the drivers would silently turn into U+FFFD.
 */
const UNSAFE_TEXT = /\0|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export const UNSAFE_TEXT_MESSAGE = 'Text may not contain NUL or an unpaired surrogate';

export const isUnsafeText = (text: string) => UNSAFE_TEXT.test(text);

/** Data parsed from a request: an object that is not a stream, a socket (event emitters) or binary data. */
function isParsedObject(value: unknown): value is Record<string, unknown> {
  return (
    value !== null &&
    typeof value === 'object' &&
    !(value instanceof EventEmitter) &&
    !ArrayBuffer.isView(value) &&
    !(value instanceof ArrayBuffer)
  );
}

/**
 * The path (`body.name`, `querystring.tags.0`) of the first string or key holding unsafe text; null when none does.
 * Only parsed data is read: a body left as a stream (the notebook gateway forwards its bodies unread) is not walked,
 * and a value met twice is read once.
 */
export function findUnsafeText(value: unknown, root: string): string | null {
  const pending: [unknown, string][] = [[value, root]];
  const seen = new Set<object>();
  while (pending.length > 0) {
    const [current, path] = pending.pop()!;
    if (typeof current === 'string') {
      if (isUnsafeText(current)) return path;
    } else if (current && typeof current === 'object') {
      if (seen.has(current)) continue;
      seen.add(current);
    }
    if (Array.isArray(current)) {
      current.forEach((item, index) => pending.push([item, `${path}.${index}`]));
    } else if (isParsedObject(current)) {
      for (const [key, item] of Object.entries(current)) {
        if (isUnsafeText(key)) return path;
        pending.push([item, `${path}.${key}`]);
      }
    }
  }
  return null;
}

/** A refusal shaped like a validation error (`1001`, `data.issues`), naming where the unsafe text was. */
export const unsafeTextError = (path: string) =>
  new AppError('BAD_REQUEST', { issues: [{ path, message: UNSAFE_TEXT_MESSAGE }] });

/**
 * Every route, with or without a schema, refuses unsafe text in its path parameters, query and JSON or form body
 * before anything reads them: no such string reaches a query, a file name or a log line.
 */
export function registerTextInputCheck(app: FastifyInstance) {
  app.addHook('preValidation', async (request) => {
    const parts: [unknown, string][] = [
      [request.params, 'params'],
      [request.query, 'querystring'],
      [request.body, 'body'],
    ];
    for (const [value, root] of parts) {
      const path = findUnsafeText(value, root);
      if (path) throw unsafeTextError(path);
    }
  });
}
