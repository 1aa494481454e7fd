import { ROLES } from '@aiedu/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { b64, buildCustomer, buildUser, testClock } from '../../test/factories.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

describe('request shield', () => {
  let t: TestApp;
  const clock = testClock();
  let custcode: string;
  let adminToken: string;
  let otherAdminToken: string;

  beforeAll(async () => {
    t = await createTestApp({
      now: clock.now,
      config: {
        trustProxy: true,
        shieldLoginFailuresPerHour: 5,
        captchaAfterAccountFailures: 100,
        captchaAfterAddressFailures: 100,
      },
    });
    const customer = await buildCustomer(t.database.db);
    const other = await buildCustomer(t.database.db);
    custcode = customer.code;
    const admin = await buildUser(t.database.db, {
      customerId: customer.id,
      username: 'admin',
      roles: [ROLES.customerAdmin],
    });
    const otherAdmin = await buildUser(t.database.db, {
      customerId: other.id,
      username: 'admin',
      roles: [ROLES.customerAdmin],
    });
    adminToken = await tokenOf(customer.code, admin.password, '192.0.2.200');
    otherAdminToken = await tokenOf(other.code, otherAdmin.password, '192.0.2.201');
  });
  afterAll(() => t.close());

  async function tokenOf(code: string, password: string, ip: string) {
    const res = await failLogin(ip, { custcode: code, usernameOrEmailOrPhone: 'admin', password: b64(password) });
    return res.json().data.token as string;
  }
  function failLogin(ip: string, payload?: object) {
    return t.app.inject({
      method: 'POST',
      url: '/gw/api/v1/auth/login',
      headers: { 'x-forwarded-for': ip },
      payload: payload ?? { custcode, usernameOrEmailOrPhone: 'nobody', password: b64('wrong-wrong') },
    });
  }
  const setting = (ip: string) =>
    t.app.inject({ method: 'GET', url: '/gw/api/v1/sys/setting', headers: { 'x-forwarded-for': ip } });

  it('answers an abusive address with HTTP 403 and a text body for 15 minutes', async () => {
    for (let i = 0; i < 6; i++) await failLogin('198.51.100.7');
    const blocked = await setting('198.51.100.7');
    expect(blocked.statusCode).toBe(403);
    expect(blocked.headers['content-type']).toContain('text/plain');
    expect(blocked.body).toContain('blocked');
    expect((await setting('198.51.100.8')).statusCode).toBe(200);
    const page = await t.app.inject({ method: 'GET', url: '/healthz', headers: { 'x-forwarded-for': '198.51.100.7' } });
    expect(page.statusCode).toBe(200);
    clock.advance(15 * 60_000 + 1000);
    expect((await setting('198.51.100.7')).statusCode).toBe(200);
  });

  it('never blocks a school range an administrator listed', async () => {
    const added = await t.app.inject({
      method: 'POST',
      url: '/gw/api/v1/sys/shield/ranges',
      headers: { 'x-authorization': adminToken },
      payload: { range: '203.0.113.0/24', note: 'Demo Primary School' },
    });
    expect(added.json().errorCode).toBe('1000');
    for (let i = 0; i < 20; i++) await failLogin('203.0.113.50');
    expect((await setting('203.0.113.50')).statusCode).toBe(200);
  });

  it('keeps each customer to its own list and refuses malformed ranges', async () => {
    const mine = await t.app.inject({
      method: 'GET',
      url: '/gw/api/v1/sys/shield/ranges',
      headers: { 'x-authorization': adminToken },
    });
    expect(mine.json().data.map((r: { range: string }) => r.range)).toEqual(['203.0.113.0/24']);
    const theirs = await t.app.inject({
      method: 'GET',
      url: '/gw/api/v1/sys/shield/ranges',
      headers: { 'x-authorization': otherAdminToken },
    });
    expect(theirs.json().data).toEqual([]);
    const id = mine.json().data[0].id;
    const foreignDelete = await t.app.inject({
      method: 'DELETE',
      url: `/gw/api/v1/sys/shield/ranges/${id}`,
      headers: { 'x-authorization': otherAdminToken },
    });
    expect(foreignDelete.statusCode).toBe(404);
    for (const range of ['999.1.1.1', '10.0.0.0/99', 'school']) {
      const bad = await t.app.inject({
        method: 'POST',
        url: '/gw/api/v1/sys/shield/ranges',
        headers: { 'x-authorization': adminToken },
        payload: { range },
      });
      expect(bad.statusCode).toBe(400);
    }
  });
});
