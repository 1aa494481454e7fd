import { api } from '../../app/api';
import { currentLanguage } from '../../app/i18n';
import { readSession } from '../../app/session';
import { renewBeforeSocket } from '../project/jupyter-client';
import { LiveSocket } from './live-socket';

let shared: LiveSocket | null = null;

/** The tab's live classroom socket, made on first use (see live-socket.ts). */
export function liveSocket(): LiveSocket {
  shared ??= new LiveSocket({
    createSocket: (url) => new WebSocket(url),
    token: () => readSession().token,
    language: currentLanguage,
    origin: () => `${window.location.protocol === 'https:' ? 'wss' : 'ws'}://${window.location.host}`,
    renewToken: (sent) => api.renewToken(sent),
    beforeConnect: renewBeforeSocket,
    setTimeout: (run, ms) => window.setTimeout(run, ms),
    clearTimeout: (id) => window.clearTimeout(id),
    random: Math.random,
  });
  return shared;
}
