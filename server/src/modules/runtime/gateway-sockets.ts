import { randomUUID } from 'node:crypto';
import { RUNTIME_SOCKET_CLOSE, runtimeSocketNotice } from '@aiedu/contracts';
import type { SessionsEnded } from '../../platform/auth/session-events.js';
import type { AuthContext } from '../../platform/auth/tokens.js';
import type { AppContext } from '../../platform/context.js';
import { AppError } from '../../platform/errors.js';
import { activeSessions, isSessionActive } from '../auth/session.service.js';
import { loadProjectFor } from '../project/project-access.js';

const CLOSE_RENEW_TOKEN = RUNTIME_SOCKET_CLOSE.renewToken;
const CLOSE_NO_ACCESS = RUNTIME_SOCKET_CLOSE.noAccess;
const CHECK_INTERVAL_MS = 10_000;
const PARK_MS = 60_000;
const UPGRADE_GRACE_MS = 3_000;
const SETTLE_MS = 2_000;
/** How long a client told its token expired has to renew it or close the socket itself. */
const RENEW_WINDOW_MS = 10_000;

export interface GatewaySocket {
  projectId: string;
  /** Who the socket's access token names; a renewal replaces it. */
  auth: AuthContext;
  /** When the socket's access token expires (ms since the epoch); a renewal moves it. */
  expiresAt: number;
  /** When Jupyter answered the upgrade (ms since the epoch), or null while it has not. */
  upgradedAt(): number | null;
  /** Sends the client a text frame of the gateway's own. */
  notify(text: string): void;
  close(code: number, reason: string): void;
}

/** A socket's name in notices: the id of the process that holds it, a dot, and its own id. */
export const SOCKET_ID = /^([0-9a-f-]{36})\.[0-9a-f-]{36}$/i;

/** The process that holds the socket named `id` (another one forwards the socket's renewal there). */
export function socketHolder(id: string): string | null {
  return SOCKET_ID.exec(id)?.[1] ?? null;
}

/** What the gateway keeps of an open socket: its name in notices, and its timers. */
interface Tracked {
  id: string;
  expiry: NodeJS.Timeout;
  /** Set once the client was told its token expired: closes the socket when the time to renew has passed. */
  renewBy: NodeJS.Timeout | null;
}

/**
 * The kernel and terminal WebSockets open through the gateway. None outlives what opened it. When its access token
 * expires, the client is told so (`runtimeSocketNotice`, naming the socket) and hands the socket a fresh token
 * (`renew`); the socket stays open, so nothing either side sends at that moment is in flight across a reconnect. A
 * client that cannot closes the socket itself, which loses nothing it sent (a close the server starts can cross a
 * frame the browser is sending), and reconnects to the same kernel, whose output Jupyter kept meanwhile. A socket
 * without a fresh token 10 s after the notice closes (4401). One whose sign-in ends (logout, a reused refresh
 * token, a password change or reset, an administrator switching off its account, school or customer; at once in
 * this process, within 10 s otherwise) closes at once (4401), and (4403) one whose user may no longer edit the
 * project.
 */
