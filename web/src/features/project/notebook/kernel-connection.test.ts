import { RUNTIME_SOCKET_CLOSE, runtimeSocketNotice } from '@aiedu/contracts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { KernelConnection } from './kernel-connection';

const renewToken = vi.fn<(sent: string | null) => Promise<boolean>>();
/** The socket's token renewal (`PUT …/runtime/sockets/<id>/token`). */
const put = vi.fn<(path: string) => Promise<null>>();
let token = 'token-1';
vi.mock('../../../app/api', () => ({
  api: { renewToken: (sent: string | null) => renewToken(sent), put: (path: string) => put(path) },
}));
vi.mock('../../../app/session', () => ({ readSession: () => ({ token }) }));

/** Stands in for the browser's WebSocket: the test opens, answers and closes it. */
class FakeSocket {
  static CONNECTING = 0;
  static OPEN = 1;
  static CLOSED = 3;
  static all: FakeSocket[] = [];
  readyState = FakeSocket.CONNECTING;
  sent: { header: { msg_id: string }; content: { code: string } }[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((event: { data: string }) => void) | null = null;
  onclose: ((event: { code: number }) => void) | null = null;
  constructor(readonly url: string) {
    FakeSocket.all.push(this);
  }
  send(text: string) {
    this.sent.push(JSON.parse(text));
  }
  closedByClient = false;
  close() {
    this.closedByClient = true;
    this.readyState = FakeSocket.CLOSED;
  }
  /** The gateway says the socket's token expired. */
  notice() {
    this.onmessage?.({ data: runtimeSocketNotice('socket-1') });
  }
  open() {
    this.readyState = FakeSocket.OPEN;
    this.onopen?.();
  }
  drop(code: number) {
    this.readyState = FakeSocket.CLOSED;
    this.onclose?.({ code });
  }
  reply(msgId: string, msgType: string, content: object) {
    const message = { header: { msg_id: 'x', msg_type: msgType }, parent_header: { msg_id: msgId }, content };
    this.onmessage?.({ data: JSON.stringify({ ...message, channel: 'iopub' }) });
  }
}

const latest = () => FakeSocket.all.at(-1)!;

describe('KernelConnection', () => {
  beforeEach(() => {
    FakeSocket.all = [];
    token = 'token-1';
    renewToken.mockReset();
    put.mockReset();
    vi.stubGlobal('WebSocket', FakeSocket);
  });
  afterEach(() => vi.unstubAllGlobals());

  it('renews the token and reconnects to the same session when the gateway closes for an expired token', async () => {
    const states: string[] = [];
    const kernel = new KernelConnection('p1', 'k1', (s) => states.push(s));
    latest().open();
    const outputs: unknown[] = [];
    const run = kernel.execute('print(1)', { onOutput: (o) => outputs.push(o), onCount: () => undefined });
    await vi.waitFor(() => expect(latest().sent).toHaveLength(1));
    const msgId = latest().sent[0]!.header.msg_id;
    const first = latest();

    renewToken.mockImplementation(async () => {
      token = 'token-2';
      return true;
    });
    first.drop(RUNTIME_SOCKET_CLOSE.renewToken);
    await vi.waitFor(() => expect(FakeSocket.all).toHaveLength(2));
    expect(renewToken).toHaveBeenCalledWith('token-1');
    const second = latest();
    expect(second.url).toContain('token=token-2');
    const session = new URL(first.url).searchParams.get('session_id');
    expect(session).toBeTruthy();
    expect(new URL(second.url).searchParams.get('session_id')).toBe(session);
    second.open();
    // Jupyter replays the running cell's output on the new socket; the cell completes as if nothing happened.
    second.reply(msgId, 'stream', { name: 'stdout', text: '1\n' });
    second.reply(msgId, 'status', { execution_state: 'idle' });
    await expect(run).resolves.toBe(true);
    expect(outputs).toEqual([{ output_type: 'stream', name: 'stdout', text: '1\n' }]);
    expect(states).toEqual(['loading', 'ready']);
    kernel.close();
  });

  it('hands the socket a renewed token when told its token expired, and goes on on the same socket', async () => {
    const states: string[] = [];
    const kernel = new KernelConnection('p1', 'k1', (s) => states.push(s));
    const first = latest();
    first.open();
    const outputs: unknown[] = [];
    const running = kernel.execute('print(1)', { onOutput: (o) => outputs.push(o), onCount: () => undefined });
    await vi.waitFor(() => expect(first.sent).toHaveLength(1));
    let renewed!: () => void;
    renewToken.mockImplementation(
      () =>
        new Promise((resolve) => {
          renewed = () => {
            token = 'token-2';
            resolve(true);
          };
        }),
    );
    put.mockResolvedValue(null);
    first.notice();
    expect(renewToken).toHaveBeenCalledWith('token-1');
    // While the renewal is under way the kernel's output still arrives, and a cell can still be run.
    first.reply(first.sent[0]!.header.msg_id, 'stream', { name: 'stdout', text: '1\n' });
    const next = kernel.execute('print(2)', { onOutput: () => undefined, onCount: () => undefined });
    await vi.waitFor(() => expect(first.sent).toHaveLength(2));
    renewed();
    await vi.waitFor(() => expect(put).toHaveBeenCalledWith('/gw/api/v1/runtime/sockets/socket-1/token'));
    first.reply(first.sent[0]!.header.msg_id, 'status', { execution_state: 'idle' });
    await expect(running).resolves.toBe(true);
    expect(outputs).toEqual([{ output_type: 'stream', name: 'stdout', text: '1\n' }]);
    expect(first.closedByClient).toBe(false);
    expect(FakeSocket.all).toHaveLength(1);

    // The sign-in ends later: the gateway closes the socket, and the reconnect starts from the renewed token.
    renewToken.mockReset();
    renewToken.mockResolvedValue(false);
    first.drop(RUNTIME_SOCKET_CLOSE.renewToken);
    await expect(next).resolves.toBe(false);
    expect(renewToken).toHaveBeenCalledWith('token-2');
    expect(states).toEqual(['loading', 'ready', 'error']);
    kernel.close();
  });

  it('closes the socket itself when its token cannot be handed over, and sends a cell run meanwhile on the next socket', async () => {
    const states: string[] = [];
    const kernel = new KernelConnection('p1', 'k1', (s) => states.push(s));
    const first = latest();
    first.open();
    renewToken.mockImplementation(async () => {
      token = 'token-2';
      return true;
    });
    // The socket closed at the gateway meanwhile (1004).
    put.mockRejectedValue(new Error('not found'));
    first.notice();
    await vi.waitFor(() => expect(first.closedByClient).toBe(true));
    const outputs: unknown[] = [];
    const run = kernel.execute('print(2)', { onOutput: (o) => outputs.push(o), onCount: () => undefined });
    // Jupyter answers the close (without a code, as the client sent none); only then does the next socket open.
    first.drop(1005);
    await vi.waitFor(() => expect(FakeSocket.all).toHaveLength(2));
    expect(renewToken).toHaveBeenCalledWith('token-1');
    const second = latest();
    expect(second.url).toContain('token=token-2');
    expect(new URL(second.url).searchParams.get('session_id')).toBe(new URL(first.url).searchParams.get('session_id'));
    expect(first.sent).toEqual([]);
    second.open();
    await vi.waitFor(() => expect(second.sent).toHaveLength(1));
    expect(second.sent[0]!.content.code).toBe('print(2)');
    second.reply(second.sent[0]!.header.msg_id, 'stream', { name: 'stdout', text: '2\n' });
    second.reply(second.sent[0]!.header.msg_id, 'status', { execution_state: 'idle' });
    await expect(run).resolves.toBe(true);
    expect(outputs).toEqual([{ output_type: 'stream', name: 'stdout', text: '2\n' }]);
    expect(states).toEqual(['loading', 'ready']);
    kernel.close();
  });

  it('stops when the project was taken away, failing the cell that waited', async () => {
    const states: string[] = [];
    const kernel = new KernelConnection('p1', 'k1', (s) => states.push(s));
    latest().open();
    const run = kernel.execute('1', { onOutput: () => undefined, onCount: () => undefined });
    await vi.waitFor(() => expect(latest().sent).toHaveLength(1));
    latest().drop(RUNTIME_SOCKET_CLOSE.noAccess);
    await expect(run).resolves.toBe(false);
    expect(states.at(-1)).toBe('error');
    expect(FakeSocket.all).toHaveLength(1);
    expect(renewToken).not.toHaveBeenCalled();
  });

  it('stops when the token cannot be renewed (the sign-in ended: the client signs out)', async () => {
    const kernel = new KernelConnection('p1', 'k1', () => undefined);
    latest().open();
    renewToken.mockResolvedValue(false);
    latest().drop(RUNTIME_SOCKET_CLOSE.renewToken);
    await vi.waitFor(() => expect(renewToken).toHaveBeenCalledOnce());
    await expect(kernel.execute('1', { onOutput: () => undefined, onCount: () => undefined })).resolves.toBe(false);
    expect(FakeSocket.all).toHaveLength(1);
  });
  it('keeps trying when the token renewal gets no answer, and reconnects once it is renewed', async () => {
    vi.useFakeTimers();
    const states: string[] = [];
    const kernel = new KernelConnection('p1', 'k1', (s) => states.push(s));
    latest().open();
    renewToken.mockRejectedValue(new TypeError('Failed to fetch'));
    latest().drop(RUNTIME_SOCKET_CLOSE.renewToken);
    await vi.advanceTimersByTimeAsync(1999);
    expect(FakeSocket.all).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(FakeSocket.all).toHaveLength(2);
    expect(states).toEqual(['loading', 'ready', 'error', 'loading']);

    renewToken.mockImplementation(async () => {
      token = 'token-2';
      return true;
    });
    latest().drop(RUNTIME_SOCKET_CLOSE.renewToken);
    await vi.advanceTimersByTimeAsync(0);
    expect(FakeSocket.all).toHaveLength(3);
    expect(latest().url).toContain('token=token-2');
    latest().open();
    expect(states.at(-1)).toBe('ready');
    kernel.close();
    vi.useRealTimers();
  });

  it('after a dropped network connection, reconnects when the kernel is still there and stops when it is gone', async () => {
    vi.useFakeTimers();
    const fetch = vi.spyOn(window, 'fetch').mockResolvedValue(new Response('{}', { status: 200 }));
    const states: string[] = [];
    const kernel = new KernelConnection('p1', 'k1', (s) => states.push(s));
    latest().open();
    latest().drop(1006);
    await vi.advanceTimersByTimeAsync(2000);
    expect(fetch).toHaveBeenCalledWith('/gw/api/v1/runtime/p1/api/kernels/k1', expect.anything());
    expect(FakeSocket.all).toHaveLength(2);
    expect(renewToken).not.toHaveBeenCalled();
    latest().open();

    fetch.mockResolvedValue(new Response('{}', { status: 404 }));
    latest().drop(1006);
    await vi.advanceTimersByTimeAsync(2000);
    expect(FakeSocket.all).toHaveLength(2);
    expect(states.at(-1)).toBe('error');
    kernel.close();
    fetch.mockRestore();
    vi.useRealTimers();
  });

  /** An access token (a JWT as the server signs them) that expires `inMs` from now. */
  const jwtExpiring = (inMs: number, name: string) => {
    const part = (value: object) =>
      btoa(JSON.stringify(value)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
    return `${part({ alg: 'HS256' })}.${part({ sub: name, exp: Math.ceil((Date.now() + inMs) / 1000) })}.sig`;
  };

  it('renews a token about to expire before it opens a socket, and a cell run waits for that socket', async () => {
    token = jwtExpiring(10_000, 'old');
    const fresh = jwtExpiring(1_800_000, 'fresh');
    let renewed!: () => void;
    renewToken.mockImplementation(
      (sent) =>
        new Promise((resolve) => {
          expect(sent).toBe(token);
          renewed = () => {
            token = fresh;
            resolve(true);
          };
        }),
    );
    const kernel = new KernelConnection('p1', 'k1', () => undefined);
    const run = kernel.execute('1', { onOutput: () => undefined, onCount: () => undefined });
    await vi.waitFor(() => expect(renewToken).toHaveBeenCalledTimes(1));
    // No socket opens on the old token.
    expect(FakeSocket.all).toHaveLength(0);
    renewed();
    await vi.waitFor(() => expect(FakeSocket.all).toHaveLength(1));
    expect(latest().url).toContain(`token=${fresh}`);
    latest().open();
    await vi.waitFor(() => expect(latest().sent).toHaveLength(1));
    latest().reply(latest().sent[0]!.header.msg_id, 'status', { execution_state: 'idle' });
    expect(await run).toBe(true);
    kernel.close();
  });

  it('opens a socket at once on a token with time left, and still opens one when the renewal fails', async () => {
    token = jwtExpiring(600_000, 'current');
    const kernel = new KernelConnection('p1', 'k1', () => undefined);
    expect(FakeSocket.all).toHaveLength(1);
    expect(renewToken).not.toHaveBeenCalled();
    kernel.close();

    token = jwtExpiring(5_000, 'late');
    renewToken.mockRejectedValue(new Error('offline'));
    const second = new KernelConnection('p1', 'k2', () => undefined);
    await vi.waitFor(() => expect(FakeSocket.all).toHaveLength(2));
    expect(latest().url).toContain(`token=${token}`);
    second.close();
  });
});
