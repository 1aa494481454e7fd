import { runtimeSocketNotice } from '@aiedu/contracts';
import { render, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type * as jupyterClient from './jupyter-client';
import { JupyterError, openTerminal } from './jupyter-client';
import { TerminalPanel } from './terminal-panel';

vi.mock('@xterm/xterm/css/xterm.css', () => ({}));
vi.mock('@xterm/xterm', () => ({
  Terminal: class {
    rows = 12;
    cols = 80;
    open() {}
    onData(listener: (data: string) => void) {
      typed.listener = listener;
      return { dispose() {} };
    }
    write() {}
    reset() {}
    dispose() {}
  },
}));
/** Types into the terminal, as its keyboard does. */
const typed = vi.hoisted(() => ({ listener: (_data: string) => undefined as void }));
let token = 'token-1';
const renewToken = vi.fn<(sent: string | null) => Promise<boolean>>();
/** The socket's token renewal (`PUT …/runtime/sockets/<id>/token`). */
const put = vi.fn<(path: string) => Promise<null>>();
vi.mock('../../app/api', () => ({
  api: { renewToken: (sent: string | null) => renewToken(sent), put: (path: string) => put(path) },
}));
vi.mock('../../app/session', () => ({ readSession: () => ({ token }) }));
vi.mock('./editor-context', () => ({ useEditor: () => ({ projectId: 'p1', running: true }) }));
vi.mock('./jupyter-client', async (original) => ({
  ...(await original<typeof jupyterClient>()),
  openTerminal: vi.fn(),
}));

/** The sockets the panel opened, by URL. */
const sockets: string[] = [];
const opened: FakeSocket[] = [];
class FakeSocket {
  static OPEN = 1;
  readyState = 0;
  sent: string[] = [];
  closedByClient = false;
  onopen: (() => void) | null = null;
  onmessage: ((event: { data: string }) => void) | null = null;
  onclose: ((event: { code: number }) => void) | null = null;
  constructor(readonly url: string) {
    sockets.push(url);
    opened.push(this);
  }
  send(text: string) {
    this.sent.push(text);
  }
  close() {
    this.closedByClient = true;
    this.readyState = 2;
  }
  open() {
    this.readyState = 1;
    this.onopen?.();
  }
}

describe('terminal panel', () => {
  beforeEach(() => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    vi.stubGlobal('WebSocket', FakeSocket);
    sockets.length = 0;
    opened.length = 0;
    token = 'token-1';
    renewToken.mockReset();
    put.mockReset();
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
    vi.mocked(openTerminal).mockReset();
  });

  it('asks for a shell again when the runtime refused it for a moment (409), then attaches to it', async () => {
    vi.mocked(openTerminal).mockRejectedValueOnce(new JupyterError(409)).mockResolvedValueOnce({ name: '7' });
    render(<TerminalPanel />);
    await waitFor(() => expect(openTerminal).toHaveBeenCalledTimes(1));
    expect(sockets).toEqual([]);
    await vi.advanceTimersByTimeAsync(2000);
    await waitFor(() => expect(sockets).toHaveLength(1));
    expect(openTerminal).toHaveBeenCalledTimes(2);
    expect(sockets[0]).toContain('/terminals/websocket/7');
  });

  it('asks for no shell once it is gone, while it was waiting to ask again', async () => {
    vi.mocked(openTerminal).mockRejectedValueOnce(new JupyterError(409)).mockResolvedValue({ name: '8' });
    const { unmount } = render(<TerminalPanel />);
    await waitFor(() => expect(openTerminal).toHaveBeenCalledTimes(1));
    unmount();
    await vi.advanceTimersByTimeAsync(5000);
    expect(openTerminal).toHaveBeenCalledTimes(1);
    expect(opened).toHaveLength(0);
  });

  it('does not ask again when Jupyter has no terminals (404)', async () => {
    vi.mocked(openTerminal).mockRejectedValue(new JupyterError(404));
    render(<TerminalPanel />);
    await waitFor(() => expect(openTerminal).toHaveBeenCalledTimes(1));
    await vi.advanceTimersByTimeAsync(5000);
    expect(openTerminal).toHaveBeenCalledTimes(1);
    expect(sockets).toEqual([]);
  });

  it('hands the socket a renewed token when told its token expired, and keeps typing into it', async () => {
    vi.mocked(openTerminal).mockResolvedValue({ name: '4' });
    renewToken.mockImplementation(async () => {
      token = 'token-2';
      return true;
    });
    put.mockResolvedValue(null);
    render(<TerminalPanel />);
    await waitFor(() => expect(opened).toHaveLength(1));
    const first = opened[0]!;
    first.open();
    typed.listener('l');
    first.onmessage?.({ data: runtimeSocketNotice('socket-4') });
    typed.listener('s');
    await waitFor(() => expect(put).toHaveBeenCalledWith('/gw/api/v1/runtime/sockets/socket-4/token'));
    typed.listener('\r');
    expect(first.closedByClient).toBe(false);
    expect(first.sent.slice(1)).toEqual(['l', 's', '\r'].map((key) => JSON.stringify(['stdin', key])));
    expect(opened).toHaveLength(1);
  });

  it('closes the socket itself when its token cannot be handed over, and sends what was typed meanwhile on the next one', async () => {
    vi.mocked(openTerminal).mockResolvedValue({ name: '3' });
    renewToken.mockImplementation(async () => {
      token = 'token-2';
      return true;
    });
    put.mockRejectedValue(new Error('not found'));
    render(<TerminalPanel />);
    await waitFor(() => expect(opened).toHaveLength(1));
    const first = opened[0]!;
    first.open();
    typed.listener('l');
    first.onmessage?.({ data: runtimeSocketNotice('socket-3') });
    await waitFor(() => expect(first.closedByClient).toBe(true));
    typed.listener('s');
    first.onclose?.({ code: 1005 });
    await waitFor(() => expect(opened).toHaveLength(2));
    expect(renewToken).toHaveBeenCalledWith('token-1');
    const second = opened[1]!;
    expect(second.url).toContain('/terminals/websocket/3');
    expect(second.url).toContain('token=token-2');
    second.open();
    expect(first.sent).toEqual([JSON.stringify(['set_size', 12, 80]), JSON.stringify(['stdin', 'l'])]);
    expect(second.sent).toEqual([JSON.stringify(['set_size', 12, 80]), JSON.stringify(['stdin', 's'])]);
  });

  it('renews a token about to expire before it attaches the shell', async () => {
    const part = (value: object) => btoa(JSON.stringify(value)).replace(/=+$/, '');
    token = `${part({ alg: 'HS256' })}.${part({ exp: Math.ceil(Date.now() / 1000) + 5 })}.sig`;
    renewToken.mockImplementation(async () => {
      token = 'token-2';
      return true;
    });
    vi.mocked(openTerminal).mockResolvedValueOnce({ name: '4' });
    render(<TerminalPanel />);
    await waitFor(() => expect(sockets).toHaveLength(1));
    expect(renewToken).toHaveBeenCalledTimes(1);
    expect(sockets[0]).toContain('token=token-2');
  });
});
