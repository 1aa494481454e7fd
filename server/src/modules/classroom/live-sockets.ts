import { CLASSROOM_SOCKET_CLOSE, ZClientMessage, type Language, type TClientMessage } from '@aiedu/contracts';
import type { WebSocket } from 'ws';
import type { SessionsEnded } from '../../platform/auth/session-events.js';
import { accessTokenExpiry, type AuthContext } from '../../platform/auth/tokens.js';
import type { AppContext } from '../../platform/context.js';
import { AppError } from '../../platform/errors.js';
import { errorMessage } from '../../platform/i18n.js';
import { activeSessions, isSessionActive } from '../auth/session.service.js';
import { loadClassroom } from './classroom-access.js';
import { send, type ClassroomHub, type LiveClient } from './classroom-hub.js';
import { currentSession, showSection } from './session.service.js';

/** How long a client told to renew its token has to send one. */
const RENEW_WINDOW_MS = 10_000;
/** Sign-ins of every socket are checked this often (ended ones close at once when announced). */
const SESSION_CHECK_MS = 10_000;
/** Each socket's access to the classrooms it shows is checked again this often. */
const ACCESS_CHECK_MS = 60_000;
/** A socket that answers no ping within this is gone (a network that dropped without a word). */
const PING_MS = 30_000;

/** A browser's live socket: the hub's client, with its token's expiry and its messages handled in order. */
class LiveConnection implements LiveClient {
  renewBy: NodeJS.Timeout | null = null;
  expiry: NodeJS.Timeout | null = null;
  alive = true;
  private queue: Promise<void> = Promise.resolve();

  constructor(
    readonly ws: WebSocket,
    public auth: AuthContext,
    public expiresAt: number,
    readonly language: Language,
  ) {}

  send(text: string) {
    if (this.ws.readyState === this.ws.OPEN) this.ws.send(text);
  }

  close(code: number, reason: string) {
    this.ws.close(code, reason);
  }

  /** Runs the socket's messages one after the other: a `join` is answered before the `at` sent after it. */
  inTurn(run: () => Promise<void>) {
    this.queue = this.queue.then(run, run);
  }
}

/**
 * The live sockets of this process. None outlives what opened it: when its access token expires, the client is told
 * (`renew-token`) and sends a fresh one over the socket, or the socket closes 10 s later (4401); one whose sign-in
 * ends closes at once (4401; at once in this process and, with Redis, in the others, else at the next check); a
 * client that lost a classroom (no longer its teacher or student) is refused it (`1004`).
 */
export class LiveSockets {
  private readonly open = new Set<LiveConnection>();
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly unsubscribe: () => void;

  constructor(
    private readonly ctx: AppContext,
    readonly hub: ClassroomHub,
    /** Tests shorten it. */
    public renewWindowMs = RENEW_WINDOW_MS,
  ) {
    this.unsubscribe = ctx.sessions.onEnded((ended) => this.sessionsEnded(ended));
    this.every(SESSION_CHECK_MS, () => this.checkSessions());
    this.every(ACCESS_CHECK_MS, () => this.checkAccess());
    this.every(PING_MS, async () => this.ping());
  }

  private every(ms: number, run: () => Promise<void>) {
    const timer = setInterval(() => void run().catch(() => undefined), ms);
    timer.unref();
    this.timers.push(timer);
  }

  get size(): number {
    return this.open.size;
  }

  /** A socket the route accepted (its caller checked as every call is), with the token it opened with. */
  accept(ws: WebSocket, auth: AuthContext, token: string, language: Language) {
    const connection = new LiveConnection(ws, auth, accessTokenExpiry(token), language);
    this.open.add(connection);
    this.watchExpiry(connection);
    ws.on('pong', () => (connection.alive = true));
    ws.on('message', (data, binary) => {
      if (binary) return this.refuse(connection, null, new AppError('BAD_REQUEST'));
      connection.inTurn(() => this.handle(connection, String(data)));
    });
    ws.on('close', () => {
      this.forget(connection);
      connection.inTurn(() => this.hub.disconnect(connection));
    });
  }

  private forget(connection: LiveConnection) {
    this.open.delete(connection);
    if (connection.expiry) clearTimeout(connection.expiry);
    if (connection.renewBy) clearTimeout(connection.renewBy);
  }

  private end(connection: LiveConnection, reason: string) {
    this.forget(connection);
    connection.close(CLASSROOM_SOCKET_CLOSE.renewToken, reason);
  }

  private watchExpiry(connection: LiveConnection) {
    if (connection.expiry) clearTimeout(connection.expiry);
    connection.expiry = setTimeout(
      () => {
        if (connection.expiresAt > this.ctx.now().getTime()) return this.watchExpiry(connection);
        send(connection, { type: 'renew-token' });
        connection.renewBy ??= setTimeout(() => this.end(connection, 'token expired'), this.renewWindowMs);
        connection.renewBy.unref();
      },
      Math.max(0, connection.expiresAt - this.ctx.now().getTime()),
    );
    connection.expiry.unref();
  }

