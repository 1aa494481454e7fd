import type http from 'node:http';
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import type { Duplex, Readable } from 'node:stream';
import { API } from '@aiedu/contracts';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { requireAuth } from '../../platform/auth/auth-guard.js';
import { accessTokenExpiry, type AccessTokens, type AuthContext } from '../../platform/auth/tokens.js';
import type { AppContext } from '../../platform/context.js';
import { AppError } from '../../platform/errors.js';
import { FORWARDED_HEADER, forwardRequest, relay, wasForwarded } from '../../platform/forwarding.js';
import { onUpgrade } from '../../platform/upgrades.js';
import { isSessionActive } from '../auth/session.service.js';
import { CONTENTS_BODY_LIMIT, checkContentsWrite, type ContentsWrite } from '../project/contents-guard.js';
import { loadProjectFor, type ProjectRow } from '../project/project-access.js';
import { GatewaySockets } from './gateway-sockets.js';
import type { RuntimeManager } from './runtime-manager.js';
import { closeFrame, dataFrames, FrameBoundary, textFrame } from './ws-frames.js';

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
  FORWARDED_HEADER,
]);
const PROXY_PATH = new RegExp(`^${API.runtimeProxy}/([0-9a-fA-F-]{36})(/[^?]*)?(\\?.*)?$`);

function upstreamQuery(search: string | undefined): string {
  if (!search) return '';
  const params = new URLSearchParams(search.slice(1));
  params.delete('token');
  const rest = params.toString();
  return rest ? `?${rest}` : '';
}

/**
 * Where a project's running runtime is (this process's endpoint, or the address of the process that holds it),
 * after checking the caller may use that project. The gateway also asks the database whether the access token's
 * sign-in still stands, for upgrades (which the auth guard never sees) and for requests the guard let through on an
 * answer a few seconds old, and refuses an ended one as expired (the editor's refresh then finds out), so a logout
 * closes the runtime to that browser at once. A request another process `forwarded` is answered here or not at all.
 */
async function authorise(
  ctx: AppContext,
  manager: RuntimeManager,
  auth: AuthContext,
  projectId: string,
  forwarded: boolean,
) {
  if (!(await isSessionActive(ctx.db, auth.sessionId))) throw new AppError('TOKEN_EXPIRED');
  const { project } = await loadProjectFor(ctx.db, auth, projectId, 'edit');
  const location = await manager.locate(projectId, forwarded);
  if (!location) throw new AppError('RUNTIME_NOT_RUNNING');
  if ('endpoint' in location) manager.touch(projectId);
  return { location, project };
}

const CONTENTS_PATH = /^\/api\/contents(?:\/(.*))?$/;

/** A request body read whole, refused (2006) past `limit` bytes without reading further. */
async function readBody(stream: Readable | undefined, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream ?? []) {
    size += (chunk as Buffer).length;
    if (size > limit) {
      stream?.destroy();
      throw new AppError('FILE_TOO_LARGE');
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

function decodePath(encoded: string): string {
  try {
    return encoded.split('/').map(decodeURIComponent).join('/');
  } catch {
    throw new AppError('BAD_REQUEST');
  }
}

/**
 * A write to Jupyter's contents API, checked against the file tree's rules (project/contents-guard.ts) before
 * Jupyter sees it: the body is read (up to a 100 MB file, base64) and forwarded as read, to the checked path.
 */
async function checkedContentsWrite(
  ctx: AppContext,
  manager: RuntimeManager,
  project: ProjectRow,
  method: ContentsWrite['method'],
  relative: string,
  stream: Readable | undefined,
) {
  const raw = await readBody(stream, CONTENTS_BODY_LIMIT);
  let body: Record<string, unknown> | null = null;
  try {
    body = raw.length ? (JSON.parse(raw.toString('utf8')) as Record<string, unknown>) : null;
  } catch {
    throw new AppError('BAD_REQUEST');
  }
  const checked = await checkContentsWrite(ctx, manager.driver, project, { method, path: relative, body });
  return { raw, path: `/api/contents/${checked.split('/').map(encodeURIComponent).join('/')}` };
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
      const { location, project } = await authorise(ctx, manager, requireAuth(request), id, wasForwarded(request));
      if ('holder' in location) {
        return forwardRequest(request, reply, location.holder, manager.instance.id, request.body as Readable);
      }
      const { endpoint } = location;
      const match = PROXY_PATH.exec(request.url);
      const target = new URL(endpoint.baseUrl);
      const headers: http.OutgoingHttpHeaders = {};
      for (const [name, value] of Object.entries(request.headers)) if (!DROP.has(name)) headers[name] = value;
      headers.authorization = `token ${endpoint.token}`;
      let upstreamPath = match?.[2] ?? '/';
      let body = request.body as Readable | Buffer | undefined;
      const contents = CONTENTS_PATH.exec(upstreamPath);
      const method = request.method;
      if (contents && (method === 'PUT' || method === 'POST' || method === 'PATCH')) {
        const relative = decodePath(contents[1] ?? '');
        const write = await checkedContentsWrite(ctx, manager, project, method, relative, body as Readable);
        upstreamPath = write.path;
        body = write.raw;
        headers['content-length'] = String(write.raw.length);
      }
      return relay(reply, target, method, `${upstreamPath}${upstreamQuery(match?.[3])}`, headers, body);
    },
  });
};

