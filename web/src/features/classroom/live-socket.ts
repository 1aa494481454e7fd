import { CLASSROOM_API, CLASSROOM_SOCKET_CLOSE, type TClientMessage, type TServerMessage } from '@aiedu/contracts';

/**
 * The browser's one live classroom socket (`CLASSROOM_API.live`), shared by every classroom the tab shows. It opens
 * when the first classroom is shown and closes with the last; it joins each classroom again whenever it (re)opens,
 * so the server's `joined` answer puts the page where the class is.
 *
 * - `renew-token`: the token is renewed through the API client (one refresh shared with every request) and sent.
 * - Closed with 4401 (the token ran out, the sign-in ended): renewed, then reconnected at once; a refused renewal
 *   signs out as any request would, and the socket stays closed.
 * - Refused or dropped otherwise: reconnected after 1, 2, 4 … 30 s (with jitter, so a class does not come back all
 *   in the same millisecond). Meanwhile the status is `retrying` and the views poll the REST routes.
 */

export type LiveStatus = 'connecting' | 'live' | 'retrying';
export type LiveListener = (message: TServerMessage) => void;

export interface LiveEnvironment {
  createSocket(url: string): WebSocket;
  /** The access token stored now. */
  token(): string | null;
  language(): string;
  /** The page's origin as a WebSocket origin: `wss://host`. */
  origin(): string;
  /** True once a token other than `sent` is stored, false when the sign-in has ended; rejects when unreachable. */
  renewToken(sent: string | null): Promise<boolean>;
  /** Renews a stored token about to expire, before a socket opens with it (null: nothing to wait for). */
  beforeConnect(): Promise<void> | null;
  setTimeout(run: () => void, ms: number): number;
  clearTimeout(id: number): void;
  random(): number;
}

/** `WebSocket.OPEN`, without reading the global (tests replace it). */
const OPEN = 1;
export const RECONNECT_MIN_MS = 1_000;
export const RECONNECT_MAX_MS = 30_000;

/** The delay before reconnect attempt `attempt` (0-based): doubling, capped, between half and all of it. */
export function reconnectDelay(attempt: number, random: number): number {
  const full = Math.min(RECONNECT_MAX_MS, RECONNECT_MIN_MS * 2 ** attempt);
  return Math.round(full / 2 + (full / 2) * random);
}

export class LiveSocket {
  private socket: WebSocket | null = null;
  private readonly rooms = new Map<string, Set<LiveListener>>();
  private readonly statusListeners = new Set<(status: LiveStatus) => void>();
  private current: LiveStatus = 'connecting';
  private failures = 0;
  private retry: number | null = null;
  /** The token the socket holds: the one it opened with, or the last it was sent. */
  private held: string | null = null;
  /** Grows whenever the socket is given up (no classroom left): a connect under way for an older one stops. */
  private generation = 0;

  constructor(private readonly env: LiveEnvironment) {}

  get status(): LiveStatus {
    return this.current;
  }

  /** Shows a classroom: its messages go to `listener` until the returned function is called. */
  join(scheduleId: string, listener: LiveListener): () => void {
    let room = this.rooms.get(scheduleId);
    if (!room) {
      this.rooms.set(scheduleId, (room = new Set()));
      this.send({ type: 'join', scheduleId });
    }
    room.add(listener);
    if (!this.socket && this.retry === null) this.connect();
    return () => {
      room.delete(listener);
      if (room.size > 0 || this.rooms.get(scheduleId) !== room) return;
      this.rooms.delete(scheduleId);
      this.send({ type: 'leave', scheduleId });
      if (this.rooms.size === 0) this.stop();
    };
  }

  onStatus(listener: (status: LiveStatus) => void): () => void {
    this.statusListeners.add(listener);
    return () => this.statusListeners.delete(listener);
  }

  /** Sends a message while the socket is open; false when it is not (the caller uses the REST route). */
  send(message: TClientMessage): boolean {
    if (this.socket?.readyState !== OPEN) return false;
    this.socket.send(JSON.stringify(message));
    return true;
  }

  private setStatus(status: LiveStatus) {
    if (this.current === status) return;
    this.current = status;
    for (const listener of [...this.statusListeners]) listener(status);
  }

  private connect() {
    this.retry = null;
    const generation = this.generation;
    const renewing = this.env.beforeConnect();
    if (!renewing) return this.open();
    void renewing.then(() => {
      if (generation === this.generation) this.open();
    });
  }

  private open() {
    if (this.socket || this.rooms.size === 0) return;
    this.held = this.env.token();
    const query = new URLSearchParams({ token: this.held ?? '', language: this.env.language() });
    const socket = this.env.createSocket(`${this.env.origin()}${CLASSROOM_API.live}?${query.toString()}`);
    this.socket = socket;
    socket.onopen = () => {
      this.failures = 0;
      this.setStatus('live');
      for (const scheduleId of this.rooms.keys()) this.send({ type: 'join', scheduleId });
    };
    socket.onmessage = (event: MessageEvent) => this.receive(String(event.data));
    socket.onclose = (event: CloseEvent) => {
      if (this.socket !== socket) return;
      this.socket = null;
      if (this.rooms.size > 0) void this.closed(event.code);
    };
  }

  private receive(text: string) {
    let message: TServerMessage;
    try {
      message = JSON.parse(text) as TServerMessage;
    } catch {
      return;
    }
    if (message.type === 'renew-token') return void this.renew();
    const rooms = 'scheduleId' in message && message.scheduleId ? [this.rooms.get(message.scheduleId)] : this.rooms;
    for (const room of rooms.values()) for (const listener of [...(room ?? [])]) listener(message);
  }

  /** The server asked for a fresh token: without one it closes the socket (4401), which reconnects. */
  private async renew() {
    try {
      if (!(await this.env.renewToken(this.held))) return;
    } catch {
      return;
    }
    const token = this.env.token();
    if (token && this.send({ type: 'token', token })) this.held = token;
  }

  private async closed(code: number) {
    this.setStatus('retrying');
    const generation = this.generation;
    if (code === CLASSROOM_SOCKET_CLOSE.renewToken) {
      let renewed: boolean | null;
      try {
        renewed = await this.env.renewToken(this.held);
      } catch {
        renewed = null;
      }
      if (generation !== this.generation) return;
      // The sign-in has ended: the API client signs out; nothing to reconnect with.
      if (renewed === false) return;
      if (renewed) return this.connect();
    }
    const delay = reconnectDelay(this.failures, this.env.random());
    this.failures += 1;
    this.retry = this.env.setTimeout(() => this.connect(), delay);
  }

  /** No classroom is shown any more: the socket closes and nothing reconnects. */
  private stop() {
    this.generation += 1;
    if (this.retry !== null) this.env.clearTimeout(this.retry);
    this.retry = null;
    this.failures = 0;
    const socket = this.socket;
    this.socket = null;
    socket?.close(1000, 'left');
    this.setStatus('connecting');
  }
}
