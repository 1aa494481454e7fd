import { API } from '@aiedu/contracts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fail, ok, rejection, setup, SSO_FROM_COURSES } from '../test/fake-api';
import { createApiClient, type ApiClient } from './api-client';

describe('api client: envelope and headers', () => {
  it('resolves with data on 1000 and sends the token and language headers', async () => {
    const { server, api } = setup();
    server.on('GET /gw/api/v1/things', () => ok({ id: 7 }));

    await expect(api.get('/gw/api/v1/things', { query: { id: [1, 2], q: 'x', skip: undefined } })).resolves.toEqual({
      id: 7,
    });

    const [request] = server.requests;
    expect(request?.url).toBe('/gw/api/v1/things?id=1&id=2&q=x');
    expect(request?.headers['X-Authorization']).toBe('old-token');
    expect(request?.headers.language).toBe('ja');
  });

  it('sends JSON bodies and leaves out X-Authorization without a token', async () => {
    const { server, api } = setup({ session: { token: null } });
    server.on('POST /gw/api/v1/things', () => ok(true));

    await api.post('/gw/api/v1/things', { name: 'a' });

    const [request] = server.requests;
    expect(request?.headers['X-Authorization']).toBeUndefined();
    expect(request?.headers['Content-Type']).toBe('application/json');
    expect(request?.body).toBe('{"name":"a"}');
  });

  it('rejects any other code with the body and no message (the caller decides)', async () => {
    const { server, env, api } = setup();
    server.on('GET /x', () => fail('1102', 'Username or password incorrect'));

    const error = await rejection(api.get('/x'));

    expect(error.body).toEqual({ errorCode: '1102', errorMsg: 'Username or password incorrect', data: null });
    expect(error.code).toBe('1102');
    expect(env.toast.error).not.toHaveBeenCalled();
  });
});

