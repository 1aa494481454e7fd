import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { ERRORS } from '@aiedu/contracts';
import type {
  ConnectionError,
  FastifyBaseLogger,
  FastifyError,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
} from 'fastify';
import { sendError } from './error-handler.js';
import { AppError } from './errors.js';
import { errorMessage, languageOf } from './i18n.js';

/**
 * Refusals that Fastify and Node answer before any route (a path parameter over `maxParamLength`, a URL that does
 * not decode, a request line and headers over Node's limit, a request during shutdown) get the envelope with a
 * catalogue code in the caller's language like every other answer, and never echo the URL.
 */

/** Fastify's `frameworkErrors`: its own refusals go through the error handler. */
export function answerFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  return sendError(request, reply, error);
}

const LANGUAGE_HEADER = /\r\nlanguage:[ \t]*([A-Za-z_]+)/i;

/** Node's parser refused the request (headers over the limit, a timeout, a malformed request): nothing was parsed,
 *  so the language is read from the bytes that came, when its header is among them. */
export function answerClientError(this: { log: FastifyBaseLogger }, error: ConnectionError, socket: Socket) {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, entry] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, ERRORS.BAD_REQUEST]
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, ERRORS.INVALID_REQUEST]
        : [400, ERRORS.INVALID_REQUEST];
  // Node hands the bytes it was parsing as a Buffer (the type declares their JSON form).
  const received = error.rawPacket as unknown as Buffer | undefined;
  const language = LANGUAGE_HEADER.exec(received?.toString('latin1') ?? '')?.[1];
  const body = JSON.stringify({
    errorCode: entry.code,
    errorMsg: errorMessage(entry, languageOf(language)),
    data: null,
  });
  this.log.info({ code: entry.code, status, reason: error.code }, 'request refused by the HTTP parser');
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}

/**
 * From the moment the server starts closing, a request that still arrives (on a connection kept alive, or
 * pipelined behind one in flight) answers 503 `SERVICE_UNAVAILABLE` and closes its connection, so the client
 * retries on another process. Replaces Fastify's own 503, whose body is not the envelope.
 */
export function registerDrainRefusal(app: FastifyInstance) {
  let draining = false;
  app.addHook('preClose', async () => {
    draining = true;
  });
  app.addHook('onRequest', async (_request, reply) => {
    if (!draining) return;
    reply.header('connection', 'close');
    throw new AppError('SERVICE_UNAVAILABLE');
  });
}
