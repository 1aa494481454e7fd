import type { TClientMessage, TServerMessage } from '@aiedu/contracts';
import WebSocket from 'ws';

const LIVE = '/api/v1/schedules/live';

/** A browser's live socket in a test: what it was sent, in order, and a way to wait for the next of a kind. */
export class LiveTestClient {
  readonly messages: TServerMessage[] = [];
  private seen = 0;
  private waiters: (() => void)[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data) => {
      this.messages.push(JSON.parse(String(data)) as TServerMessage);
      for (const wake of this.waiters.splice(0)) wake();
    });
    this.closed = new Promise((resolve) =>
      socket.once('close', (code, reason) => {
        resolve({ code, reason: String(reason) });
        for (const wake of this.waiters.splice(0)) wake();
      }),
    );
  }

  /** Opens a socket to a listening server (`http://127.0.0.1:<port>`) with an access token. */
  static async connect(base: string, token: string, language = 'en'): Promise<LiveTestClient> {
    const url = `${base.replace(/^http/, 'ws')}${LIVE}?token=${encodeURIComponent(token)}&language=${language}`;
    const socket = new WebSocket(url);
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    return new LiveTestClient(socket);
  }

  /** The HTTP status a server answers an upgrade it refuses (null when it opens). */
  static async refusal(base: string, query: string): Promise<number | null> {
    const socket = new WebSocket(`${base.replace(/^http/, 'ws')}${LIVE}${query}`);
    // Ending a socket that never opened reports an error of its own.
    socket.on('error', () => undefined);
    return new Promise((resolve) => {
      socket.once('unexpected-response', (_request, response) => {
        resolve(response.statusCode ?? 0);
        socket.terminate();
      });
      socket.once('open', () => {
        resolve(null);
        socket.close();
      });
    });
  }

  send(message: TClientMessage | Record<string, unknown>) {
    this.socket.send(JSON.stringify(message));
  }

  /**
   * The next message (after the last one taken) that `matches`; messages before it are passed over. Fails after
   * `timeoutMs`, or when the socket closes first.
   */
  async next<T extends TServerMessage['type']>(
    type: T,
    matches: (message: Extract<TServerMessage, { type: T }>) => boolean = () => true,
    timeoutMs = 10_000,
  ): Promise<Extract<TServerMessage, { type: T }>> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      while (this.seen < this.messages.length) {
        const message = this.messages[this.seen++]!;
        if (message.type === type && matches(message as Extract<TServerMessage, { type: T }>)) {
          return message as Extract<TServerMessage, { type: T }>;
        }
      }
      if (this.socket.readyState === WebSocket.CLOSED) throw new Error(`closed before a ${type} message`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no ${type} message within ${timeoutMs} ms: ${JSON.stringify(this.messages)}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  close() {
    this.socket.close();
    return this.closed;
  }
}
