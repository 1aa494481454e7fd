import { EventEmitter } from 'node:events';
import type { Server } from 'node:http';
import websocket from '@fastify/websocket';
import { CLASSROOM_API } from '@aiedu/contracts';
import type { FastifyInstance } from 'fastify';
import { authHeader, requireAuth } from '../../platform/auth/auth-guard.js';
import { requestLanguage } from '../../platform/i18n.js';
import { onUpgrade } from '../../platform/upgrades.js';
import type { LiveSockets } from './live-sockets.js';

/** A browser's message is small; anything larger is not one of ours. */
const MAX_MESSAGE_BYTES = 16 * 1024;

/**
 * The live socket (`GET /api/v1/schedules/live`, upgraded). Its upgrade goes through Fastify's routing like every
 * call (@fastify/websocket), so the request shield, the auth guard and the courses module's switch judge it before
 * it opens, and a refusal answers the envelope instead of switching protocols. Browsers cannot set headers on a
 * WebSocket: the access token and language come as query parameters, which are moved into the headers those hooks
 * read, and the token leaves the URL before anything logs it.
 */
export async function registerLiveRoute(app: FastifyInstance, sockets: LiveSockets) {
  // The plugin listens for upgrades here rather than on the server, which the gateway shares (platform/upgrades.ts).
  const upgrades = new EventEmitter();
  onUpgrade(
    app,
    (path) => path === CLASSROOM_API.live,
    (request, socket, head) => {
      const url = new URL(request.url ?? '/', 'http://localhost');
      const token = url.searchParams.get('token');
      const language = url.searchParams.get('language');
      if (token) request.headers['x-authorization'] = token;
      if (language) request.headers.language = language;
      url.searchParams.delete('token');
      request.url = `${url.pathname}${url.search}`;
      // A socket the server keeps open after its peer ended would hold the server's shutdown (and a file handle).
      socket.once('end', () => socket.end());
      upgrades.emit('upgrade', request, socket, head);
    },
  );
  await app.register(async (scope) => {
    await scope.register(websocket, {
      options: { server: upgrades as unknown as Server, maxPayload: MAX_MESSAGE_BYTES },
    });
    // A refusal (the envelope, 401/403/404) ends the connection: no request follows on a socket asked to upgrade.
    scope.addHook('onResponse', async (request, reply) => {
      if (reply.statusCode !== 101) request.raw.socket.end();
    });
    scope.get(
      CLASSROOM_API.live,
      {
        websocket: true,
        config: { auth: 'required' },
        schema: { summary: 'The live classroom socket (WebSocket only; see docs/api.md)' },
      },
      (socket, request) => sockets.accept(socket, requireAuth(request), authHeader(request)!, requestLanguage(request)),
    );
  });
}
