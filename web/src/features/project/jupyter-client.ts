import { API, projectApi, readRuntimeSocketNotice, RUNTIME_SOCKET_CLOSE } from '@aiedu/contracts';
import { api } from '../../app/api';
import { readSession } from '../../app/session';

/**
 * Talks to the project's Jupyter server through the gateway (`/gw/api/v1/runtime/<id>/…`), never directly.
 * HTTP carries the access token in `X-Authorization`; a WebSocket cannot, so it goes as the `token` query
 * parameter, which the gateway checks and removes.
 */
/** A refusal of Jupyter's (or of the gateway, e.g. 409 when the runtime is not running). */
export class JupyterError extends Error {
  constructor(readonly status: number) {
    super(`Jupyter answered ${status}`);
  }
}

export async function jupyterFetch<T>(projectId: string, path: string, init: RequestInit = {}): Promise<T> {
  const send = (token: string | null) =>
    window.fetch(`${projectApi(projectId).proxy}${path}`, {
      ...init,
      headers: { 'content-type': 'application/json', 'x-authorization': token ?? '' },
    });
  const sentToken = readSession().token;
  let response = await send(sentToken);
  // An expired token, or a sign-in that ended (the gateway checks): renew it, then try once more.
  if (response.status === 401 && (await api.renewToken(sentToken))) response = await send(readSession().token);
  if (!response.ok) throw new JupyterError(response.status);
  return (response.status === 204 ? null : await response.json()) as T;
}

/** A token this close to its expiry is renewed before a socket opens with it: the gateway refuses an expired one. */
export const SOCKET_TOKEN_MARGIN_MS = 30_000;

/** A JWT's `exp` in milliseconds, read without checking the token (the server does); null when it has none. */
function expiryOf(token: string): number | null {
  try {
    const payload = token.split('.')[1] ?? '';
    const json = atob(payload.replace(/-/g, '+').replace(/_/g, '/'));
    const exp = (JSON.parse(json) as { exp?: unknown }).exp;
    return typeof exp === 'number' ? exp * 1000 : null;
  } catch {
    return null;
  }
}

/**
 * Renews the stored access token when it expires within `SOCKET_TOKEN_MARGIN_MS`, so the socket about to open is
 * not refused on the way; null when the token has time left (the socket can open at once). A renewal that fails
 * is left to the socket's own close and reconnect.
 */
export function renewBeforeSocket(): Promise<void> | null {
  const token = readSession().token;
  const expiry = token ? expiryOf(token) : null;
  if (expiry === null || expiry - Date.now() > SOCKET_TOKEN_MARGIN_MS) return null;
  return api.renewToken(token).then(
    () => undefined,
    () => undefined,
  );
}

/** The socket's URL with the current access token; `query` adds Jupyter's own parameters (`session_id`). */
export function jupyterSocketUrl(projectId: string, path: string, query: Record<string, string> = {}): string {
  const scheme = window.location.protocol === 'https:' ? 'wss' : 'ws';
  const params = new URLSearchParams({ ...query, token: readSession().token ?? '' });
  return `${scheme}://${window.location.host}${projectApi(projectId).proxy}${path}?${params.toString()}`;
}

/**
 * Wires a gateway socket's messages and end. The gateway's notice that the access token expired is not passed on:
 * the token is renewed and handed to the socket, which stays open, so nothing the kernel or shell sends meanwhile
 * is in flight across a reconnect. When that fails, the socket is closed from this side (a close the browser
 * starts loses nothing it sent, one the server starts can drop a frame being sent), `closing` runs, and `close`
 * then gets 4401 as when the gateway closes the socket itself, so the caller renews the token and reconnects
 * (`reconnectAfter`). `close` also gets the access token the socket last held.
 */
export function wireGatewaySocket(
  socket: WebSocket,
  sentToken: string | null,
  on: { message(data: string): void; close(code: number, token: string | null): void; closing?(): void },
): void {
  let token = sentToken;
  let closing = false;
  socket.onmessage = (event) => {
    const data = String(event.data);
    const notice = readRuntimeSocketNotice(data);
    if (!notice) return on.message(data);
    void renewSocketToken(notice.socket, token).then((renewed) => {
      if (renewed !== null) token = renewed;
      else if (socket.readyState === WebSocket.OPEN) {
        closing = true;
        on.closing?.();
        socket.close();
      }
    });
  };
  socket.onclose = (event) => on.close(closing ? RUNTIME_SOCKET_CLOSE.renewToken : event.code, token);
}

/**
 * Renews the socket's expired token (unless another call already has) and hands the new one to the socket;
 * answers it, or null when either step failed.
 */
async function renewSocketToken(socketId: string, expired: string | null): Promise<string | null> {
  try {
    if (!(await api.renewToken(expired))) return null;
    const token = readSession().token;
    await api.put(`${API.runtimeSockets}/${socketId}/token`, undefined, { quiet: true });
    return token;
  } catch {
    return null;
  }
}

/** How long a socket that could not reconnect waits before it tries again. */
export const RETRY_MS = 2000;

/**
 * What to do after the gateway or the network closed a socket the editor did not close: renew the access token
 * and reconnect at once (4401: it expired or its sign-in ended; a refused renewal signs out, an unanswered one is
 * tried again later), stop (4403: the project was taken away), or check that the kernel or terminal at `probePath`
 * still exists (renewing the token on the way): reconnect if it does, stop if it is gone (a shell that exited), try
 * again later otherwise (the runtime is not running, the network is down).
 */
export async function reconnectAfter(
  code: number,
  projectId: string,
  probePath: string,
  sentToken: string | null,
): Promise<'now' | 'later' | 'never'> {
  if (code === RUNTIME_SOCKET_CLOSE.noAccess) return 'never';
  if (code === RUNTIME_SOCKET_CLOSE.renewToken) {
    try {
      return (await api.renewToken(sentToken)) ? 'now' : 'never';
    } catch {
      // The server could not be asked (the network is down): the session stands, try again in a moment.
      await new Promise((resolve) => window.setTimeout(resolve, RETRY_MS));
      return 'later';
    }
  }
  await new Promise((resolve) => window.setTimeout(resolve, RETRY_MS));
  try {
    await jupyterFetch(projectId, probePath);
    return 'now';
  } catch (error) {
    return error instanceof JupyterError && error.status === 404 ? 'never' : 'later';
  }
}

/** The kernel of a notebook: Jupyter keeps one session per path, so reopening the editor finds the same kernel. */
export async function notebookKernel(projectId: string, path: string): Promise<string> {
  const session = await jupyterFetch<{ kernel: { id: string } }>(projectId, '/api/sessions', {
    method: 'POST',
    body: JSON.stringify({ path, name: path, type: 'notebook', kernel: { name: 'python3' } }),
  });
  return session.kernel.id;
}

export const interruptKernel = (projectId: string, kernelId: string) =>
  jupyterFetch(projectId, `/api/kernels/${kernelId}/interrupt`, { method: 'POST' });
export const restartKernel = (projectId: string, kernelId: string) =>
  jupyterFetch(projectId, `/api/kernels/${kernelId}/restart`, { method: 'POST' });
export const openTerminal = (projectId: string) =>
  jupyterFetch<{ name: string }>(projectId, '/api/terminals', { method: 'POST', body: '{}' });
