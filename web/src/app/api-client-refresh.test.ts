import { API } from '@aiedu/contracts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createFakeLocks, fail, ok, rejection, setup, SSO_FROM_COURSES, type FakeServer } from '../test/fake-api';
import { TOKEN_REFRESH_LOCK } from './api-client';

describe('api client: token refresh (spec section 4)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  /** Data answers 1107 to the old token and the data to the new one. */
  function expiringServer(server: FakeServer, data = 'fresh') {
    server.on('GET /x', (request) =>
      request.headers['X-Authorization'] === 'new-token' ? ok(data) : fail('1107', 'Token expired', 401),
    );
  }

  it('1107 refreshes once with the refresh token, saves both tokens and replays', async () => {
    const { server, env, api } = setup();
    expiringServer(server);
    server.on(`GET ${API.authToken}`, () => ok({ token: 'new-token', refreshToken: 'refresh-2' }));

    await expect(api.get('/x')).resolves.toBe('fresh');

    const [refresh] = server.to(API.authToken);
    expect(server.to(API.authToken)).toHaveLength(1);
    expect(refresh?.headers['X-Authorization']).toBe('refresh-1');
    expect(refresh?.headers.language).toBe('ja');
    // Leaving the page must not cancel it: the server rotates either way, and its answer replaces the cookies.
    expect(refresh?.keepalive).toBe(true);
    expect(server.to('/x').map((r) => r.keepalive)).toEqual([false, false]);
    expect(env.session.saveTokens).toHaveBeenCalledWith('new-token', 'refresh-2');
    expect(server.to('/x').map((r) => r.headers['X-Authorization'])).toEqual(['old-token', 'new-token']);
  });

  it('HTTP 401 without an envelope refreshes too', async () => {
    const { server, api } = setup();
    server.on('GET /x', (request) =>
      request.headers['X-Authorization'] === 'new-token'
        ? ok('fresh')
        : { status: 401, body: 'Unauthorized', contentType: 'text/plain' },
    );
    server.on(`GET ${API.authToken}`, () => ok({ token: 'new-token', refreshToken: 'refresh-2' }));

    await expect(api.get('/x')).resolves.toBe('fresh');
    expect(server.to(API.authToken)).toHaveLength(1);
  });

  it('three concurrent 1107s share ONE refresh and all three replay with the new token', async () => {
    const { server, api } = setup();
    server.on('GET /a', (r) => (r.headers['X-Authorization'] === 'new-token' ? ok('A') : fail('1107', 'expired', 401)));
    server.on('GET /b', (r) => (r.headers['X-Authorization'] === 'new-token' ? ok('B') : fail('1107', 'expired', 401)));
    server.on('GET /c', (r) => (r.headers['X-Authorization'] === 'new-token' ? ok('C') : fail('1107', 'expired', 401)));
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    server.on(`GET ${API.authToken}`, async () => {
      await gate;
      return ok({ token: 'new-token', refreshToken: 'refresh-2' });
    });

    const all = Promise.all([api.get('/a'), api.get('/b'), api.get('/c')]);
    // Let all three fail while the refresh is still running.
    await vi.advanceTimersByTimeAsync(0);
    expect(server.to(API.authToken)).toHaveLength(1);
    expect(server.requests.filter((r) => r.headers['X-Authorization'] === 'old-token')).toHaveLength(3);
    release();

    await expect(all).resolves.toEqual(['A', 'B', 'C']);
    expect(server.to(API.authToken)).toHaveLength(1);
    const replays = server.requests.filter(
      (r) => r.url !== API.authToken && r.headers['X-Authorization'] === 'new-token',
    );
    expect(replays.map((r) => r.url).sort()).toEqual(['/a', '/b', '/c']);
  });

  it('a request answered after the refresh finished is replayed without a second refresh', async () => {
    const { server, api } = setup();
    expiringServer(server);
    let answerSlowly!: () => void;
    const slow = new Promise<void>((resolve) => (answerSlowly = resolve));
    server.on('GET /slow', async (r) => {
      if (r.headers['X-Authorization'] === 'new-token') return ok('slow');
      await slow;
      return fail('1107', 'expired', 401);
    });
    server.on(`GET ${API.authToken}`, () => ok({ token: 'new-token', refreshToken: 'refresh-2' }));

    const slowRequest = api.get('/slow');
    await expect(api.get('/x')).resolves.toBe('fresh');
    answerSlowly();

    await expect(slowRequest).resolves.toBe('slow');
    expect(server.to(API.authToken)).toHaveLength(1);
  });

  it('a failed refresh shows the message and sends a normal user to single sign-on 0.8 s later', async () => {
    const { server, env, api } = setup();
    expiringServer(server);
    server.on('GET /y', () => fail('1107', 'Token expired', 401));
    server.on(`GET ${API.authToken}`, () => fail('1107', 'Your session has expired, please log in again', 401));

    const [first, second] = await Promise.all([rejection(api.get('/x')), rejection(api.get('/y'))]);

    expect(first.code).toBe('1107');
    expect(second.code).toBe('1107');
    expect(server.to(API.authToken)).toHaveLength(1);
    expect(env.toast.error).toHaveBeenCalledOnce();
    expect(env.toast.error).toHaveBeenCalledWith('Your session has expired, please log in again');
    // The page stays while the message can be read.
    await vi.advanceTimersByTimeAsync(799);
    expect(env.redirect).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(env.redirect).toHaveBeenCalledOnce();
    expect(env.redirect).toHaveBeenCalledWith(SSO_FROM_COURSES);
    expect(env.session.saveTokens).not.toHaveBeenCalled();
    // Cleared before the sign-in page loads: it must not send the dead token again and be redirected on.
    expect(env.session.clear).toHaveBeenCalledOnce();
    expect(vi.mocked(env.session.clear).mock.invocationCallOrder[0]).toBeLessThan(
      vi.mocked(env.redirect).mock.invocationCallOrder[0]!,
    );
  });

  it('a failed refresh sends a super administrator to the super sign-in page', async () => {
    const { server, env, api } = setup({ session: { isSuper: true } });
    expiringServer(server);
    server.on(`GET ${API.authToken}`, () => fail('1107', 'expired', 401));

    await rejection(api.get('/x'));

    expect(env.redirect).toHaveBeenCalledExactlyOnceWith('/pjPortal/super/sign/login');
    expect(env.toast.error).not.toHaveBeenCalled();
  });

  it('a refresh answered without tokens counts as failed', async () => {
    const { server, env, api } = setup();
    expiringServer(server);
    server.on(`GET ${API.authToken}`, () => ok(null));

    await rejection(api.get('/x'));
    await vi.advanceTimersByTimeAsync(800);

    expect(env.session.saveTokens).not.toHaveBeenCalled();
    expect(env.redirect).toHaveBeenCalledWith(SSO_FROM_COURSES);
  });

  it('without a refresh token, warns "please log in" and goes to single sign-on after 0.5 s', async () => {
    const { server, env, api } = setup({ session: { refreshToken: null } });
    expiringServer(server);

    await rejection(api.get('/x'));

    expect(env.toast.warning).toHaveBeenCalledWith('api.pleaseLogIn');
    expect(env.session.clear).toHaveBeenCalledOnce();
    expect(server.to(API.authToken)).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(499);
    expect(env.redirect).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(env.redirect).toHaveBeenCalledWith(SSO_FROM_COURSES);
  });

  it('several requests without a refresh token warn once and redirect once', async () => {
    const { server, env, api } = setup({ session: { refreshToken: null } });
    expiringServer(server);

    await Promise.all([rejection(api.get('/x')), rejection(api.get('/x')), rejection(api.get('/x'))]);
    await vi.advanceTimersByTimeAsync(500);

    expect(env.toast.warning).toHaveBeenCalledOnce();
    expect(env.redirect).toHaveBeenCalledOnce();
  });

  it('a renewed token that expires before its replay is answered renews once more, and the request succeeds', async () => {
    const { server, env, api } = setup();
    // The first renewed token has expired by the time its replay arrives (a page busy for longer than it lives).
    server.on('GET /x', (request) =>
      request.headers['X-Authorization'] === 'token-3' ? ok('fresh') : fail('1107', 'Token expired', 401),
    );
    let issued = 1;
    server.on(`GET ${API.authToken}`, () => {
      issued += 1;
      return ok({ token: `token-${issued}`, refreshToken: `refresh-${issued}` });
    });

    await expect(api.get('/x')).resolves.toBe('fresh');

    expect(server.to(API.authToken).map((r) => r.headers['X-Authorization'])).toEqual(['refresh-1', 'refresh-2']);
    expect(server.to('/x').map((r) => r.headers['X-Authorization'])).toEqual(['old-token', 'token-2', 'token-3']);
    expect(env.session.clear).not.toHaveBeenCalled();
    expect(env.toast.error).not.toHaveBeenCalled();
  });

  it('refused again after renewing twice: message, session cleared, /pjedu/home after 0.8 s', async () => {
    const { server, env, api } = setup();
    server.on('GET /x', () => fail('1107', 'Token expired', 401));
    let issued = 1;
    server.on(`GET ${API.authToken}`, () => {
      issued += 1;
      return ok({ token: `token-${issued}`, refreshToken: `refresh-${issued}` });
    });

    await rejection(api.get('/x'));

    expect(server.to(API.authToken)).toHaveLength(2);
    expect(server.to('/x')).toHaveLength(3);
    expect(env.toast.error).toHaveBeenCalledWith('Token expired');
    expect(env.session.clear).toHaveBeenCalledOnce();
    await vi.advanceTimersByTimeAsync(799);
    expect(env.redirect).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(env.redirect).toHaveBeenCalledWith('/pjedu/home');
  });
  it('a refresh that gets no answer keeps the session: "unknown error", and the next expiry tries again', async () => {
    const { server, env, session, api } = setup();
    expiringServer(server);
    server.on('GET /y', (r) => (r.headers['X-Authorization'] === 'new-token' ? ok('Y') : fail('1107', 'expired', 401)));
    let reachable = false;
    server.on(`GET ${API.authToken}`, () => {
      if (!reachable) throw new TypeError('Failed to fetch');
      return ok({ token: 'new-token', refreshToken: 'refresh-2' });
    });

    const [first, second] = await Promise.all([rejection(api.get('/x')), rejection(api.get('/y'))]);

    expect([first.kind, second.kind]).toEqual(['network', 'network']);
    expect(server.to(API.authToken)).toHaveLength(1);
    expect(env.toast.error).toHaveBeenCalledExactlyOnceWith('api.unknownError');
    await vi.advanceTimersByTimeAsync(2000);
    expect(env.session.clear).not.toHaveBeenCalled();
    expect(env.redirect).not.toHaveBeenCalled();
    expect(session).toMatchObject({ token: 'old-token', refreshToken: 'refresh-1' });

    reachable = true;
    await expect(api.get('/x')).resolves.toBe('fresh');
    expect(server.to(API.authToken)).toHaveLength(2);
  });

  it("a refresh answered by something that is not the API (a proxy's 502, the shield's 403) keeps the session", async () => {
    const { server, env, api } = setup();
    expiringServer(server);
    server.on(`GET ${API.authToken}`, () => ({
      status: 502,
      body: '<html>Bad Gateway</html>',
      contentType: 'text/html',
    }));

    expect((await rejection(api.get('/x'))).status).toBe(502);
    expect(env.toast.error).toHaveBeenCalledExactlyOnceWith('api.somethingWrong {"status":502}');

    server.on(`GET ${API.authToken}`, () => ({ status: 403, body: 'Too many requests', contentType: 'text/plain' }));
    expect((await rejection(api.get('/x'))).status).toBe(403);
    expect(env.showSystemNotice).toHaveBeenCalledOnce();

    await vi.advanceTimersByTimeAsync(2000);
    expect(env.session.clear).not.toHaveBeenCalled();
    expect(env.redirect).not.toHaveBeenCalled();
  });

  it('renewToken rejects when the refresh gets no answer, and keeps the session', async () => {
    const { server, env, api } = setup();
    server.on(`GET ${API.authToken}`, () => {
      throw new TypeError('Failed to fetch');
    });

    await expect(api.renewToken('old-token')).rejects.toMatchObject({ kind: 'network' });
    expect(env.toast.error).not.toHaveBeenCalled();
    expect(env.session.clear).not.toHaveBeenCalled();
  });

  it('renewToken refreshes for a caller outside the client and shares the refresh with failing requests', async () => {
    const { server, env, api } = setup();
    expiringServer(server);
    server.on(`GET ${API.authToken}`, () => ok({ token: 'new-token', refreshToken: 'refresh-2' }));

    const [renewed, data] = await Promise.all([api.renewToken('old-token'), api.get('/x')]);

    expect(renewed).toBe(true);
    expect(data).toBe('fresh');
    expect(server.to(API.authToken)).toHaveLength(1);
    expect(env.session.saveTokens).toHaveBeenCalledWith('new-token', 'refresh-2');
    // Asked again with the token it was refused with, after another refresh stored a newer one: no refresh.
    await expect(api.renewToken('old-token')).resolves.toBe(true);
    expect(server.to(API.authToken)).toHaveLength(1);
  });

  it('renewToken with an ended sign-in answers false and sends the user to sign in', async () => {
    const { server, env, api } = setup();
    server.on(`GET ${API.authToken}`, () => fail('E002', 'Logged in elsewhere', 401));

    await expect(api.renewToken('old-token')).resolves.toBe(false);
    await vi.advanceTimersByTimeAsync(800);

    expect(env.toast.error).toHaveBeenCalledWith('Logged in elsewhere');
    expect(env.redirect).toHaveBeenCalledWith(SSO_FROM_COURSES);
  });
});

