import { API, ERRORS, SUCCESS_CODE, TIMINGS, type Envelope, type Language } from '@aiedu/contracts';
import { PATHS } from './paths';

/**
 * The one HTTP client of the web app. Every request carries the `language` header and the token in
 * `X-Authorization`; answers are unwrapped from the `{ errorCode, errorMsg, data }` envelope and the
 * reactions of spec sections 4 (token refresh) and 8 (error catalogue) happen here, once.
 * Everything with a side effect (fetch, session, toasts, navigation, timers) comes from the
 * environment so tests can drive the client with a fake server.
 */

export type ClientMessageKey = 'api.somethingWrong' | 'api.unknownError' | 'api.pleaseLogIn';

export interface ApiEnvironment {
  fetch: (url: string, init: RequestInit) => Promise<Response>;
  session: {
    read(): { token: string | null; refreshToken: string | null; isSuper: boolean };
    saveTokens(token: string, refreshToken: string): void;
    clear(): void;
  };
  language(): Language;
  translate(key: ClientMessageKey, values?: Record<string, string | number>): string;
  toast: { error(text: string): void; warning(text: string): void };
  /** The blocking system notice shown when the request shield refuses a request. */
  showSystemNotice(): void;
  /** Moves inside the app. */
  navigate(path: string): void;
  /** Loads a page afresh; used when the session ends so nothing of it stays in memory. */
  redirect(url: string): void;
  /** The address of the current page (full URL) and its path. */
  currentUrl(): string;
  currentPath(): string;
  setTimeout(run: () => void, ms: number): void;
  /** Client id sent to single sign-on. */
  ssoClientId: string;
  /** The user must replace an administrator-set password before anything else (error 1118). */
  passwordChangeRequired?(): void;
  /**
   * The browser's lock manager, shared by every tab of the site: one token refresh at a time across tabs. Defaults
   * to `navigator.locks`; null (or a browser without it) leaves each tab refreshing on its own.
   */
  locks?: TokenLocks | null;
}

/** The part of the Web Locks API (`navigator.locks`) the client uses. */
export interface TokenLocks {
  request<T>(name: string, callback: () => Promise<T>): Promise<T>;
}

/**
 * How many times one request renews its token before its refusal counts as the end of the session. A token renewed
 * for a request can still expire before the request is sent again (a page busy for longer than a very short token
 * lives), so the request may renew once more; a session the server has ended fails the refresh itself.
 */
const MAX_RENEWALS = 2;

/** The lock every tab of the site takes to refresh the tokens they share (cookies). */
export const TOKEN_REFRESH_LOCK = 'aiedu-token-refresh';

type QueryValue = string | number | boolean | null | undefined;

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Arrays are sent as repeated parameters without brackets (`id=1&id=2`). */
  query?: Record<string, QueryValue | readonly QueryValue[]>;
  /** Plain values are sent as JSON; FormData, URLSearchParams and Blob as they are. */
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** 'blob' for downloads: a JSON answer is then an error envelope whose message is shown. */
  responseType?: 'json' | 'blob';
  /**
   * Error codes the caller shows itself (a form next to its field): they reject without the
   * "something went wrong (status)" toast. The reactions every page shares (sign-in again, token
   * refresh, 1109 and 1104 warnings, F107) still happen.
   */
  handledCodes?: readonly string[];
  /**
   * A background read the page does well without (the platform's name and logo): when the server cannot be
   * reached or answers something unexpected, it rejects without a toast. The shared reactions still happen.
   */
  quiet?: boolean;
}

export type ApiErrorKind = 'rejected' | 'http' | 'network';

/** Whether a refusal's `data` says the server's disk is below its floor (`NO_SPACE` with `disk: "server"`). */
export const serverDiskFull = (data: unknown): boolean =>
  (data as { disk?: unknown } | null | undefined)?.disk === 'server';