function refuse(socket: Duplex, status: number, text: string) {
  socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
}

/**
 * Forwards an upgraded connection both ways with TCP_NODELAY, following frame boundaries in both directions
 * (never parsing or copying a payload). `close` asks **Jupyter** to close: a close frame of the gateway's goes to
 * Jupyter between two of the browser's frames, Jupyter answers it with the same code and closes, and everything it
 * sent before reaches the browser; what the kernel sends afterwards Jupyter keeps for the session's reconnect. Only
 * a Jupyter that does not answer within 5 s gets the browser's side closed by the gateway itself. `notify` sends the
 * browser a text frame of the gateway's own, between two of Jupyter's.
 */
export function bridge(
  socket: Duplex,
  upstream: net.Socket,
  options: {
    onBrowserData(chunk: Buffer): void;
    /** Frames the browser sent as its previous socket closed, sent to Jupyter first. */
    replay: Buffer | null;
    /** Receives the data frames the browser sent after Jupyter was asked to close. */
    park(frames: Buffer): void;
  },
) {
  const fromJupyter = new FrameBoundary();
  const fromBrowser = new FrameBoundary({ httpHead: false });
  let closing: { code: number; reason: string; sent: boolean } | null = null;
  let upgradedAt: number | null = null;
  const held: Buffer[] = [];
  let replay = options.replay;
  /** A notice for the browser waiting for the end of the frame Jupyter is sending. */
  let notice: Buffer | null = null;
  const destroy = () => {
    upstream.destroy();
    socket.destroy();
  };
  // Not before Jupyter has answered the upgrade: a frame would land in its HTTP parser.
  const askJupyter = () => {
    if (!fromJupyter.upgraded || !fromBrowser.atBoundary || closing!.sent) return;
    closing!.sent = true;
    upstream.write(closeFrame(closing!.code, closing!.reason, randomBytes(4)));
  };
  upstream.on('data', (chunk: Buffer) => {
    let forward = chunk;
    if (notice && !closing) {
      // The gateway's notice goes between two of Jupyter's frames, never inside one.
      const until = fromJupyter.untilBoundary(chunk);
      if (until !== null) {
        const rest = chunk.subarray(until);
        fromJupyter.consume(rest);
        forward = Buffer.concat([chunk.subarray(0, until), notice, rest]);
        notice = null;
      }
    } else {
      fromJupyter.consume(chunk);
    }
    if (upgradedAt === null && fromJupyter.upgraded) upgradedAt = Date.now();
    // Before the browser learns the socket is open, so these frames come before any it sends on it.
    if (replay && fromJupyter.upgraded) {
      upstream.write(replay);
      replay = null;
    }
    if (closing) askJupyter();
    if (!socket.write(forward)) {
      upstream.pause();
      socket.once('drain', () => upstream.resume());
    }
  });
  socket.on('data', (chunk: Buffer) => {
    if (closing?.sent) return void held.push(chunk);
    let forward = chunk;
    if (closing) {
      const until = fromBrowser.untilBoundary(chunk);
      if (until !== null) {
        forward = chunk.subarray(0, until);
        held.push(chunk.subarray(until));
      }
    } else {
      fromBrowser.consume(chunk);
    }
    options.onBrowserData(forward);
    if (!upstream.write(forward)) {
      socket.pause();
      upstream.once('drain', () => socket.resume());
    }
    if (closing) askJupyter();
  });
  upstream.on('error', destroy);
  socket.on('error', destroy);
  // Jupyter closed (after answering the close, or because the runtime stopped): the browser's side ends too.
  upstream.on('close', () => (closing ? socket.end() : destroy()));
  socket.on('close', () => {
    destroy();
    // What never reached Jupyter waits for the next socket: frames of the previous one not yet replayed (this one
    // ended before Jupyter answered its upgrade), then what the browser sent after Jupyter was asked to close.
    const unsent = closing?.sent ? dataFrames(Buffer.concat(held)) : Buffer.alloc(0);
    options.park(replay ? Buffer.concat([replay, unsent]) : unsent);
  });
  return {
    upgradedAt: () => upgradedAt,
    /** Sends the browser a text frame of the gateway's own, between two of Jupyter's. */
    notify(text: string) {
      if (closing || socket.destroyed) return;
      const frame = textFrame(text);
      if (fromJupyter.atBoundary) socket.write(frame);
      else notice = Buffer.concat([notice ?? Buffer.alloc(0), frame]);
    },
    close(code: number, reason: string) {
      if (closing) return;
      closing = { code, reason, sent: false };
      askJupyter();
      setTimeout(() => {
        if (upstream.destroyed) return;
        const write = (before: Buffer) => {
          socket.end(Buffer.concat([before, closeFrame(code, reason)]));
          upstream.destroy();
        };
        upstream.removeAllListeners('data');
        if (fromJupyter.atBoundary) write(Buffer.alloc(0));
        else
          upstream.on('data', (chunk: Buffer) => {
            const until = fromJupyter.untilBoundary(chunk);
            if (until === null) socket.write(chunk);
            else write(chunk.subarray(0, until));
          });
        setTimeout(destroy, 5000).unref();
      }, 5000).unref();
    },
  };
}