describe('api client: token refresh shared by the tabs of one browser', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  /**
   * The server's side: data answers 1107 to any token but the newest, and a refresh token presented a second time
   * counts as stolen, ending the sign-in (E002). The refresh answers only once `release` is called.
   */
  function rotatingServer(server: FakeServer) {
    // The tabs' access token has expired; their refresh token is still good.
    let current = { token: '', refreshToken: 'refresh-1' };
    let round = 0;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    server.on('GET /x', (r) =>
      r.headers['X-Authorization'] === current.token ? ok('fresh') : fail('1107', 'expired', 401),
    );
    server.on(`GET ${API.authToken}`, async (r) => {
      if (r.headers['X-Authorization'] !== current.refreshToken) return fail('E002', 'Logged in elsewhere', 401);
      round += 1;
      current = { token: `token-${round + 1}`, refreshToken: `refresh-${round + 1}` };
      const pair = current;
      await gate;
      return ok(pair);
    });
    return { release };
  }

  it('two tabs meeting the expiry together send the refresh token once; the other tab takes the new pair', async () => {
    const { locks, requested } = createFakeLocks();
    const first = setup({ locks });
    const second = setup({ locks, sameBrowserAs: first });
    const { server } = first;
    const { release } = rotatingServer(server);

    const both = Promise.all([first.api.get('/x'), second.api.get('/x')]);
    await vi.waitFor(() => expect(requested).toEqual([TOKEN_REFRESH_LOCK, TOKEN_REFRESH_LOCK]));
    expect(server.to(API.authToken)).toHaveLength(1);
    release();

    await expect(both).resolves.toEqual(['fresh', 'fresh']);
    expect(server.to(API.authToken)).toHaveLength(1);
    expect(first.session).toMatchObject({ token: 'token-2', refreshToken: 'refresh-2' });
    expect(server.to('/x').map((r) => r.headers['X-Authorization'])).toEqual([
      'old-token',
      'old-token',
      'token-2',
      'token-2',
    ]);
    for (const tab of [first, second]) {
      expect(tab.env.redirect).not.toHaveBeenCalled();
      expect(tab.env.toast.error).not.toHaveBeenCalled();
    }
  });

  it('a tab that waited for the lock while another signed out does not send the spent token', async () => {
    const { locks, held, requested } = createFakeLocks();
    const first = setup({ locks });
    const second = setup({ locks, sameBrowserAs: first });
    rotatingServer(first.server).release();
    // Another tab holds the lock: its refresh is refused and it signs out before letting go.
    let unlock!: () => void;
    const signingOut = locks.request(TOKEN_REFRESH_LOCK, () => new Promise<void>((resolve) => (unlock = resolve)));
    await vi.waitFor(() => expect(held).toHaveLength(1));

    const request = rejection(second.api.get('/x'));
    await vi.waitFor(() => expect(requested).toHaveLength(2));
    first.env.session.clear();
    unlock();
    await signingOut;

    expect((await request).code).toBe('1107');
    expect(first.server.to(API.authToken)).toHaveLength(0);
    expect(second.env.toast.error).toHaveBeenCalledExactlyOnceWith('api.pleaseLogIn');
    await vi.advanceTimersByTimeAsync(800);
    expect(second.env.redirect).toHaveBeenCalledExactlyOnceWith(SSO_FROM_COURSES);
  });
});
