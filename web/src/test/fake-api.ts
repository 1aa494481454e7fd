import { expect, vi } from 'vitest';
import { ApiError, createApiClient, type ApiEnvironment, type TokenLocks } from '../app/api-client';

// Test kit of the API client: a fake server behind a fake fetch, and a fake browser environment.

interface FakeRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
  /** Whether the request outlives the page that sent it. */
  keepalive: boolean;
}
export interface FakeAnswer {
  status?: number;
  body: unknown;
  contentType?: string;
}
type Handler = (request: FakeRequest) => FakeAnswer | Promise<FakeAnswer>;

/** A fake server behind a fake fetch: routes by "METHOD path", records every request. */
export function createFakeServer() {
  const routes = new Map<string, Handler>();
  const requests: FakeRequest[] = [];
  const fetch = async (url: string, init: RequestInit): Promise<Response> => {
    const request: FakeRequest = {
      method: init.method ?? 'GET',
      url,
      headers: { ...(init.headers as Record<string, string>) },
      body: typeof init.body === 'string' ? init.body : undefined,
      keepalive: init.keepalive === true,
    };
    requests.push(request);
    const handler = routes.get(`${request.method} ${url.split('?')[0]}`);
    if (!handler) throw new TypeError('Failed to fetch');
    const answer = await handler(request);
    const text = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
    return new Response(text, {
      status: answer.status ?? 200,
      headers: { 'content-type': answer.contentType ?? 'application/json' },
    });
  };
  return {
    fetch,
    requests,
    on(route: string, handler: Handler) {
      routes.set(route, handler);
    },
    to(path: string) {
      return requests.filter((r) => r.url.split('?')[0] === path);
    },
  };
}

export type FakeServer = ReturnType<typeof createFakeServer>;

export const ok = (data: unknown): FakeAnswer => ({ body: { errorCode: '1000', errorMsg: '', data } });
export const fail = (errorCode: string, errorMsg: string, status = 200): FakeAnswer => ({
  status,
  body: { errorCode, errorMsg, data: null },
});

export const SSO_FROM_COURSES = `/pjedu/login?targetUrl=${encodeURIComponent('http://localhost/pjedu/courses?page=2')}&clientId=test-client`;

type FakeSession = ReturnType<ApiEnvironment['session']['read']>;

/**
 * One tab of the app: an API client over a fake server and a fake session (cookies and storage). A tab set up with
 * `sameBrowserAs` another shares its server and session, as two tabs of one browser do.
 */
export function setup(
  options: {
    session?: Partial<FakeSession>;
    path?: string;
    locks?: TokenLocks | null;
    sameBrowserAs?: { server: FakeServer; session: FakeSession };
  } = {},
) {
  const server = options.sameBrowserAs?.server ?? createFakeServer();
  const session: FakeSession = options.sameBrowserAs?.session ?? {
    token: 'old-token',
    refreshToken: 'refresh-1',
    isSuper: false,
  };
  Object.assign(session, options.session);
  const path = options.path ?? '/pjedu/courses';
  const env = {
    fetch: server.fetch,
    session: {
      read: () => ({ ...session }),
      saveTokens: vi.fn((token: string, refreshToken: string) => {
        session.token = token;
        session.refreshToken = refreshToken;
      }),
      // Like the real session, clearing forgets everything about the user, whether they were a super administrator too.
      clear: vi.fn(() => {
        session.token = null;
        session.refreshToken = null;
        session.isSuper = false;
      }),
    },
    language: () => 'ja' as const,
    translate: (key: string, values?: Record<string, string | number>) =>
      values ? `${key} ${JSON.stringify(values)}` : key,
    toast: { error: vi.fn(), warning: vi.fn() },
    showSystemNotice: vi.fn(),
    navigate: vi.fn(),
    redirect: vi.fn(),
    currentUrl: () => `http://localhost${path}?page=2`,
    currentPath: () => path,
    setTimeout: (run: () => void, ms: number) => void setTimeout(run, ms),
    ssoClientId: 'test-client',
    locks: options.locks ?? null,
  } satisfies ApiEnvironment;
  return { server, env, session, api: createApiClient(env) };
}

/**
 * A lock manager like the browser's `navigator.locks`: callbacks asking for the same name run one after the other.
 * `held` names the locks granted and not yet released.
 */
export function createFakeLocks() {
  const queues = new Map<string, Promise<unknown>>();
  const requested: string[] = [];
  const held: string[] = [];
  const locks: TokenLocks = {
    request<T>(name: string, callback: () => Promise<T>): Promise<T> {
      requested.push(name);
      const granted = (queues.get(name) ?? Promise.resolve()).then(async () => {
        held.push(name);
        try {
          return await callback();
        } finally {
          held.splice(held.indexOf(name), 1);
        }
      });
      queues.set(
        name,
        granted.catch(() => undefined),
      );
      return granted;
    },
  };
  return { locks, requested, held };
}

export async function rejection(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}