/**
 * Passes an upgrade on to the process that holds the runtime, which checks it again and bridges it to Jupyter: this
 * process only relays bytes both ways (token renewals, parked frames and closes all happen at the holder).
 */
function forwardUpgrade(
  request: http.IncomingMessage,
  socket: Duplex,
  head: Buffer,
  holder: string,
  instanceId: string,
) {
  const target = new URL(holder);
  const lines = [`${request.method ?? 'GET'} ${request.url} HTTP/1.1`];
  for (let i = 0; i < request.rawHeaders.length; i += 2) {
    const lower = request.rawHeaders[i]!.toLowerCase();
    if (lower === 'host' || lower === FORWARDED_HEADER || lower === 'x-forwarded-for') continue;
    lines.push(`${request.rawHeaders[i]}: ${request.rawHeaders[i + 1]}`);
  }
  const forwardedFor = [request.headers['x-forwarded-for'], request.socket.remoteAddress].filter(Boolean).join(', ');
  lines.push(`Host: ${target.host}`, `${FORWARDED_HEADER}: ${instanceId}`, `X-Forwarded-For: ${forwardedFor}`);
  const upstream = net.connect(Number(target.port), target.hostname);
  upstream.write(`${lines.join('\r\n')}\r\n\r\n`);
  if (head.length) upstream.write(head);
  upstream.setNoDelay(true);
  if (socket instanceof net.Socket) socket.setNoDelay(true);
  // Each side's end is passed on (a WebSocket's closing handshake completes through it); an error ends both.
  socket.pipe(upstream);
  upstream.pipe(socket);
  upstream.on('error', () => socket.destroy());
  upstream.on('close', (hadError) => hadError && socket.destroy());
  socket.on('error', () => upstream.destroy());
  // What the browser sent before it went is still written to the holder before the connection ends.
  socket.on('close', () => {
    upstream.end();
    setTimeout(() => upstream.destroy(), 5000).unref();
  });
}

