import { ROLES } from '@aiedu/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { students, users } from '../../platform/db/schema/index.js';
import { buildCustomer, buildSchool, buildUser, signIn } from '../../test/factories.js';
import { startOidcProvider, type LocalOidcProvider } from '../../test/oidc-provider.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { browserBinding } from './sso.service.js';

describe('single sign-on over OpenID Connect', () => {
  let t: TestApp;
  let idp: LocalOidcProvider;
  let custcode: string;
  let adminToken: string;
  const publicUrl = 'http://school.test';

  beforeAll(async () => {
    t = await createTestApp({ config: { publicUrl } });
    idp = await startOidcProvider({
      clientId: 'aiedu',
      clientSecret: 'aiedu-secret',
      redirectUri: `${publicUrl}/user/sign/login/school-idp`,
    });
    const customer = await buildCustomer(t.database.db);
    custcode = customer.code;
    const admin = await buildUser(t.database.db, {
      customerId: customer.id,
      username: 'admin',
      roles: [ROLES.customerAdmin],
    });
    adminToken = await signIn(t.app, custcode, 'admin', admin.password);
    const created = await addProvider(adminToken);
    expect(created.json().data.redirectUri).toBe(`${publicUrl}/user/sign/login/school-idp`);
  });
  afterAll(async () => {
    await idp.close();
    await t.close();
  });

  /** Adds the local provider as `school-idp` for the customer (or the public space) of the token's holder. */
  const addProvider = (token: string, fields: object = {}) =>
    t.app.inject({
      method: 'POST',
      url: '/gw/api/v1/sys/sso/providers',
      headers: { 'x-authorization': token },
      payload: {
        type: 'school-idp',
        name: 'School accounts',
        issuer: idp.issuer,
        clientId: 'aiedu',
        clientSecret: 'aiedu-secret',
        ...fields,
      },
    });

  /** Starts a sign-in as a browser does: the provider's address, and the cookie the answer set. */
  const authorize = async (targetUrl = '/pjedu/course', code = custcode, headers: Record<string, string> = {}) => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/gw/api/v1/auth/thirdparty/school-idp/authorize?custcode=${code}&targetUrl=${encodeURIComponent(targetUrl)}`,
      headers,
    });
    const cookie = res.cookies.find((c) => c.name === 'ssoBinding');
    const cookies: Record<string, string> = cookie ? { ssoBinding: cookie.value } : {};
    return { url: res.json().data.url as string, cookie, cookies };
  };
  const finish = (query: Record<string, string>, cookies: Record<string, string>) =>
    t.app.inject({ method: 'GET', url: `/gw/api/v1/auth/iaif_login?${new URLSearchParams(query)}`, cookies });

  it('signs a new user in through the provider, creating the account in the customer', async () => {
    const { url, cookies } = await authorize();
    expect(url.startsWith(`${idp.issuer}/auth?`)).toBe(true);
    expect(new URL(url).searchParams.get('code_challenge_method')).toBe('S256');
    const query = await idp.signIn(url, 'liwei');
    const res = await finish(query, cookies);
    expect(res.json().errorCode).toBe('1000');
    const login = res.json().data;
    expect(login).toMatchObject({ roles: [ROLES.student], targetUrl: '/pjedu/course', mustChangePassword: false });
    const info = await t.app.inject({
      method: 'GET',
      url: '/gw/api/v1/user/userInfo',
      headers: { 'x-authorization': login.token },
    });
    expect(info.json().data).toMatchObject({ username: 'liwei', custcode, realName: 'Teacher liwei' });

    // The same person again: the same account, through the other finishing call.
    const started = await authorize();
    const again = await idp.signIn(started.url, 'liwei');
    const second = await t.app.inject({
      method: 'POST',
      url: '/gw/api/v1/user/thirdparty/school-idp/login',
      payload: { data: again },
      cookies: started.cookies,
    });
    expect(second.json().data.id).toBe(login.id);
  });

  it('refuses a replayed or forged callback', async () => {
    const { url, cookies } = await authorize();
    const query = await idp.signIn(url, 'zhang');
    const first = await t.app.inject({
      method: 'GET',
      url: `/gw/api/v1/auth/uaa_login?${new URLSearchParams(query)}`,
      cookies,
    });
    expect(first.json().errorCode).toBe('1000');
    const replay = await t.app.inject({
      method: 'GET',
      url: `/gw/api/v1/auth/uaa_login?${new URLSearchParams(query)}`,
      cookies,
    });
    expect(replay.json().errorCode).toBe('1005');
    // A refusal of its own sign-in clears the cookie too: the state is spent.
    expect(replay.cookies.find((c) => c.name === 'ssoBinding')?.value).toBe('');
    const state = 'x'.repeat(43);
    const forged = await finish({ code: 'abc', state }, { ssoBinding: browserBinding(state) });
    expect(forged.json().errorCode).toBe('1005');
  });

  it('binds a sign-in to the browser that started it', async () => {
    const { url, cookie, cookies } = await authorize();
    expect(cookie).toMatchObject({ path: '/gw/api/v1', httpOnly: true, sameSite: 'Lax', maxAge: 600 });
    expect(cookie?.secure).toBeFalsy();
    // Someone's own sign-in, its callback link sent to another browser: without the cookie, or with that
    // browser's own, it signs no one in, and it leaves the sign-in to the browser that started it.
    const query = await idp.signIn(url, 'attacker');
    const elsewhere = await finish(query, {});
    expect(elsewhere.json().errorCode).toBe('1112');
    const other = await authorize();
    const otherBrowser = await finish(query, other.cookies);
    expect(otherBrowser.json().errorCode).toBe('1112');
    // That browser's own sign-in goes on: its cookie stays.
    expect(otherBrowser.cookies).toEqual([]);
    const posted = await t.app.inject({
      method: 'POST',
      url: '/gw/api/v1/user/thirdparty/school-idp/login',
      payload: { data: query },
    });
    expect(posted.json().errorCode).toBe('1112');

    const own = await finish(query, cookies);
    expect(own.json().errorCode).toBe('1000');
    // Done: the answer clears the cookie.
    expect(own.cookies.find((c) => c.name === 'ssoBinding')).toMatchObject({ value: '', path: '/gw/api/v1' });
    expect(own.cookies.find((c) => c.name === 'ssoBinding')?.expires?.getTime()).toBeLessThan(Date.now());

    // A page served over HTTPS gets it Secure.
    const https = await authorize('/', custcode, { referer: 'https://school.test/portal/sign/thirdparty' });
    expect(https.cookie?.secure).toBe(true);
  });

  it("answers the account's own must-change-password flag", async () => {
    const first = await authorize();
    const login = (await finish(await idp.signIn(first.url, 'wangfang'), first.cookies)).json().data;
    await t.database.db.update(users).set({ mustChangePassword: true }).where(eq(users.id, login.id));
    const second = await authorize();
    const again = await finish(await idp.signIn(second.url, 'wangfang'), second.cookies);
    expect(again.json().data).toMatchObject({ id: login.id, mustChangePassword: true });
  });

  it("creates no account beyond the customer's student quota", async () => {
    const db = t.database.db;
    const full = await buildCustomer(db, { studentQuota: 2 });
    const school = await buildSchool(db, full.id);
    const pupil = await buildUser(db, { customerId: full.id, schoolId: school.id });
    await db.insert(students).values({ userId: pupil.id, customerId: full.id, schoolId: school.id });
    const admin = await buildUser(db, { customerId: full.id, username: 'admin', roles: [ROLES.customerAdmin] });
    const provider = await addProvider(await signIn(t.app, full.code, 'admin', admin.password));
    expect(provider.json().errorCode).toBe('1000');

    // The second place goes to the first account the provider brings; it is on no roster, and still takes a place.
    const first = await authorize('/', full.code);
    expect((await finish(await idp.signIn(first.url, 'wangfang'), first.cookies)).json().errorCode).toBe('1000');

    const { url, cookies } = await authorize('/', full.code);
    const res = await finish(await idp.signIn(url, 'latecomer'), cookies);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ errorCode: '5004', data: { quota: 2, used: 2 } });
    expect(await db.select().from(users).where(eq(users.username, 'latecomer'))).toEqual([]);
  });

  it("puts accounts it creates on the roster of the provider's school, where its administrators see them", async () => {
    const db = t.database.db;
    const customer = await buildCustomer(db);
    const school = await buildSchool(db, customer.id);
    const elsewhere = await buildSchool(db, (await buildCustomer(db)).id);
    const admin = await buildUser(db, { customerId: customer.id, username: 'admin', roles: [ROLES.customerAdmin] });
    const token = await signIn(t.app, customer.code, 'admin', admin.password);
    const add = (schoolId: string | null, as = token) => addProvider(as, { schoolId });
    // Another customer's school is refused, and so is any school for the public space's providers.
    const foreign = await add(elsewhere.id);
    expect(foreign.json()).toMatchObject({ errorCode: '1001', data: { field: 'schoolId' } });
    const root = await buildUser(db, { username: `root${Date.now()}`, roles: [ROLES.super] });
    const publicSpace = await add(school.id, await signIn(t.app, '', root.username, root.password));
    expect(publicSpace.json()).toMatchObject({ errorCode: '1001', data: { field: 'schoolId' } });

    expect((await add(school.id)).json().data).toMatchObject({ schoolId: school.id });
    const { url, cookies } = await authorize('/', customer.code);
    const login = (await finish(await idp.signIn(url, 'zhaolei'), cookies)).json();
    expect(login.errorCode).toBe('1000');
    expect(await db.select().from(students).where(eq(students.userId, login.data.id))).toEqual([
      expect.objectContaining({ customerId: customer.id, schoolId: school.id, classId: null }),
    ]);
    const list = await t.app.inject({
      method: 'GET',
      url: `/gw/admin/api/v1/school/students?schoolId=${school.id}`,
      headers: { 'x-authorization': token },
    });
    expect(list.json().data.list).toEqual([expect.objectContaining({ id: login.data.id, username: 'zhaolei' })]);
  });

  it('answers login failed for an unknown provider type or customer', async () => {
    const unknown = await t.app.inject({
      method: 'GET',
      url: `/gw/api/v1/auth/thirdparty/nope/authorize?custcode=${custcode}`,
    });
    expect(unknown.json().errorCode).toBe('1112');
    const wrongCustomer = await t.app.inject({
      method: 'GET',
      url: '/gw/api/v1/auth/thirdparty/school-idp/authorize?custcode=nosuchcustomer',
    });
    expect(wrongCustomer.json().errorCode).toBe('1112');
  });
});