/** A failed request. `body` is the server's envelope (or the text of a non-JSON answer). */
export class ApiError extends Error {
  constructor(
    readonly kind: ApiErrorKind,
    readonly status: number,
    readonly body?: Envelope | string,
    options?: ErrorOptions,
  ) {
    super(typeof body === 'object' ? body.errorMsg || body.errorCode : `HTTP ${status}`, options);
    this.name = 'ApiError';
  }

  get code(): string | undefined {
    return typeof this.body === 'object' ? this.body.errorCode : undefined;
  }
}

/** The server's words of a refusal, or nothing when it sent none (a network failure, a non-JSON answer). */
export function serverMessage(error: unknown): string | undefined {
  return error instanceof ApiError && typeof error.body === 'object' ? error.body.errorMsg || undefined : undefined;
}

/**
 * The server's words for a refusal the API client left to the caller (a 400, or one of the codes the call handles
 * itself), so a form shows it beside its fields; every other refusal was already shown as a toast and gives nothing.
 */
export function refusalMessage(error: unknown, handledCodes: readonly string[] = []): string | undefined {
  if (!(error instanceof ApiError) || typeof error.body !== 'object') return undefined;
  if (error.status !== 400 && !handledCodes.includes(error.body.errorCode)) return undefined;
  return serverMessage(error);
}

/** A token refresh that got no answer from the API: the session may well stand. */
class RefreshUnreached extends ApiError {}

export interface ApiClient {
  request<T>(path: string, options?: RequestOptions): Promise<T>;
  get<T>(path: string, options?: Omit<RequestOptions, 'method' | 'body'>): Promise<T>;
  post<T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'method' | 'body'>): Promise<T>;
  put<T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'method' | 'body'>): Promise<T>;
  delete<T>(path: string, options?: Omit<RequestOptions, 'method'>): Promise<T>;
  download(path: string, options?: Omit<RequestOptions, 'responseType'>): Promise<Blob>;
  /**
   * Renews the access token as a refused request would (one refresh shared with every other caller; a refused one
   * signs out), for callers that met the expiry outside this client: a WebSocket the gateway closed, a proxied
   * call answered 401. Resolves true once a token other than `sentToken` is stored, false when the session has
   * ended; rejects when the server could not be asked (the session is kept, so a later try can renew it).
   */
  renewToken(sentToken: string | null): Promise<boolean>;
}

type Parsed = { kind: 'envelope'; envelope: Envelope } | { kind: 'text'; text: string } | { kind: 'blob'; blob: Blob };

const SESSION_ENDED_CODES: readonly string[] = [ERRORS.SESSION_REPLACED.code, ERRORS.ACCOUNT_DISABLED.code];