/**
 * WebSocket upgrades (kernel channels, terminals) under the same path, checked the same way before a byte reaches
 * Jupyter. Browsers cannot set headers on a WebSocket, so the access token may come as the `token` query
 * parameter; it is removed before forwarding. Every open socket is tracked until its token expires, its sign-in
 * ends or its user loses the project (gateway-sockets.ts).
 */
export function registerRuntimeUpgrades(
  app: FastifyInstance,
  ctx: AppContext,
  manager: RuntimeManager,
  tokens: AccessTokens,
): GatewaySockets {
  const sockets = new GatewaySockets(ctx, undefined, manager.instance.id);
  app.decorate('runtimeSockets', sockets);
  // Before the server stops accepting: open sockets would otherwise hold its drain until they end.
  app.addHook('preClose', async () => sockets.close());
  const upgrade = (request: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    void (async () => {
      const match = PROXY_PATH.exec(request.url ?? '');
      if (!match) return refuse(socket, 404, 'Not Found');
      const query = new URLSearchParams(match[3]?.slice(1) ?? '');
      const header = request.headers['x-authorization'];
      const token = query.get('token') ?? (Array.isArray(header) ? header[0] : header);
      const auth = token ? await tokens.verify(token) : null;
      if (!auth) return refuse(socket, 401, 'Unauthorized');
      let location;
      try {
        ({ location } = await authorise(ctx, manager, auth, match[1]!, wasForwarded(request)));
      } catch (error) {
        const status = error instanceof AppError ? error.status : 500;
        return refuse(socket, status, status === 401 ? 'Unauthorized' : status === 404 ? 'Not Found' : 'Forbidden');
      }
      if ('holder' in location) return forwardUpgrade(request, socket, head, location.holder, manager.instance.id);
      const { endpoint } = location;
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
      // The same user's next socket to the same kernel session or terminal gets what this one could not send.
      const parking = `${auth.userId}:${projectId}:${match[2] ?? '/'}:${query.get('session_id') ?? ''}`;
      const replay = await sockets.takeParked(parking);
      if (socket.destroyed) {
        if (replay) sockets.park(parking, replay);
        return;
      }
      const upstream = net.connect(Number(target.port), target.hostname);
      // Written before the connection opens, so the upgrade request goes first, before any byte of the browser's.
      upstream.write(`${lines.join('\r\n')}\r\n\r\n`);
      if (head.length) upstream.write(head);
      upstream.setNoDelay(true);
      if (socket instanceof net.Socket) socket.setNoDelay(true);
      const closed = new Promise((resolve) => socket.once('close', resolve));
      const link = bridge(socket, upstream, {
        // A data frame from the browser is activity; pings and pongs of an idle open tab are not.
        onBrowserData: (chunk) => {
          const opcode = chunk[0]! & 0x0f;
          if (opcode !== 0x9 && opcode !== 0xa) manager.touch(projectId);
        },
        replay,
        park: (frames) => sockets.park(parking, frames),
      });
      const forget = sockets.add({
        projectId,
        auth,
        expiresAt: accessTokenExpiry(token!),
        upgradedAt: link.upgradedAt,
        notify: (text) => link.notify(text),
        close: (code, reason) => {
          sockets.closing(parking, closed);
          link.close(code, reason);
        },
      });
      socket.once('close', forget);
    })().catch(() => socket.destroy());
  };
  onUpgrade(app, (path) => PROXY_PATH.test(path), upgrade);
  return sockets;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The gateway's open WebSockets (tests run their access check directly). */
    runtimeSockets: GatewaySockets;
  }
}
