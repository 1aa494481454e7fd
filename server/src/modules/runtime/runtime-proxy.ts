import http from 'node:http';
import net from 'node:net';
import type { Duplex } from 'node:stream';
import { API } from '@aiedu/contracts';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { requireAuth } from '../../platform/auth/auth-guard.js';
import type { AccessTokens, AuthContext } from '../../platform/auth/tokens.js';
import type { AppContext } from '../../platform/context.js';
import { AppError } from '../../platform/errors.js';
import { loadProjectFor } from '../project/project-access.js';
import type { RuntimeManager } from './runtime-manager.js';

/** Request headers never passed to Jupyter: our credentials, cookies, and hop-by-hop headers. */
const DROP = new Set([
  'host',
  'x-authorization',
  'authorization',
  'cookie',
  'origin',
  'referer',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'upgrade',
  'proxy-authorization',
]);
const PROXY_PATH = new RegExp(`^${API.runtimeProxy}/([0-9a-fA-F-]{36})(/[^?]*)?(\\?.*)?$`);

function upstreamQuery(search: string | undefined): string {
  if (!search) return '';
  const params = new URLSearchParams(search.slice(1));
  params.delete('token');
  const rest = params.toString();
  return rest ? `?${rest}` : '';
}

/** The endpoint of a project's running runtime, after checking the caller may use that project. */
async function authorise(ctx: AppContext, manager: RuntimeManager, auth: AuthContext, projectId: string) {
  await loadProjectFor(ctx.db, auth, projectId, 'edit');
  const endpoint = manager.endpoint(projectId);
  if (!endpoint) throw new AppError('RUNTIME_NOT_RUNNING');
  manager.touch(projectId);
  return endpoint;
}

/**
 * The browser's only way to Jupyter: HTTP under `/gw/api/v1/runtime/:id/*` is forwarded to the project's server
 * with its token added, after checking on every request that the caller may edit that project. Bodies stream
 * through unparsed.
 */
export const runtimeProxyRoutes: FastifyPluginAsync<{ ctx: AppContext; manager: RuntimeManager }> = async (
  app,
  { ctx, manager },
) => {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, payload, done) => done(null, payload));

  app.route({
    method: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
    url: `${API.runtimeProxy}/:id/*`,
    config: { auth: 'required' },
    schema: { hide: true },
    handler: async (request, reply) => {
      const { id } = request.params as { id: string };
      const endpoint = await authorise(ctx, manager, requireAuth(request), id);
      const match = PROXY_PATH.exec(request.url);
      const target = new URL(endpoint.baseUrl);
      const headers: http.OutgoingHttpHeaders = {};
      for (const [name, value] of Object.entries(request.headers)) if (!DROP.has(name)) headers[name] = value;
      headers.authorization = `token ${endpoint.token}`;
      const upstream = await new Promise<http.IncomingMessage>((resolve, reject) => {
        const req = http.request(
          {
            host: target.hostname,
            port: target.port,
            method: request.method,
            path: `${match?.[2] ?? '/'}${upstreamQuery(match?.[3])}`,
            headers,
          },
          resolve,
        );
        req.on('error', () => reject(new AppError('CONNECT_TIMEOUT')));
        const body = request.body as NodeJS.ReadableStream | undefined;
        if (body && typeof body.pipe === 'function') body.pipe(req);
        else req.end();
      });
      reply.code(upstream.statusCode ?? 502);
      for (const [name, value] of Object.entries(upstream.headers)) {
        if (value !== undefined && !['connection', 'transfer-encoding', 'keep-alive'].includes(name)) {
          reply.header(name, value);
        }
      }
      return reply.send(upstream);
    },
  });
};

function refuse(socket: Duplex, status: number, text: string) {
  socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
}

/**
 * WebSocket upgrades (kernel channels, terminals) under the same path, checked the same way before a byte reaches
 * Jupyter. Browsers cannot set headers on a WebSocket, so the access token may come as the `token` query
 * parameter; it is removed before forwarding. Both sockets run with TCP_NODELAY.
 */
export function registerRuntimeUpgrades(
  app: FastifyInstance,
  ctx: AppContext,
  manager: RuntimeManager,
  tokens: AccessTokens,
) {
  app.server.on('upgrade', (request: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    void (async () => {
      const match = PROXY_PATH.exec(request.url ?? '');
      if (!match) return refuse(socket, 404, 'Not Found');
      const query = new URLSearchParams(match[3]?.slice(1) ?? '');
      const header = request.headers['x-authorization'];
      const token = query.get('token') ?? (Array.isArray(header) ? header[0] : header);
      const auth = token ? await tokens.verify(token) : null;
      if (!auth) return refuse(socket, 401, 'Unauthorized');
      let endpoint;
      try {
        endpoint = await authorise(ctx, manager, auth, match[1]!);
      } catch (error) {
        const status = error instanceof AppError ? error.status : 500;
        return refuse(socket, status, status === 404 ? 'Not Found' : 'Forbidden');
      }
      const projectId = match[1]!;
      const target = new URL(endpoint.baseUrl);
      const lines = [`GET ${match[2] ?? '/'}${upstreamQuery(match[3])} HTTP/1.1`];
      for (let i = 0; i < request.rawHeaders.length; i += 2) {
        const name = request.rawHeaders[i]!;
        const lower = name.toLowerCase();
        if (DROP.has(lower) && lower !== 'connection' && lower !== 'upgrade') continue;
        lines.push(`${name}: ${request.rawHeaders[i + 1]}`);
      }
      lines.push(`Host: ${target.host}`, `Authorization: token ${endpoint.token}`);
      const upstream = net.connect(Number(target.port), target.hostname);
      upstream.setNoDelay(true);
      if (socket instanceof net.Socket) socket.setNoDelay(true);
      const close = () => {
        upstream.destroy();
        socket.destroy();
      };
      upstream.on('error', close);
      socket.on('error', close);
      upstream.on('close', close);
      socket.on('close', close);
      upstream.once('connect', () => {
        upstream.write(`${lines.join('\r\n')}\r\n\r\n`);
        if (head.length) upstream.write(head);
        upstream.pipe(socket);
        socket.pipe(upstream);
      });
      // A data frame from the browser is activity; pings and pongs of an idle open tab are not.
      socket.on('data', (chunk: Buffer) => {
        const opcode = chunk[0]! & 0x0f;
        if (opcode !== 0x9 && opcode !== 0xa) manager.touch(projectId);
      });
    })().catch(() => socket.destroy());
  });
}
