import { API, projectApi } from '@aiedu/contracts';
import { api } from '../../app/api';
import { readSession } from '../../app/session';

/**
 * Talks to the project's Jupyter server through the gateway (`/gw/api/v1/runtime/<id>/…`), never directly.
 * HTTP carries the access token in `X-Authorization`; a WebSocket cannot, so it goes as the `token` query
 * parameter, which the gateway checks and removes.
 */
export async function jupyterFetch<T>(projectId: string, path: string, init: RequestInit = {}): Promise<T> {
  const send = () =>
    window.fetch(`${projectApi(projectId).proxy}${path}`, {
      ...init,
      headers: { 'content-type': 'application/json', 'x-authorization': readSession().token ?? '' },
    });
  let response = await send();
  if (response.status === 401) {
    // An expired access token: any API call runs the client's refresh, then we try once more.
    await api.request(API.runtimeAvailability).catch(() => undefined);
    response = await send();
  }
  if (!response.ok) throw new Error(`Jupyter answered ${response.status}`);
  return (response.status === 204 ? null : await response.json()) as T;
}

export function jupyterSocketUrl(projectId: string, path: string): string {
  const scheme = window.location.protocol === 'https:' ? 'wss' : 'ws';
  const token = encodeURIComponent(readSession().token ?? '');
  return `${scheme}://${window.location.host}${projectApi(projectId).proxy}${path}?token=${token}`;
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
