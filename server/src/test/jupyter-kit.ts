import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { readRuntimeSocketNotice, type RuntimeSocketNotice } from '@aiedu/contracts';
import WebSocket from 'ws';

/** Route tests that need a real Jupyter skip only when Debian's jupyter-server is not installed (CI installs it). */
export const JUPYTER_MISSING =
  spawnSync('/usr/bin/python3', ['-c', 'import jupyter_server, ipykernel, numpy, matplotlib'], { stdio: 'ignore' })
    .status !== 0;
if (JUPYTER_MISSING) {
  console.warn(
    'Skipping the notebook runtime tests: /usr/bin/python3 cannot import jupyter_server (install the Debian packages ' +
      'jupyter-server python3-ipykernel python3-numpy python3-matplotlib python3-venv, as .ci/run does)',
  );
}

export interface KernelOutput {
  msgType: string;
  content: Record<string, unknown>;
}

function message(msgType: string, content: object, session: string) {
  const msgId = randomUUID();
  return {
    msgId,
    text: JSON.stringify({
      header: {
        msg_id: msgId,
        username: 'test',
        session,
        msg_type: msgType,
        version: '5.3',
        date: new Date().toISOString(),
      },
      parent_header: {},
      metadata: {},
      content,
      channel: 'shell',
      buffers: [],
    }),
  };
}

/** A kernel's channels over a WebSocket, speaking the Jupyter messaging protocol like the editor does. */
export class KernelChannel {
  private readonly listeners = new Set<
    (m: { parent: string; msgType: string; content: Record<string, unknown> }) => void
  >();

  /** How the socket ended: a close code of the gateway's (4401, 4403) or Jupyter's. */
  readonly closed: Promise<{ code: number; reason: string }>;
  /** The gateway's notices that the token expired, in order. */
  readonly notices: RuntimeSocketNotice[] = [];

  private constructor(
    readonly socket: WebSocket,
    private readonly session: string,
  ) {
    this.closed = new Promise((resolve) =>
      socket.once('close', (code, reason) => resolve({ code, reason: reason.toString() })),
    );
    socket.on('message', (data) => {
      const notice = readRuntimeSocketNotice(String(data));
      if (notice) return void this.notices.push(notice);
      const parsed = JSON.parse(String(data)) as {
        parent_header: { msg_id?: string };
        header: { msg_type: string };
        content: Record<string, unknown>;
        channel: string;
      };
      if (parsed.channel !== 'iopub') return;
      for (const l of this.listeners) {
        l({ parent: parsed.parent_header.msg_id ?? '', msgType: parsed.header.msg_type, content: parsed.content });
      }
    });
  }

  /** Opens the channels; a reconnect passes the session of the connection it replaces (as the editor does). */
  static open(url: string, headers: Record<string, string> = {}, session = randomUUID()): Promise<KernelChannel> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(url, { headers });
      socket.once('open', () => resolve(new KernelChannel(socket, session)));
      socket.once('unexpected-response', (_req, res) => reject(new Error(`upgrade refused: ${res.statusCode}`)));
      socket.once('error', reject);
    });
  }

  /** Sends code and answers the outputs once the kernel is idle again (or `timeoutMs` passes). */
  execute(code: string, timeoutMs = 30_000): Promise<KernelOutput[]> {
    const { msgId } = this.send(code);
    return this.collect(msgId, timeoutMs);
  }

  send(code: string) {
    const sent = message(
      'execute_request',
      { code, silent: false, store_history: true, user_expressions: {}, allow_stdin: false, stop_on_error: true },
      this.session,
    );
    this.socket.send(sent.text);
    return sent;
  }

  collect(msgId: string, timeoutMs = 30_000): Promise<KernelOutput[]> {
    return new Promise((resolve, reject) => {
      const outputs: KernelOutput[] = [];
      const timer = setTimeout(() => {
        this.listeners.delete(listener);
        reject(new Error(`no idle status after ${timeoutMs} ms: ${JSON.stringify(outputs)}`));
      }, timeoutMs);
      const listener = (m: { parent: string; msgType: string; content: Record<string, unknown> }) => {
        if (m.parent !== msgId) return;
        if (m.msgType === 'status' && m.content.execution_state === 'idle') {
          clearTimeout(timer);
          this.listeners.delete(listener);
          resolve(outputs);
        } else if (m.msgType !== 'status' && m.msgType !== 'execute_input') {
          outputs.push({ msgType: m.msgType, content: m.content });
        }
      };
      this.listeners.add(listener);
    });
  }

  /** The gateway's `count`-th notice (1 for the first), once it has come. */
  async notice(count = 1): Promise<RuntimeSocketNotice> {
    await waitFor(() => this.notices.length >= count);
    return this.notices[count - 1]!;
  }

  close() {
    this.socket.close();
  }
}

/** Waits until `check` holds, polling; never a fixed sleep. */
export async function waitFor(check: () => Promise<boolean> | boolean, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('condition not met in time');
}

export const stdoutOf = (outputs: KernelOutput[]) =>
  outputs
    .filter((o) => o.msgType === 'stream' && o.content.name === 'stdout')
    .map((o) => String(o.content.text))
    .join('');

/**
 * The loopback ports Jupyter servers listen on, whoever runs them: the listening sockets of `/proc/net/tcp` whose
 * owner's command line names Jupyter. Other ports (another test's fakes) are left alone.
 */
export function jupyterPorts(): number[] {
  const listening = new Map<string, number>();
  for (const line of readFileSync('/proc/net/tcp', 'utf8').split('\n').slice(1)) {
    const fields = line.trim().split(/\s+/);
    if (fields[3] === '0A' && fields[1]?.startsWith('0100007F:')) {
      listening.set(fields[9]!, parseInt(fields[1].split(':')[1]!, 16));
    }
  }
  const ports = new Set<number>();
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      if (!readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('jupyter')) continue;
      for (const fd of readdirSync(`/proc/${pid}/fd`)) {
        const inode = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))?.[1];
        const port = inode ? listening.get(inode) : undefined;
        if (port) ports.add(port);
      }
    } catch {
      // A process that ended meanwhile.
    }
  }
  return [...ports];
}
