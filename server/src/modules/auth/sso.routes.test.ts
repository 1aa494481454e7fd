import { ROLES } from '@aiedu/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCustomer, buildUser, signIn } from '../../test/factories.js';
import { startOidcProvider, type LocalOidcProvider } from '../../test/oidc-provider.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

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
    const created = await t.app.inject({
      method: 'POST',
      url: '/gw/api/v1/sys/sso/providers',
      headers: { 'x-authorization': adminToken },
      payload: {
        type: 'school-idp',
        name: 'School accounts',
        issuer: idp.issuer,
        clientId: 'aiedu',
        clientSecret: 'aiedu-secret',
      },
    });
    expect(created.json().data.redirectUri).toBe(`${publicUrl}/user/sign/login/school-idp`);
  });
  afterAll(async () => {
    await idp.close();
    await t.close();
  });

  const authorize = async (targetUrl = '/pjedu/course') =>
    (
      await t.app.inject({
        method: 'GET',
        url: `/gw/api/v1/auth/thirdparty/school-idp/authorize?custcode=${custcode}&targetUrl=${encodeURIComponent(targetUrl)}`,
      })
    ).json().data.url as string;

  it('signs a new user in through the provider, creating the account in the customer', async () => {
    const url = await authorize();
    expect(url.startsWith(`${idp.issuer}/auth?`)).toBe(true);
    expect(new URL(url).searchParams.get('code_challenge_method')).toBe('S256');
    const query = await idp.signIn(url, 'liwei');
    const res = await t.app.inject({
      method: 'GET',
      url: `/gw/api/v1/auth/iaif_login?${new URLSearchParams(query)}`,
    });
    expect(res.json().errorCode).toBe('1000');
    const login = res.json().data;
    expect(login).toMatchObject({ roles: [ROLES.student], targetUrl: '/pjedu/course' });
    const info = await t.app.inject({
      method: 'GET',
      url: '/gw/api/v1/user/userInfo',
      headers: { 'x-authorization': login.token },
    });
    expect(info.json().data).toMatchObject({ username: 'liwei', custcode, realName: 'Teacher liwei' });

    // The same person again: the same account, through the other finishing call.
    const again = await idp.signIn(await authorize(), 'liwei');
    const second = await t.app.inject({
      method: 'POST',
      url: '/gw/api/v1/user/thirdparty/school-idp/login',
      payload: { data: again },
    });
    expect(second.json().data.id).toBe(login.id);
  });

  it('refuses a replayed or forged callback', async () => {
    const query = await idp.signIn(await authorize(), 'zhang');
    const first = await t.app.inject({ method: 'GET', url: `/gw/api/v1/auth/uaa_login?${new URLSearchParams(query)}` });
    expect(first.json().errorCode).toBe('1000');
    const replay = await t.app.inject({
      method: 'GET',
      url: `/gw/api/v1/auth/uaa_login?${new URLSearchParams(query)}`,
    });
    expect(replay.json().errorCode).toBe('1005');
    const forged = await t.app.inject({
      method: 'GET',
      url: `/gw/api/v1/auth/iaif_login?code=abc&state=${'x'.repeat(43)}`,
    });
    expect(forged.json().errorCode).toBe('1005');
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
