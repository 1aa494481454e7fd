import http from 'node:http';
import type { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from './errors.js';

/**
 * Requests between the server processes of one deployment. Some things live in one process (a notebook runtime,
 * an upload under way); any other process that receives a request for them passes it on to that one, once.
 */

/** Marks a request one process forwarded to another, so it is never forwarded again. */
export const FORWARDED_HEADER = 'x-aiedu-forwarded-by';
/** Request headers never passed on to another process: hop-by-hop ones. */
const HOP_BY_HOP = new Set(['host', 'connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'proxy-authorization']);

/**
 * Passes a request on to the process that holds what it names (a runtime, an upload), as a reverse proxy would (the caller's credentials
 * and body as they came, its address in `X-Forwarded-For`), marked so that process never passes it on again; its
 * answer streams back unchanged.
 */
export async function forwardRequest(
  request: FastifyRequest,
  reply: FastifyReply,
  holder: string,
  instanceId: string,
  body: Readable | Buffer | undefined,
) {
  const headers: http.OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(request.headers)) if (!HOP_BY_HOP.has(name)) headers[name] = value;
  // A body the route already read is not passed on (no route that forwards reads one it needs).
  if (body === undefined) {
    delete headers['content-length'];
    delete headers['content-type'];
  }
  headers[FORWARDED_HEADER] = instanceId;
  headers['x-forwarded-for'] = [request.headers['x-forwarded-for'], request.ip].filter(Boolean).join(', ');
  return relay(reply, new URL(holder), request.method, request.url, headers, body);
}

/** Sends a request to `target` and streams its answer back as the reply. */
export async function relay(
  reply: FastifyReply,
  target: URL,
  method: string,
  path: string,
  headers: http.OutgoingHttpHeaders,
  body: Readable | Buffer | undefined,
) {
  const streamed = body !== undefined && !Buffer.isBuffer(body) ? body : null;
  let request: http.ClientRequest | null = null;
  let sent = streamed === null;
  // The caller's body was not all passed on: after this answer the connection closes, rather than carrying the
  // caller's next request behind bytes nobody reads (HTTP's rule for a server that answers before the body's end).
  const abandonBody = () => {
    if (sent || !streamed || !request) return;
    streamed.unpipe(request);
    reply.header('connection', 'close');
  };
  const upstream = await new Promise<http.IncomingMessage>((resolve, reject) => {
    const req = (request = http.request({ host: target.hostname, port: target.port, method, path, headers }, resolve));
    req.on('error', () => {
      abandonBody();
      reject(new AppError('CONNECT_TIMEOUT'));
    });
    if (Buffer.isBuffer(body)) req.end(body);
    else if (streamed) {
      req.on('finish', () => (sent = true));
      streamed.pipe(req);
    } else req.end();
  });
  if (!sent) {
    // The holder answered before it had the whole body (a refusal): its connection goes too once the answer is in.
    abandonBody();
    upstream.on('end', () => request?.destroy());
  }
  reply.code(upstream.statusCode ?? 502);
  for (const [name, value] of Object.entries(upstream.headers)) {
    if (value !== undefined && !['connection', 'transfer-encoding', 'keep-alive'].includes(name)) {
      reply.header(name, value);
    }
  }
  return reply.send(upstream);
}

/** Whether another process passed this request on (it is then answered here or not at all). */
export function wasForwarded(request: { headers: http.IncomingHttpHeaders }): boolean {
  return request.headers[FORWARDED_HEADER] !== undefined;
}