export class GatewaySockets {
  private readonly open = new Map<GatewaySocket, Tracked>();
  private readonly byId = new Map<string, GatewaySocket>();
  private readonly parked = new Map<string, { frames: Buffer; timer: NodeJS.Timeout }>();
  private readonly closingSockets = new Map<string, Set<Promise<unknown>>>();
  private readonly timer: NodeJS.Timeout;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly ctx: AppContext,
    private readonly renewWindowMs = RENEW_WINDOW_MS,
    /** The process's id in `server_instances`, which starts every socket's name. */
    readonly instanceId: string = randomUUID(),
  ) {
    this.timer = setInterval(() => void this.check().catch(() => undefined), CHECK_INTERVAL_MS);
    this.timer.unref();
    this.unsubscribe = ctx.sessions.onEnded((ended) => this.sessionsEnded(ended));
  }

  get size(): number {
    return this.open.size;
  }

  /** Tracks a socket until it closes; answers the function that forgets it. */
  add(socket: GatewaySocket): () => void {
    const tracked: Tracked = { id: `${this.instanceId}.${randomUUID()}`, expiry: this.expiryOf(socket), renewBy: null };
    this.open.set(socket, tracked);
    this.byId.set(tracked.id, socket);
    return () => this.forget(socket);
  }

  private expiryOf(socket: GatewaySocket): NodeJS.Timeout {
    const timer = setTimeout(
      () => {
        const tracked = this.open.get(socket);
        // A timer may fire before the token's clock says it expired (Node counts from the start of the event loop's
        // turn, and tokens may be read with another clock): wait for the rest rather than for the next round.
        if (tracked && socket.expiresAt > this.ctx.now().getTime()) tracked.expiry = this.expiryOf(socket);
        else this.expire(socket);
      },
      Math.max(0, socket.expiresAt - this.ctx.now().getTime()),
    );
    timer.unref();
    return timer;
  }

  private forget(socket: GatewaySocket): boolean {
    const tracked = this.open.get(socket);
    if (!tracked) return false;
    clearTimeout(tracked.expiry);
    if (tracked.renewBy) clearTimeout(tracked.renewBy);
    this.open.delete(socket);
    this.byId.delete(tracked.id);
    return true;
  }

  private end(socket: GatewaySocket, code: number, reason: string) {
    if (this.forget(socket)) socket.close(code, reason);
  }

  /**
   * Tells the client of a socket whose token expired to renew it, and closes the socket if it has no fresh token
   * `renewWindowMs` later; never before Jupyter has had `UPGRADE_GRACE_MS` after answering its upgrade: Jupyter
   * holds an upgrade until a busy kernel answers (a cell may run for minutes), and a kernel socket that closes
   * right after it opened makes Jupyter drop the output it kept for the session, before replaying it. Ended
   * sign-ins and lost access still close at once.
   */
  private expire(socket: GatewaySocket) {
    const tracked = this.open.get(socket);
    if (!tracked || tracked.renewBy || socket.expiresAt > this.ctx.now().getTime()) return;
    // The grace is a span of real time, whatever clock the tokens are read with.
    const upgraded = socket.upgradedAt();
    const wait = upgraded === null ? UPGRADE_GRACE_MS : upgraded + UPGRADE_GRACE_MS - Date.now();
    if (wait > 0) {
      setTimeout(() => this.expire(socket), wait).unref();
      return;
    }
    tracked.renewBy = setTimeout(() => this.end(socket, CLOSE_RENEW_TOKEN, 'token expired'), this.renewWindowMs);
    tracked.renewBy.unref();
    socket.notify(runtimeSocketNotice(tracked.id));
  }

  /**
   * The socket named `id` in a notice takes the caller's access token (which expires at `expiresAt`) in place of
   * the one that opened it, after the same checks as an upgrade: the same user, a sign-in that stands, a project
   * the user may still edit (otherwise the socket closes, 4403). Anything else, including a socket that has
   * closed meanwhile, is not found: the client then reconnects.
   */
  async renew(id: string, auth: AuthContext, expiresAt: number): Promise<void> {
    const socket = this.byId.get(id);
    if (!socket || socket.auth.userId !== auth.userId) throw new AppError('NOT_FOUND');
    if (!(await isSessionActive(this.ctx.db, auth.sessionId))) throw new AppError('TOKEN_EXPIRED');
    try {
      await loadProjectFor(this.ctx.db, auth, socket.projectId, 'edit');
    } catch (error) {
      this.end(socket, CLOSE_NO_ACCESS, 'no access');
      throw error;
    }
    const tracked = this.open.get(socket);
    if (!tracked) throw new AppError('NOT_FOUND');
    socket.auth = auth;
    socket.expiresAt = expiresAt;
    if (tracked.renewBy) clearTimeout(tracked.renewBy);
    tracked.renewBy = null;
    clearTimeout(tracked.expiry);
    tracked.expiry = this.expiryOf(socket);
  }

  private sessionsEnded(ended: SessionsEnded) {
    if ('all' in ended) {
      void this.check().catch(() => undefined);
      return;
    }
    for (const socket of [...this.open.keys()]) {
      const hit =
        'sessionId' in ended
          ? socket.auth.sessionId === ended.sessionId
          : socket.auth.userId === ended.userId && socket.auth.sessionId !== ended.exceptSessionId;
      if (hit) this.end(socket, CLOSE_RENEW_TOKEN, 'session ended');
    }
  }

  /** One round: expired tokens, ended sign-ins (one query), and each user's access to each project. */
  async check(): Promise<void> {
    const sockets = [...this.open.keys()];
    for (const socket of sockets) this.expire(socket);
    const live = sockets.filter((s) => this.open.has(s));
    const active = await activeSessions(this.ctx.db, [...new Set(live.map((s) => s.auth.sessionId))]);
    const access = new Map<string, Promise<boolean>>();
    for (const socket of live) {
      if (!active.has(socket.auth.sessionId)) {
        this.end(socket, CLOSE_RENEW_TOKEN, 'session ended');
        continue;
      }
      const key = `${socket.auth.userId}:${socket.projectId}`;
      if (!access.has(key)) {
        access.set(
          key,
          loadProjectFor(this.ctx.db, socket.auth, socket.projectId, 'edit').then(
            () => true,
            () => false,
          ),
        );
      }
      if (!(await access.get(key))) this.end(socket, CLOSE_NO_ACCESS, 'no access');
    }
  }

  /**
   * Frames a browser sent after the gateway had asked Jupyter to close its socket: kept for a minute for the same
   * user's next socket to the same kernel session or terminal, which sends them first. Nothing typed or run in
   * the moment of a token renewal is lost.
   */
  park(key: string, frames: Buffer): void {
    if (frames.length === 0) return;
    const timer = setTimeout(() => this.parked.delete(key), PARK_MS);
    timer.unref();
    const earlier = this.parked.get(key);
    if (earlier) clearTimeout(earlier.timer);
    this.parked.set(key, { frames: Buffer.concat([earlier?.frames ?? Buffer.alloc(0), frames]), timer });
  }

  /**
   * A socket of `key` the gateway is closing: the next socket of that key waits (up to 2 s) for `closed` before it
   * takes what was parked, since a browser may reconnect before the old socket's end reaches this process.
   */
  closing(key: string, closed: Promise<unknown>): void {
    let pending = this.closingSockets.get(key);
    if (!pending) {
      pending = new Set();
      this.closingSockets.set(key, pending);
    }
    // Parking happens in the socket's own close handler; this settles a turn later.
    const settled = closed.then(() => new Promise((resolve) => setImmediate(resolve)));
    pending.add(settled);
    void settled.then(() => {
      pending.delete(settled);
      if (pending.size === 0 && this.closingSockets.get(key) === pending) this.closingSockets.delete(key);
    });
  }

  /** The frames parked for `key`, once every socket of that key the gateway was closing has ended (at most 2 s). */
  async takeParked(key: string): Promise<Buffer | null> {
    const pending = this.closingSockets.get(key);
    if (pending?.size) {
      let timer: NodeJS.Timeout | undefined;
      const limit = new Promise((resolve) => (timer = setTimeout(resolve, SETTLE_MS)));
      await Promise.race([Promise.all(pending), limit]);
      clearTimeout(timer);
    }
    return this.unpark(key);
  }

  private unpark(key: string): Buffer | null {
    const parked = this.parked.get(key);
    if (!parked) return null;
    clearTimeout(parked.timer);
    this.parked.delete(key);
    return parked.frames;
  }

  /** The server is shutting down: every socket closes ("going away"), so the drain does not wait on them. */
  close(): void {
    clearInterval(this.timer);
    this.unsubscribe();
    for (const socket of [...this.open.keys()]) this.end(socket, 1001, 'server shutting down');
  }
}
