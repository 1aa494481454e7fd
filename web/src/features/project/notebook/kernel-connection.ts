import type { RunState } from '@aiedu/contracts';
import { readSession } from '../../../app/session';
import { jupyterSocketUrl, reconnectAfter, renewBeforeSocket, wireGatewaySocket } from '../jupyter-client';
import type { Output } from './notebook-model';

interface Message {
  header: { msg_id: string; msg_type: string };
  parent_header: { msg_id?: string };
  content: Record<string, unknown>;
  channel: string;
}

export interface ExecuteHandlers {
  onOutput(output: Output): void;
  onCount(count: number): void;
}

interface Pending extends ExecuteHandlers {
  resolve(ok: boolean): void;
  failed: boolean;
}

/**
 * One kernel's channels over the gateway's WebSocket, in the Jupyter messaging protocol (v5.3): execute
 * requests out, stream/result/display/error outputs and status back.
 *
 * The connection names its session (`session_id`), so after a dropped connection Jupyter replays what the kernel
 * sent meanwhile: a cell that was running keeps its place and its output. When the access token expires the gateway
 * says so and the connection hands the socket a renewed token; if it cannot, it closes the socket itself (a cell
 * run meanwhile waits for the next one: nothing is sent on a socket that is closing), renews the token and
 * reconnects at once, without the editor noticing; it does the same when the gateway closes the socket (the
 * sign-in ended). Only a connection that cannot come back fails the cells waiting on it.
 */
export class KernelConnection {
  private socket: WebSocket | null = null;
  private readonly session = crypto.randomUUID();
  private readonly pending = new Map<string, Pending>();
  private closed = false;
  /** Between a drop and the next socket: a cell run now waits for it instead of failing. */
  private reconnecting = false;
  /**
   * "ready" is what the editor last heard from this connection: a reconnect that opens is then silent. After
   * "loading" or "error" (the first socket, one that could not come back) the next socket to open says "ready".
   */
  private shownReady = false;

  constructor(
    private readonly projectId: string,
    readonly kernelId: string,
    private readonly onState: (state: RunState) => void,
  ) {
    this.connect(true);
  }

  private connect(announce: boolean) {
    if (announce) this.show('loading');
    const renewing = renewBeforeSocket();
    // A cell run meanwhile waits for the renewal and the socket opened after it.
    this.reconnecting = renewing !== null;
    if (renewing) void renewing.then(() => this.open());
    else this.open();
  }

  private open() {
    this.reconnecting = false;
    if (this.closed) return;
    const token = readSession().token;
    const socket = new WebSocket(
      jupyterSocketUrl(this.projectId, `/api/kernels/${this.kernelId}/channels`, { session_id: this.session }),
    );
    this.socket = socket;
    socket.onopen = () => {
      if (!this.shownReady) this.show('ready');
    };
    wireGatewaySocket(socket, token, {
      message: (data) => this.receive(JSON.parse(data) as Message),
      // From the close on, a cell run waits for the next socket.
      closing: () => (this.reconnecting = true),
      close: (code, lastToken) => void this.reconnect(code, lastToken),
    });
  }

  private show(state: 'loading' | 'ready' | 'error') {
    this.shownReady = state === 'ready';
    this.onState(state);
  }

  private failPending() {
    for (const p of this.pending.values()) p.resolve(false);
    this.pending.clear();
  }

  private async reconnect(code: number, sentToken: string | null) {
    if (this.closed) return;
    this.reconnecting = true;
    const next = await reconnectAfter(code, this.projectId, `/api/kernels/${this.kernelId}`, sentToken);
    if (this.closed) return;
    if (next === 'now') return this.connect(false);
    this.reconnecting = false;
    this.failPending();
    this.show('error');
    if (next === 'later') this.connect(true);
  }

  private receive(message: Message) {
    const pending = this.pending.get(message.parent_header.msg_id ?? '');
    if (!pending) return;
    const { content } = message;
    switch (message.header.msg_type) {
      case 'execute_input':
        pending.onCount(Number(content.execution_count));
        break;
      case 'stream':
        pending.onOutput({
          output_type: 'stream',
          name: content.name === 'stderr' ? 'stderr' : 'stdout',
          text: String(content.text),
        });
        break;
      case 'execute_result':
      case 'display_data':
        pending.onOutput({
          output_type: message.header.msg_type,
          data: content.data as Record<string, string>,
          metadata: (content.metadata as Record<string, unknown>) ?? {},
          ...(message.header.msg_type === 'execute_result' ? { execution_count: Number(content.execution_count) } : {}),
        });
        break;
      case 'error':
        pending.failed = true;
        pending.onOutput({
          output_type: 'error',
          ename: String(content.ename),
          evalue: String(content.evalue),
          traceback: content.traceback as string[],
        });
        break;
      case 'status':
        if (content.execution_state === 'idle' && message.channel === 'iopub') {
          this.pending.delete(message.parent_header.msg_id!);
          pending.resolve(!pending.failed);
        }
        break;
    }
  }

  get ready(): boolean {
    return this.socket?.readyState === WebSocket.OPEN;
  }

  /** Waits (up to 15 s) for a connection still opening or coming back, so a cell run then is not lost. */
  private async opened(): Promise<boolean> {
    const deadline = Date.now() + 15_000;
    while ((this.reconnecting || this.socket?.readyState === WebSocket.CONNECTING) && Date.now() < deadline) {
      await new Promise((r) => window.setTimeout(r, 100));
    }
    return this.ready;
  }

  /** Runs code; answers true when it finished without an error. */
  async execute(code: string, handlers: ExecuteHandlers): Promise<boolean> {
    const msgId = crypto.randomUUID();
    const open = await this.opened();
    return new Promise((resolve) => {
      if (!open) return resolve(false);
      const request = JSON.stringify({
        header: {
          msg_id: msgId,
          username: '',
          session: this.session,
          msg_type: 'execute_request',
          version: '5.3',
          date: new Date().toISOString(),
        },
        parent_header: {},
        metadata: {},
        content: {
          code,
          silent: false,
          store_history: true,
          user_expressions: {},
          allow_stdin: false,
          stop_on_error: true,
        },
        channel: 'shell',
        buffers: [],
      });
      this.pending.set(msgId, { ...handlers, resolve, failed: false });
      this.socket!.send(request);
    });
  }

  close() {
    this.closed = true;
    this.socket?.close();
  }
}
