import { Terminal } from '@xterm/xterm';
import '@xterm/xterm/css/xterm.css';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useEditor } from './editor-context';
import { readSession } from '../../app/session';
import {
  JupyterError,
  jupyterSocketUrl,
  openTerminal,
  reconnectAfter,
  renewBeforeSocket,
  RETRY_MS,
  wireGatewaySocket,
} from './jupyter-client';

/** A shell in the project folder, on Jupyter's terminals API through the gateway. */
export function TerminalPanel() {
  const { t } = useTranslation('project');
  const { projectId, running } = useEditor();
  const host = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!running || !host.current) return;
    const terminal = new Terminal({ rows: 12, fontSize: 14, convertEol: false, screenReaderMode: true });
    terminal.open(host.current);
    let socket: WebSocket | null = null;
    let closed = false;
    // Keys typed while the connection opens are sent once it is open, not lost.
    const pending: string[] = [];
    const send = (message: unknown[]) => {
      const text = JSON.stringify(message);
      if (socket?.readyState === WebSocket.OPEN) socket.send(text);
      else pending.push(text);
    };
    // When the access token expires the gateway says so and the socket gets a renewed token; if it cannot, the panel
    // closes the socket itself (keys typed until it is open again wait in `pending`); when the sign-in ends the
    // gateway closes it. Either way the same shell is reattached with a renewed token (Jupyter keeps it running),
    // so a long command goes on undisturbed.
    let attached = false;
    const connect = (name: string) => {
      const renewing = renewBeforeSocket();
      if (renewing) void renewing.then(() => attach(name));
      else attach(name);
    };
    const attach = (name: string) => {
      if (closed) return;
      const token = readSession().token;
      const current = new WebSocket(jupyterSocketUrl(projectId, `/terminals/websocket/${name}`));
      socket = current;
      current.onopen = () => {
        // Jupyter sends a reattached socket the shell's recent output again: it redraws a cleared screen.
        if (attached) terminal.reset();
        attached = true;
        current.send(JSON.stringify(['set_size', terminal.rows, terminal.cols]));
        for (const text of pending.splice(0)) current.send(text);
      };
      wireGatewaySocket(current, token, {
        message: (data) => {
          const [kind, text] = JSON.parse(data) as [string, string];
          if (kind === 'stdout') terminal.write(text);
        },
        close: (code, lastToken) => {
          if (closed) return;
          void reconnectAfter(code, projectId, `/api/terminals/${name}`, lastToken).then((next) => {
            if (next !== 'never') connect(name);
          });
        },
      });
    };
    // Refused while the runtime stops or starts again (409), or not reached: tried again while the panel shows a
    // running runtime (a stopped one unmounts it); Jupyter without terminals (404) is not asked again. A panel
    // gone meanwhile asks for no shell it would never attach to.
    let retry: number | undefined;
    const open = () =>
      openTerminal(projectId).then(
        ({ name }) => connect(name),
        (error: unknown) => {
          if (closed || (error instanceof JupyterError && error.status === 404)) return;
          retry = window.setTimeout(open, RETRY_MS);
        },
      );
    void open();
    const input = terminal.onData((data) => send(['stdin', data]));
    return () => {
      closed = true;
      window.clearTimeout(retry);
      input.dispose();
      socket?.close();
      terminal.dispose();
    };
  }, [projectId, running]);

  return (
    <section className="terminal-panel" aria-label={t('terminal.label')}>
      <h2 className="visually-hidden">{t('terminal.label')}</h2>
      {running ? <div ref={host} className="terminal-panel__screen" /> : <p>{t('terminal.notRunning')}</p>}
    </section>
  );
}