export function createApiClient(env: ApiEnvironment): ApiClient {
  /** The refresh in flight, shared by every request that fails while it runs. */
  let refreshing: Promise<RefreshOutcome> | null = null;
  /** Set once the user is being sent to sign in: concurrent failures then only reject, without more toasts. */
  let signingOut = false;

  /** Runs a session-ending reaction once, however many requests fail together. */
  function endSession(react: () => void): void {
    if (signingOut) return;
    signingOut = true;
    react();
  }

  function buildUrl(path: string, query: RequestOptions['query']): string {
    if (!query) return path;
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(query)) {
      for (const item of Array.isArray(value) ? value : [value]) {
        if (item !== undefined && item !== null) params.append(name, String(item));
      }
    }
    const search = params.toString();
    return search ? `${path}${path.includes('?') ? '&' : '?'}${search}` : path;
  }

  function send(path: string, options: RequestOptions, token: string | null): Promise<Response> {
    const headers: Record<string, string> = { Accept: 'application/json', language: env.language() };
    if (token) headers['X-Authorization'] = token;
    let body: BodyInit | undefined;
    const raw = options.body;
    if (raw instanceof FormData || raw instanceof URLSearchParams || raw instanceof Blob) {
      body = raw;
    } else if (raw !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(raw);
    }
    return env.fetch(buildUrl(path, options.query), {
      method: options.method ?? 'GET',
      headers: { ...headers, ...options.headers },
      body,
      signal: options.signal,
      credentials: 'same-origin',
    });
  }

  function singleSignOnUrl(): string {
    const target = encodeURIComponent(env.currentUrl());
    return `${PATHS.singleSignOn}?targetUrl=${target}&clientId=${encodeURIComponent(env.ssoClientId)}`;
  }

  /**
   * Sends the user to sign in again: super administrators to their own page, everyone else to single sign-on.
   * `isSuper` is read by the caller before the session is cleared, as clearing it forgets who the user was.
   */
  function signInAgain(isSuper: boolean): void {
    env.redirect(isSuper ? PATHS.superLogin : singleSignOnUrl());
  }

  async function execute<T>(path: string, options: RequestOptions, renewals: number): Promise<T> {
    const sentToken = env.session.read().token;
    let response: Response;
    let parsed: Parsed;
    try {
      response = await send(path, options, sentToken);
      parsed = await parse(response, options.responseType);
    } catch (error) {
      if (isAbort(error)) throw error;
      if (!options.quiet) env.toast.error(env.translate('api.unknownError'));
      throw new ApiError('network', 0, undefined, { cause: error });
    }
    const { status } = response;

    if (parsed.kind === 'blob') return parsed.blob as T;
    if (parsed.kind === 'text') {
      const error = new ApiError('http', status, parsed.text);
      if (status === 401)
        return renew(() => execute<T>(path, options, renewals + 1), sentToken, renewals, error, options.quiet);
      if (status === 400) throw error;
      // The request shield answers 403 with plain text; a 2xx that is not an envelope is no answer we know.
      if (status === 403) env.showSystemNotice();
      else if (options.quiet) throw error;
      else if (response.ok) env.toast.error(env.translate('api.unknownError'));
      else env.toast.error(env.translate('api.somethingWrong', { status }));
      throw error;
    }

    const { envelope } = parsed;
    if (envelope.errorCode === SUCCESS_CODE && response.ok) return envelope.data as T;
    const error = new ApiError('rejected', status, envelope);
    const code = envelope.errorCode;

    // Only a request that carried a session can end it. Without one (a sign-in or sign-up) a disabled account is
    // the answer to that form, which says why; the caller handles it like any other refusal.
    const sessionEnded = SESSION_ENDED_CODES.includes(code);
    if (sessionEnded && sentToken) {
      endSession(() => {
        const { isSuper } = env.session.read();
        env.toast.error(envelope.errorMsg);
        env.setTimeout(() => {
          env.session.clear();
          signInAgain(isSuper);
        }, TIMINGS.refreshWaitMs);
      });
      throw error;
    }
    if (!sessionEnded && (code === ERRORS.TOKEN_EXPIRED.code || status === 401)) {
      return renew(() => execute<T>(path, options, renewals + 1), sentToken, renewals, error, options.quiet);
    }
    if (code === ERRORS.TOO_FREQUENT.code || code === ERRORS.CAPTCHA_REQUIRED.code) {
      env.toast.warning(envelope.errorMsg);
      throw error;
    }
    if (code === ERRORS.PASSWORD_CHANGE_REQUIRED.code) {
      env.passwordChangeRequired?.();
      throw error;
    }
    if (code === ERRORS.PROFILE_INCOMPLETE.code) {
      // The course page asks for the profile itself.
      if (env.currentPath() !== PATHS.courseCentre) {
        env.toast.warning(envelope.errorMsg);
        env.setTimeout(() => env.navigate(PATHS.profileStudy), TIMINGS.profileRedirectMs);
      }
      throw error;
    }
    if (options.responseType === 'blob') {
      env.toast.error(envelope.errorMsg || env.translate('api.unknownError'));
      throw error;
    }
    // 400 and 2xx answers with an error code go back to the caller, who knows the form it came from.
    if (status === 400 || response.ok || options.quiet || options.handledCodes?.includes(code)) throw error;
    // Any other refusal of the catalogue carries its reason in the user's language: shown as it is. Only an answer
    // that says nothing (no message) is "something wrong (status)".
    env.toast.error(envelope.errorMsg || env.translate('api.somethingWrong', { status }));
    throw error;
  }

  /** Spec section 4: one refresh for all requests that fail with an expired token, then replay them. */
  async function renew<T>(
    replay: () => Promise<T>,
    sentToken: string | null,
    renewals: number,
    error: ApiError,
    quiet: boolean | undefined,
  ): Promise<T> {
    const session = env.session.read();
    if (renewals >= MAX_RENEWALS) {
      // Refused again after renewing: the session cannot be saved.
      endSession(() => {
        env.toast.error(messageOf(error) || env.translate('api.pleaseLogIn'));
        env.session.clear();
        env.setTimeout(() => env.redirect(PATHS.learnerHome), TIMINGS.refreshWaitMs);
      });
      throw error;
    }
    if (!refreshing && session.token && session.token !== sentToken) {
      // A refresh finished while this request was on its way: just send it again.
      return replay();
    }
    if (!refreshing && !session.refreshToken) {
      endSession(() => {
        env.toast.warning(env.translate('api.pleaseLogIn'));
        // The dead session goes first: the sign-in page must not send its token again (and be sent on again).
        env.session.clear();
        env.setTimeout(() => env.redirect(singleSignOnUrl()), TIMINGS.promptDelayMs);
      });
      throw error;
    }
    if (refreshing) {
      // A refresh is already in progress: wait for it; the request that started it reacts to a failure.
      const outcome = await refreshing;
      if (outcome.ok) return replay();
      throw outcome.unreached ? outcome.unreached : error;
    }

    refreshing = refreshAcrossTabs(session.refreshToken as string);
    const outcome = await refreshing;
    refreshing = null;
    if (outcome.ok) return replay();
    if (outcome.unreached) {
      // No answer about the session (the network, a proxy, a page being left): it stays, and the next request
      // that meets the expiry tries again. Only the server's refusal ends it.
      const { unreached } = outcome;
      if (unreached.status === 403 && unreached.kind === 'http') env.showSystemNotice();
      else if (!quiet) {
        env.toast.error(
          unreached.kind === 'network'
            ? env.translate('api.unknownError')
            : env.translate('api.somethingWrong', { status: unreached.status }),
        );
      }
      throw unreached;
    }
    endSession(() => {
      const { isSuper } = env.session.read();
      // The dead session goes first: the sign-in page must not send its token again (and be sent on again).
      env.session.clear();
      if (isSuper) {
        signInAgain(true);
      } else {
        // The page stays long enough for the message to be read.
        env.toast.error(outcome.message);
        env.setTimeout(() => signInAgain(false), TIMINGS.refreshWaitMs);
      }
    });
    throw error;
  }

  /**
   * Every tab of the site holds the same tokens (cookies), and the server takes a refresh token presented twice for
   * a stolen one and ends the whole sign-in. So tabs refresh one at a time, and a tab whose refresh token was
   * rotated by another while it waited takes the new pair instead of sending the spent one.
   */
  function refreshAcrossTabs(refreshToken: string): Promise<RefreshOutcome> {
    const locks = env.locks === undefined ? browserLocks() : env.locks;
    if (!locks) return refreshTokens(refreshToken);
    let granted = false;
    return locks
      .request(TOKEN_REFRESH_LOCK, async (): Promise<RefreshOutcome> => {
        granted = true;
        const current = env.session.read();
        if (current.refreshToken === refreshToken) return refreshTokens(refreshToken);
        if (current.token && current.refreshToken) return { ok: true };
        // Another tab ended the session meanwhile.
        return { ok: false, message: env.translate('api.pleaseLogIn') };
      })
      .catch((error: unknown) => {
        // Only when the lock could not be had (a document being unloaded) does this tab refresh on its own, as
        // without locks; a failure once it held the lock may have spent the token already.
        if (granted) throw error;
        return refreshTokens(refreshToken);
      });
  }

  /**
   * `GET /gw/api/v1/auth/token` with the refresh token (and no access token) in X-Authorization. Only an answer of
   * the API (an envelope) decides that the session is over; no answer, or one that is not the API's (a proxy's
   * 502, the request shield's text), is `unreached`.
   */
  async function refreshTokens(refreshToken: string): Promise<RefreshOutcome> {
    let response: Response;
    let parsed: Parsed;
    try {
      response = await env.fetch(API.authToken, {
        method: 'GET',
        headers: { Accept: 'application/json', language: env.language(), 'X-Authorization': refreshToken },
        credentials: 'same-origin',
        // Not cancelled when the page is left: the server rotates the token either way, and its answer also
        // replaces the session cookies, so the next page holds the new pair instead of the spent token.
        keepalive: true,
      });
      parsed = await parse(response, 'json');
    } catch (cause) {
      return { ok: false, unreached: new RefreshUnreached('network', 0, undefined, { cause }) };
    }
    if (parsed.kind !== 'envelope') {
      return {
        ok: false,
        unreached: new RefreshUnreached('http', response.status, parsed.kind === 'text' ? parsed.text : ''),
      };
    }
    const { envelope } = parsed;
    if (envelope.errorCode === SUCCESS_CODE && isTokenPair(envelope.data)) {
      env.session.saveTokens(envelope.data.token, envelope.data.refreshToken);
      return { ok: true };
    }
    return { ok: false, message: envelope.errorMsg || env.translate('api.pleaseLogIn') };
  }

  const request = <T>(path: string, options: RequestOptions = {}) => execute<T>(path, options, 0);
  return {
    request,
    get: (path, options) => request(path, { ...options, method: 'GET' }),
    post: (path, body, options) => request(path, { ...options, method: 'POST', body }),
    put: (path, body, options) => request(path, { ...options, method: 'PUT', body }),
    delete: (path, options) => request(path, { ...options, method: 'DELETE' }),
    download: (path, options) => request<Blob>(path, { ...options, responseType: 'blob' }),
    renewToken: (sentToken) =>
      renew(async () => true, sentToken, 0, new ApiError('http', 401, 'token expired'), true).catch((error) => {
        if (error instanceof RefreshUnreached) throw error;
        return false;
      }),
  };
}

