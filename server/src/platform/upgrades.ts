import type http from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyInstance } from 'fastify';

export type UpgradeHandler = (request: http.IncomingMessage, socket: Duplex, head: Buffer) => void;

interface Route {
  matches: (url: string) => boolean;
  handler: UpgradeHandler;
}

const routes = new WeakMap<http.Server, Route[]>();

/** Refuses an upgrade with a bare HTTP answer: the browser sees a WebSocket that failed to open. */
export function refuseUpgrade(socket: Duplex, status: number, text: string) {
  socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
}

/**
 * Takes the server's WebSocket upgrades whose path `matches` (the notebook gateway's, the live classroom's). The
 * server has one listener for all of them, which hands each upgrade to the first taker and refuses one nobody takes
 * (404), so two takers never both answer the same connection.
 */
export function onUpgrade(app: FastifyInstance, matches: (url: string) => boolean, handler: UpgradeHandler) {
  let list = routes.get(app.server);
  if (!list) {
    const taken: Route[] = [];
    routes.set(app.server, (list = taken));
    app.server.on('upgrade', (request: http.IncomingMessage, socket: Duplex, head: Buffer) => {
      const path = (request.url ?? '').split('?', 1)[0]!;
      const route = taken.find((r) => r.matches(path));
      if (route) route.handler(request, socket, head);
      else refuseUpgrade(socket, 404, 'Not Found');
    });
  }
  list.push({ matches, handler });
}