  private async handle(connection: LiveConnection, text: string) {
    let message: TClientMessage;
    try {
      message = ZClientMessage.parse(JSON.parse(text));
    } catch {
      return this.refuse(connection, null, new AppError('BAD_REQUEST'));
    }
    const scheduleId = 'scheduleId' in message ? message.scheduleId : null;
    try {
      await this.dispatch(connection, message);
    } catch (error) {
      this.refuse(connection, scheduleId, error);
    }
  }

  private async dispatch(connection: LiveConnection, message: TClientMessage) {
    const { hub } = this;
    if (message.type === 'token') return this.renew(connection, message.token);
    if (message.type === 'join') {
      const { role } = await loadClassroom(this.ctx, connection.auth, message.scheduleId);
      return hub.join(connection, message.scheduleId, role, await currentSession(this.ctx, message.scheduleId));
    }
    if (message.type === 'leave') return hub.leave(connection, message.scheduleId);
    const role = new Map(hub.membershipsOf(connection)).get(message.scheduleId);
    if (!role) throw new AppError('NOT_FOUND');
    if (message.type === 'show') {
      if (role !== 'teacher') throw new AppError('NO_EDIT_PERMISSION');
      await showSection(this.ctx, hub, message.scheduleId, message.sessionId, message.sectionId);
      return;
    }
    // What a teacher's own screen shows is nobody's business; only students are on the roster.
    if (role !== 'student') return;
    if (message.type === 'at') return hub.studentAt(connection, message.scheduleId, message.sectionId);
    return hub.answered(message.scheduleId, connection.auth.userId);
  }

  /** A fresh token for the socket: the same person, a sign-in that stands. */
  private async renew(connection: LiveConnection, token: string) {
    const auth = await this.ctx.tokens.verify(token);
    if (!auth || !(await isSessionActive(this.ctx.db, auth.sessionId))) throw new AppError('TOKEN_EXPIRED');
    if (auth.userId !== connection.auth.userId) throw new AppError('NO_PERMISSION_VISIT');
    connection.auth = auth;
    connection.expiresAt = accessTokenExpiry(token);
    if (connection.renewBy) clearTimeout(connection.renewBy);
    connection.renewBy = null;
    this.watchExpiry(connection);
  }

  private refuse(connection: LiveConnection, scheduleId: string | null, error: unknown) {
    const refusal = error instanceof AppError ? error : new AppError('UNKNOWN');
    send(connection, {
      type: 'refused',
      scheduleId,
      errorCode: refusal.code,
      errorMsg: errorMessage(refusal.entry, connection.language),
    });
  }

  private sessionsEnded(ended: SessionsEnded) {
    if ('all' in ended) return void this.checkSessions().catch(() => undefined);
    for (const connection of [...this.open]) {
      const { auth } = connection;
      const hit =
        'sessionId' in ended
          ? auth.sessionId === ended.sessionId
          : auth.userId === ended.userId && auth.sessionId !== ended.exceptSessionId;
      if (hit) this.end(connection, 'session ended');
    }
  }

  /** Every socket's sign-in, in one query: one that ended closes (4401). */
  private async checkSessions() {
    const connections = [...this.open];
    const active = await activeSessions(this.ctx.db, [...new Set(connections.map((c) => c.auth.sessionId))]);
    for (const connection of connections)
      if (!active.has(connection.auth.sessionId)) this.end(connection, 'session ended');
  }

  /** Every classroom every socket shows, checked again: one the caller lost is left and refused (`1004`). */
  private async checkAccess() {
    for (const connection of [...this.open]) {
      for (const [scheduleId, role] of this.hub.membershipsOf(connection)) {
        const now = await loadClassroom(this.ctx, connection.auth, scheduleId).then(
          (access) => (access.role === role ? null : new AppError('NOT_FOUND')),
          // A database that did not answer says nothing about access: the next round asks again.
          (error: unknown) => (error instanceof AppError ? error : null),
        );
        if (!now) continue;
        connection.inTurn(() => this.hub.leave(connection, scheduleId));
        this.refuse(connection, scheduleId, now);
      }
    }
  }

  private ping() {
    for (const connection of this.open) {
      if (!connection.alive) {
        this.forget(connection);
        connection.ws.terminate();
        continue;
      }
      connection.alive = false;
      connection.ws.ping();
    }
  }

  /** The server is shutting down: every socket closes ("going away") and the client reconnects elsewhere. */
  async close() {
    for (const timer of this.timers) clearInterval(timer);
    this.unsubscribe();
    for (const connection of [...this.open]) {
      this.forget(connection);
      connection.close(1001, 'server shutting down');
    }
    await this.hub.close();
  }
}