type RefreshOutcome =
  | { ok: true }
  /** The server refused the refresh token: the session is over. */
  | { ok: false; message: string; unreached?: undefined }
  /** The server could not be asked: the session is kept. */
  | { ok: false; unreached: RefreshUnreached };

async function parse(response: Response, responseType: RequestOptions['responseType']): Promise<Parsed> {
  const type = response.headers.get('content-type') ?? '';
  if (responseType === 'blob' && response.ok && !type.includes('json')) {
    return { kind: 'blob', blob: await response.blob() };
  }
  const text = await response.text();
  if (type.includes('json') || /^\s*\{/.test(text)) {
    try {
      const value: unknown = JSON.parse(text);
      if (isEnvelope(value)) return { kind: 'envelope', envelope: value };
    } catch {
      // Not JSON after all: handled as text.
    }
  }
  return { kind: 'text', text };
}

function isEnvelope(value: unknown): value is Envelope {
  return typeof value === 'object' && value !== null && typeof (value as Envelope).errorCode === 'string';
}

function isTokenPair(data: unknown): data is { token: string; refreshToken: string } {
  const pair = data as { token?: unknown; refreshToken?: unknown } | null;
  return typeof pair?.token === 'string' && pair.token !== '' && typeof pair.refreshToken === 'string';
}

function browserLocks(): TokenLocks | null {
  return typeof navigator === 'undefined' ? null : (navigator.locks ?? null);
}

function isAbort(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}

function messageOf(error: ApiError): string {
  return serverMessage(error) ?? '';
}
