import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { b64, buildCustomer, buildUser } from '../../test/factories.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

describe('password change and the forced change of an administrator-set password', () => {
  let t: TestApp;
  let custcode: string;

  beforeAll(async () => {
    t = await createTestApp();
    const customer = await buildCustomer(t.database.db);
    custcode = customer.code;
    await buildUser(t.database.db, { customerId: customer.id, username: 'changer', password: 'First2026x' });
    await buildUser(t.database.db, {
      customerId: customer.id,
      username: 'newkid',
      password: 'Given2026x',
      mustChangePassword: true,
    });
  });
  afterAll(() => t.close());

  const login = async (username: string, password: string) =>
    (
      await t.app.inject({
        method: 'POST',
        url: '/gw/api/v1/auth/login',
        payload: { custcode, usernameOrEmailOrPhone: username, password: b64(password) },
      })
    ).json();
  const call = (method: 'GET' | 'PUT' | 'POST', url: string, token: string, payload?: object) =>
    t.app.inject({ method, url, payload, headers: { 'x-authorization': token, language: 'en' } });

  it('changes a password with the old one and answers a fresh pair', async () => {
    const { data } = await login('changer', 'First2026x');
    const wrong = await call('PUT', '/gw/api/v1/auth/pwd', data.token, {
      oriPasswd: b64('nope'),
      newPasswd: b64('Second2026x'),
    });
    expect(wrong.json().errorCode).toBe('1102');
    const weak = await call('PUT', '/gw/api/v1/auth/pwd', data.token, {
      oriPasswd: b64('First2026x'),
      newPasswd: b64('short'),
    });
    expect(weak.json().errorCode).toBe('1117');
    const res = await call('PUT', '/gw/api/v1/auth/pwd', data.token, {
      oriPasswd: b64('First2026x'),
      newPasswd: b64('Second2026x'),
    });
    expect(res.json().errorCode).toBe('1000');
    expect(res.json().data.token).toBeTruthy();
    expect((await login('changer', 'First2026x')).errorCode).toBe('1102');
    const legacy = await call('POST', '/api/v1/auth/pwd/modify', res.json().data.token, {
      pwd: b64('Second2026x'),
      newPwd: b64('Third2026x'),
    });
    expect(legacy.json().errorCode).toBe('1000');
    expect((await login('changer', 'Third2026x')).errorCode).toBe('1000');
  });

  it('lets a user with an administrator-set password do nothing but change it', async () => {
    const { data } = await login('newkid', 'Given2026x');
    expect(data.mustChangePassword).toBe(true);
    const blocked = await call('PUT', '/gw/api/v1/user/userInfo', data.token, { nickname: 'Kid' });
    expect(blocked.statusCode).toBe(403);
    expect(blocked.json().errorCode).toBe('1118');
    expect((await call('GET', '/gw/api/v1/user/userInfo', data.token)).json().data.mustChangePassword).toBe(true);

    const changed = await call('PUT', '/gw/api/v1/auth/pwd/default', data.token, { newPasswd: b64('Mine2026ok') });
    expect(changed.json().errorCode).toBe('1000');
    const next = changed.json().data.token;
    expect((await call('PUT', '/gw/api/v1/user/userInfo', next, { nickname: 'Kid' })).json().errorCode).toBe('1000');
    const again = await call('PUT', '/gw/api/v1/auth/pwd/default', next, { newPasswd: b64('Other2026ok') });
    expect(again.json().errorCode).toBe('1009');
    expect((await login('newkid', 'Mine2026ok')).data.mustChangePassword).toBe(false);
  });
});
