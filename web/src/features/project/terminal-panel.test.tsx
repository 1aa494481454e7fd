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
    onData() {
      return { dispose() {} };
    }
    write() {}
    reset() {}
    dispose() {}
  },
}));
vi.mock('./editor-context', () => ({ useEditor: () => ({ projectId: 'p1', running: true }) }));
vi.mock('./jupyter-client', async (original) => ({
  ...(await original<typeof jupyterClient>()),
  openTerminal: vi.fn(),
}));

/** The sockets the panel opened, by URL. */
const sockets: string[] = [];
class FakeSocket {
  static OPEN = 1;
  readyState = 0;
  constructor(url: string) {
    sockets.push(url);
  }
  send() {}
  close() {}
}

describe('terminal panel', () => {
  beforeEach(() => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    vi.stubGlobal('WebSocket', FakeSocket);
    sockets.length = 0;
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

  it('does not ask again when Jupyter has no terminals (404)', async () => {
    vi.mocked(openTerminal).mockRejectedValue(new JupyterError(404));
    render(<TerminalPanel />);
    await waitFor(() => expect(openTerminal).toHaveBeenCalledTimes(1));
    await vi.advanceTimersByTimeAsync(5000);
    expect(openTerminal).toHaveBeenCalledTimes(1);
    expect(sockets).toEqual([]);
  });
});
