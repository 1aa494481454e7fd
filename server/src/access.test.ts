import { hasPermission, ROLES, type Permission } from '@aiedu/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RouteEntry } from './platform/route-table.js';
import { buildCustomer, buildUser, signIn } from './test/factories.js';
import { createTestApp, type TestApp } from './test/test-app.js';

/**
 * Routes anyone may call without signing in. Every other route must refuse an anonymous caller, and a route
 * that needs a permission must refuse a student. A route added to the app and to neither list fails this test.
 */
const PUBLIC = new Set([
  'GET /healthz',
  'GET /readyz',
  'GET /gw/api/v1/sys/setting',
  'GET /gw/api/v1/langList',
  'GET /gw/api/v1/apps',
  'GET /gw/api/v1/openapi.json',
  'GET /gw/api/v1/files/download',
  'POST /gw/api/v1/auth/login',
  'POST /api/v1/auth/login',
  'GET /gw/api/v1/auth/token',
  'POST /gw/api/v1/auth/token/loginInfo',
  'GET /gw/api/v1/auth/verifycode/enabled',
  'GET /api/v1/auth/captcha',
  'POST /api/v1/auth/captcha/check',
  'GET /api/v1/auth/verifycode',
  'POST /gw/api/v1/user/verifyCode/send',
  'POST /gw/api/v1/user/register/byPhone',
  'POST /gw/api/v1/user/verifyCode/login',
  'POST /gw/api/v1/user/register/password/update',
  'GET /gw/api/v1/school/home',
  'GET /gw/api/v1/auth/thirdparty/:type/authorize',
  'GET /gw/api/v1/auth/iaif_login',
  'GET /gw/api/v1/auth/uaa_login',
  'POST /gw/api/v1/user/thirdparty/:type/login',
  'GET /api/v1/courses/centre',
  'GET /api/v1/courses/filters',
  'GET /api/v1/courses/:id',
  'POST /api/v1/courses/applications',
  // Called by another server process, signed with the deployment's key rather than a person's token; its
  // refusals are tested in runtime-holders.test.ts.
  'POST /internal/v1/runtimes/:projectId/stop',
  // Followed by the browser with a one-minute ticket instead of a header; its refusals are tested in
  // backup.routes.test.ts.
  'GET /api/v1/admin_super/backup',
  // Certificates: anyone checks one by its number or its credential file (rate-limited, tested in
  // user-cert.routes.test.ts), and reads the key that signs credentials.
  'GET /api/v1/cert/verify',
  'POST /api/v1/cert/verifyCredential',
  'GET /.well-known/jwks.json',
  'GET /api/v1/event',
  'GET /api/v1/event/detail',
  'GET /api/v1/event/file',
  'GET /api/v1/event/ladder',
  'GET /api/v1/event/results',
  'GET /api/v1/event/work/detail',
  'GET /api/v1/event/work/video',
  // A certificate image by the signed address of an answer (it works in <img>), or signed in by a key of the caller's
  // customer; its refusals are tested in cert.routes.test.ts.
  'GET /api/v1/certPic',
]);

const isInfrastructure = (r: RouteEntry) => r.url.startsWith('/api-docs') || r.url.startsWith('/assets/');
const key = (r: RouteEntry) => `${r.method} ${r.url}`;
const concrete = (url: string) =>
  url
    .replace(/:id\b/g, '0192f7a0-0000-7000-8000-000000000000')
    .replace(/:type\b/g, 'oidc')
    .replace(/\*$/, 'x');

describe('access to every route', () => {
  let t: TestApp;
  let routes: RouteEntry[];
  let studentToken: string;

  beforeAll(async () => {
    t = await createTestApp();
    await t.app.ready();
    routes = t.app.routeTable.filter((r) => !isInfrastructure(r));
    const customer = await buildCustomer(t.database.db);
    const student = await buildUser(t.database.db, {
      customerId: customer.id,
      username: 'kid',
      roles: [ROLES.student],
    });
    studentToken = await signIn(t.app, customer.code, 'kid', student.password);
  });
  afterAll(() => t.close());

  /** Calls each route with `headers` and an empty body; every one must answer `expected`. */
  const expectEvery = async (
    list: RouteEntry[],
    headers: Record<string, string>,
    expected: { status: number; code: string },
  ) => {
    for (const route of list) {
      const res = await t.app.inject({ method: route.method as 'GET', url: concrete(route.url), payload: {}, headers });
      expect({ route: key(route), status: res.statusCode, code: res.json().errorCode }).toEqual({
        route: key(route),
        ...expected,
      });
    }
  };

  it('knows every public route, and every public route exists', () => {
    const anonymous = routes.filter((r) => r.auth !== 'required' && !r.permission).map(key);
    expect(anonymous.sort()).toEqual([...PUBLIC].sort());
  });

  it('refuses an anonymous caller on every other route with 1107', async () => {
    const guarded = routes.filter((r) => !PUBLIC.has(key(r)));
    expect(guarded.length).toBeGreaterThan(10);
    await expectEvery(guarded, {}, { status: 401, code: '1107' });
  });

  it('refuses the token of a sign-in that ended on every other route with E002', async () => {
    const customer = await buildCustomer(t.database.db);
    const leaver = await buildUser(t.database.db, { customerId: customer.id, username: 'leaver' });
    const token = await signIn(t.app, customer.code, 'leaver', leaver.password);
    const logout = { method: 'POST' as const, url: '/gw/api/v1/auth/logout', headers: { 'x-authorization': token } };
    expect((await t.app.inject(logout)).json().errorCode).toBe('1000');
    const guarded = routes.filter((r) => !PUBLIC.has(key(r)));
    await expectEvery(guarded, { 'x-authorization': token }, { status: 401, code: 'E002' });
  });

  it('refuses a student on every route that needs an administrator permission', async () => {
    // Permissions students hold themselves are not an administrator's.
    const privileged = routes.filter(
      (r) => r.permission && !hasPermission([ROLES.student], r.permission as Permission),
    );
    expect(privileged.length).toBeGreaterThan(5);
    await expectEvery(privileged, { 'x-authorization': studentToken }, { status: 403, code: '1006' });
  });
});