describe('api client: error reactions (spec section 8)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it.each(['E003', 'E002'])('%s shows the message as an error, then signs in again after 0.8 s', async (code) => {
    const { server, env, api } = setup();
    server.on('GET /x', () => fail(code, 'Account disabled', 401));

    const error = await rejection(api.get('/x'));

    expect(error.code).toBe(code);
    expect(env.toast.error).toHaveBeenCalledWith('Account disabled');
    await vi.advanceTimersByTimeAsync(799);
    expect(env.redirect).not.toHaveBeenCalled();
    expect(env.session.clear).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(env.session.clear).toHaveBeenCalledOnce();
    expect(env.redirect).toHaveBeenCalledWith(SSO_FROM_COURSES);
    // E002/E003 come with HTTP 401 but must not start a token refresh.
    expect(server.to(API.authToken)).toHaveLength(0);
  });

  it('several E002 answers together show one message and sign in again once', async () => {
    const { server, env, api } = setup();
    server.on('GET /x', () => fail('E002', 'Logged in elsewhere', 401));

    await Promise.all([rejection(api.get('/x')), rejection(api.get('/x')), rejection(api.get('/x'))]);
    await vi.advanceTimersByTimeAsync(800);

    expect(env.toast.error).toHaveBeenCalledOnce();
    expect(env.redirect).toHaveBeenCalledOnce();
  });

  it.each([
    ['a quiet call', (api: ApiClient) => api.put('/x', undefined, { quiet: true })],
    ['a download', (api: ApiClient) => api.download('/x')],
    ['a call that shows refusals itself', (api: ApiClient) => api.get('/x', { handledCodes: ['E002'] })],
  ])('E002 to %s made with a session (an ordinary route) still clears it and signs in again', async (_what, send) => {
    const { server, env, api } = setup();
    for (const route of ['GET /x', 'PUT /x']) server.on(route, () => fail('E002', 'Logged in elsewhere', 401));

    expect((await rejection(send(api))).code).toBe('E002');
    expect(env.toast.error).toHaveBeenCalledExactlyOnceWith('Logged in elsewhere');
    await vi.advanceTimersByTimeAsync(800);

    expect(env.session.clear).toHaveBeenCalledOnce();
    expect(env.redirect).toHaveBeenCalledWith(SSO_FROM_COURSES);
    expect(server.to(API.authToken)).toHaveLength(0);
  });

  it('E003 sends a super administrator to the super sign-in page', async () => {
    const { server, env, api } = setup({ session: { isSuper: true } });
    server.on('GET /x', () => fail('E003', 'Account disabled', 401));

    await rejection(api.get('/x'));
    await vi.advanceTimersByTimeAsync(800);

    expect(env.redirect).toHaveBeenCalledWith('/pjPortal/super/sign/login');
  });

  it.each(['E003', 'E002'])(
    '%s to a request without a session (a sign-in) goes to the caller like any refusal',
    async (code) => {
      const { server, env, api } = setup({ session: { token: null, refreshToken: null } });
      server.on('POST /gw/api/v1/auth/login', () => fail(code, 'This account has been disabled', 401));

      const handled = await rejection(api.post('/gw/api/v1/auth/login', {}, { handledCodes: [code] }));
      expect(handled.code).toBe(code);
      expect(env.toast.error).not.toHaveBeenCalled();

      await rejection(api.post('/gw/api/v1/auth/login', {}));
      expect(env.toast.error).toHaveBeenCalledExactlyOnceWith('This account has been disabled');

      await vi.advanceTimersByTimeAsync(2000);
      expect(env.toast.warning).not.toHaveBeenCalled();
      expect(env.session.clear).not.toHaveBeenCalled();
      expect(env.redirect).not.toHaveBeenCalled();
      expect(server.to(API.authToken)).toHaveLength(0);
    },
  );

  it('1109 shows the message as a warning', async () => {
    const { server, env, api } = setup();
    server.on('GET /x', () => fail('1109', 'Too many requests', 429));

    const error = await rejection(api.get('/x'));

    expect(error.code).toBe('1109');
    expect(env.toast.warning).toHaveBeenCalledWith('Too many requests');
    expect(env.toast.error).not.toHaveBeenCalled();
  });

  it('1104 shows the server message', async () => {
    const { server, env, api } = setup();
    server.on('POST /gw/api/v1/auth/login', () => fail('1104', 'Please complete the slider verification', 400));

    const error = await rejection(api.post('/gw/api/v1/auth/login', { username: 'a' }));

    expect(error.code).toBe('1104');
    expect(env.toast.warning).toHaveBeenCalledWith('Please complete the slider verification');
  });

  it('F107 goes to the profile study tab after 1 s', async () => {
    const { server, env, api } = setup();
    server.on('GET /x', () => fail('F107', 'Please complete your profile first', 403));

    await rejection(api.get('/x'));

    await vi.advanceTimersByTimeAsync(999);
    expect(env.navigate).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(env.navigate).toHaveBeenCalledWith('/pjedu/userprofile?slideKey=study');
    expect(env.showSystemNotice).not.toHaveBeenCalled();
  });

  it('1118 asks for the password change and rejects without a toast', async () => {
    const { server, env, api } = setup();
    const passwordChangeRequired = vi.fn();
    const client = createApiClient({ ...env, passwordChangeRequired });
    server.on('GET /x', () => fail('1118', 'Please change your password first', 403));

    const error = await rejection(client.get('/x'));

    expect(error.code).toBe('1118');
    expect(passwordChangeRequired).toHaveBeenCalledOnce();
    expect(env.toast.error).not.toHaveBeenCalled();
    await rejection(api.get('/x'));
    expect(env.toast.error).not.toHaveBeenCalled();
  });

  it('codes the caller handles reject without a toast; others toast the server’s reason', async () => {
    const { server, env, api } = setup();
    server.on('POST /x', () => fail('1114', 'Phone number already registered', 409));

    const handled = await rejection(api.post('/x', {}, { handledCodes: ['1114'] }));
    expect(handled.code).toBe('1114');
    expect(env.toast.error).not.toHaveBeenCalled();

    await rejection(api.post('/x', {}, { handledCodes: ['1105'] }));
    expect(env.toast.error).toHaveBeenCalledExactlyOnceWith('Phone number already registered');
  });

  it('F107 does not redirect on the course page', async () => {
    const { server, env, api } = setup({ path: '/pjedu/course' });
    server.on('GET /x', () => fail('F107', 'Please complete your profile first', 403));

    await rejection(api.get('/x'));
    await vi.advanceTimersByTimeAsync(5000);

    expect(env.navigate).not.toHaveBeenCalled();
  });

  it('HTTP 400 rejects with the body and shows nothing', async () => {
    const { server, env, api } = setup();
    server.on('POST /x', () => fail('1001', 'Request parameter error', 400));

    const error = await rejection(api.post('/x', {}));

    expect(error.status).toBe(400);
    expect(error.body).toEqual({ errorCode: '1001', errorMsg: 'Request parameter error', data: null });
    expect(env.toast.error).not.toHaveBeenCalled();
    expect(env.toast.warning).not.toHaveBeenCalled();
  });

  it('HTTP 403 with a text body opens the system notice', async () => {
    const { server, env, api } = setup();
    server.on('GET /x', () => ({ status: 403, body: 'Request blocked', contentType: 'text/html' }));

    const error = await rejection(api.get('/x'));

    expect(error.status).toBe(403);
    expect(error.body).toBe('Request blocked');
    expect(env.showSystemNotice).toHaveBeenCalledOnce();
    expect(env.toast.error).not.toHaveBeenCalled();
  });

  it.each([
    ['a student quota', fail('5004', 'The student quota of this customer is reached', 409), 'The student quota'],
    ['a full disk', fail('2003', 'No space left', 507), 'No space left'],
    ['an internal error', fail('1002', 'Unknown error', 500), 'Unknown error'],
  ])('other refusals show the server’s reason (%s)', async (_name, answer, shown) => {
    const { server, env, api } = setup();
    server.on('GET /x', () => answer);

    const error = await rejection(api.get('/x'));

    expect(env.toast.error).toHaveBeenCalledExactlyOnceWith(expect.stringContaining(shown));
    expect(error.status).toBe(answer.status);
  });

  it.each([
    ['a text body', { status: 502, body: 'Bad gateway', contentType: 'text/html' }],
    ['an envelope without a message', fail('1009', '', 409)],
  ])('other statuses show "something wrong (status)" (%s)', async (_name, answer) => {
    const { server, env, api } = setup();
    server.on('GET /x', () => answer);

    const error = await rejection(api.get('/x'));

    expect(env.toast.error).toHaveBeenCalledWith(`api.somethingWrong {"status":${answer.status}}`);
    expect(env.showSystemNotice).not.toHaveBeenCalled();
    expect(error.status).toBe(answer.status);
  });

  it('a 2xx answer that is not an envelope shows "unknown error"', async () => {
    const { server, env, api } = setup();
    server.on('GET /x', () => ({ body: '<!doctype html>', contentType: 'text/html' }));

    const error = await rejection(api.get('/x'));

    expect(error.kind).toBe('http');
    expect(env.toast.error).toHaveBeenCalledWith('api.unknownError');
  });

  it('a network failure shows "unknown error"', async () => {
    const { env, api } = setup();

    const error = await rejection(api.get('/nowhere'));

    expect(error.kind).toBe('network');
    expect(env.toast.error).toHaveBeenCalledWith('api.unknownError');
  });

  it('a quiet read rejects without a toast when the server cannot be reached or answers unexpectedly', async () => {
    const { server, env, api } = setup();
    server.on('GET /html', () => ({ body: '<!doctype html>', contentType: 'text/html' }));
    server.on('GET /broken', () => fail('1002', 'Unknown error', 500));

    expect((await rejection(api.get('/nowhere', { quiet: true }))).kind).toBe('network');
    expect((await rejection(api.get('/html', { quiet: true }))).kind).toBe('http');
    expect((await rejection(api.get('/broken', { quiet: true }))).kind).toBe('rejected');
    expect(env.toast.error).not.toHaveBeenCalled();
  });

  it('a download answered with JSON shows its errorMsg', async () => {
    const { server, env, api } = setup();
    server.on('GET /file', () => fail('2007', 'Export failed', 500));

    await rejection(api.download('/file'));

    expect(env.toast.error).toHaveBeenCalledWith('Export failed');
  });

  it('a download answered with a file resolves with a Blob', async () => {
    const { server, api } = setup();
    server.on('GET /file', () => ({ body: 'a,b\n1,2', contentType: 'text/csv' }));

    const blob = await api.download('/file');

    expect(await blob.text()).toBe('a,b\n1,2');
  });
});
