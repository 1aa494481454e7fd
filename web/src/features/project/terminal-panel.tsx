import { Terminal } from '@xterm/xterm';
import '@xterm/xterm/css/xterm.css';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useEditor } from './editor-context';
import { jupyterSocketUrl, openTerminal } from './jupyter-client';

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
    void openTerminal(projectId).then(({ name }) => {
      if (closed) return;
      socket = new WebSocket(jupyterSocketUrl(projectId, `/terminals/websocket/${name}`));
      socket.onopen = () => {
        socket?.send(JSON.stringify(['set_size', terminal.rows, terminal.cols]));
        for (const text of pending.splice(0)) socket?.send(text);
      };
      socket.onmessage = (event) => {
        const [kind, text] = JSON.parse(String(event.data)) as [string, string];
        if (kind === 'stdout') terminal.write(text);
      };
    });
    const input = terminal.onData((data) => send(['stdin', data]));
    return () => {
      closed = true;
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
