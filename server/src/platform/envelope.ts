import { SUCCESS_CODE, ZEnvelope, type Envelope } from '@aiedu/contracts';
import type { FastifyReply } from 'fastify';
import type { z } from 'zod';

/** The success envelope: `{ errorCode: "1000", errorMsg: "", data }`. */
export function ok<T>(data: T): Envelope<T> {
  return { errorCode: SUCCESS_CODE, errorMsg: '', data };
}

/** Response schema of a route answering `data` of the given shape. */
export function envelopeOf<T extends z.ZodType>(data: T) {
  return { 200: ZEnvelope(data) };
}

/**
 * Sends an answer serialised earlier (by `reply.serialize`, so checked against the route's schema then) and kept:
 * a string goes out as it is.
 */
export function sendJson(reply: FastifyReply, json: string) {
  return reply.type('application/json; charset=utf-8').send(json);
}
