import { API, ROLES } from '@aiedu/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addressRanges } from '../../platform/db/schema/index.js';
import { b64, buildCustomer, buildUser, testClock } from '../../test/factories.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

describe('request shield', () => {
  let t: TestApp;
  const clock = testClock();
  let custcode: string;
  let otherCustomerId: string;
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
    otherCustomerId = other.id;
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
  function failLogin(ip: string, payload?: object, url = '/gw/api/v1/auth/login') {
    return t.app.inject({
      method: 'POST',
      url,
      headers: { 'x-forwarded-for': ip },
      payload: payload ?? { custcode, usernameOrEmailOrPhone: 'nobody', password: b64('wrong-wrong') },
    });
  }
  const addRange = (range: string, token = adminToken) =>
    t.app.inject({
      method: 'POST',
      url: '/gw/api/v1/sys/shield/ranges',
      headers: { 'x-authorization': token },
      payload: { range },
    });
  const setting = (ip: string) =>
    t.app.inject({ method: 'GET', url: '/gw/api/v1/sys/setting', headers: { 'x-forwarded-for': ip } });

  it('answers an abusive address with HTTP 403 and a text body for 15 minutes', async () => {
    for (let i = 0; i < 6; i++) await failLogin('198.51.100.7');
    const blocked = await setting('198.51.100.7');
    expect(blocked.statusCode).toBe(403);
    expect(blocked.headers['content-type']).toContain('text/plain');
    expect(blocked.body).toContain('try again in 15 minutes');
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

  it('blocks an API path written with percent-escapes as it blocks the plain one', async () => {
    const encoded = ['/%67w/api/v1/auth/login', '/gw/api/v1/auth/%6Cogin', '/%2567w/api/v1/auth/login'];
    // The router decodes the escapes: the first two reach the login handler.
    expect((await failLogin('198.51.100.20', undefined, encoded[0])).json().errorCode).toBe('1102');
    for (let i = 0; i < 6; i++) await failLogin('198.51.100.21');
    for (const url of encoded.slice(0, 2)) {
      const blocked = await failLogin('198.51.100.21', undefined, url);
      expect(blocked.statusCode, url).toBe(403);
      expect(blocked.headers['content-type']).toContain('text/plain');
      expect(blocked.body).toContain('blocked');
    }
    // An escaped escape is no API path to the router either: no handler of the API answers it.
    expect((await failLogin('198.51.100.21', undefined, encoded[2])).statusCode).toBe(404);
  });

  it('counts the address the proxy added, not one the client wrote before it', async () => {
    // The forged left-most addresses change with every request, some inside the school range listed above.
    for (let i = 0; i < 6; i++) await failLogin(`203.0.113.${60 + i}, 198.51.100.30`);
    expect((await setting('198.51.100.30')).statusCode).toBe(403);
    expect((await setting('6.6.6.6, 198.51.100.30')).statusCode).toBe(403);
    expect((await setting('203.0.113.60')).statusCode).toBe(200);
  });

  it('refuses ranges wider than an IPv4 /16 or an IPv6 /48, and ignores stored ones', async () => {
    for (const range of ['0.0.0.0/0', '::/0', '10.0.0.0/8', '2001:db8::/32', '::ffff:0:0/96']) {
      const wide = await addRange(range);
      expect(wide.statusCode, range).toBe(400);
      expect(wide.json(), range).toMatchObject({ errorCode: '1001', data: { reason: 'range too wide' } });
    }
    expect((await addRange('10.20.0.0/16')).json().errorCode).toBe('1000');
    expect((await addRange('2001:db8:5::/48')).json().errorCode).toBe('1000');

    // One stored before the bound stays out of the shield's list.
    await t.database.db.insert(addressRanges).values({ customerId: otherCustomerId, range: '0.0.0.0/0', note: '' });
    expect((await addRange('192.0.2.0/24', otherAdminToken)).json().errorCode).toBe('1000');
    for (let i = 0; i < 6; i++) await failLogin('198.51.100.40');
    expect((await setting('198.51.100.40')).statusCode).toBe(403);
  });
});

describe('request shield on captchas', () => {
  let t: TestApp;
  const clock = testClock();

  beforeAll(async () => {
    t = await createTestApp({
      now: clock.now,
      config: { trustProxy: true, shieldCaptchaRequestsPerHour: 3, shieldBlockMinutes: 40 },
    });
  });
  afterAll(() => t.close());

  it('blocks an address that asks for more slider puzzles than its hourly limit, for the minutes configured', async () => {
    const captcha = (ip: string) =>
      t.app.inject({ method: 'GET', url: API.captcha, headers: { 'x-forwarded-for': ip } });
    for (let i = 0; i < 4; i++) expect((await captcha('198.51.100.50')).json().errorCode).toBe('1000');
    const blocked = await captcha('198.51.100.50');
    expect(blocked.statusCode).toBe(403);
    expect(blocked.headers['content-type']).toContain('text/plain');
    // The answer names the time the block still runs: SHIELD_BLOCK_MINUTES, then less.
    expect(blocked.body).toContain('try again in 40 minutes');
    clock.advance(39 * 60_000 + 30_000);
    expect((await captcha('198.51.100.50')).body).toContain('try again in 1 minute ');
    expect((await captcha('198.51.100.51')).statusCode).toBe(200);
    clock.advance(31_000);
    expect((await captcha('198.51.100.50')).statusCode).toBe(200);
  });

  it('counts the legacy image codes toward the same limit', async () => {
    const imageCode = (ip: string) =>
      t.app.inject({
        method: 'GET',
        url: `${API.imageCode}?acid=0192f7a0-0000-7000-8000-000000000009`,
        headers: { 'x-forwarded-for': ip },
      });
    for (let i = 0; i < 4; i++) expect((await imageCode('198.51.100.60')).statusCode).toBe(200);
    const blocked = await imageCode('198.51.100.60');
    expect(blocked.statusCode).toBe(403);
    expect(blocked.headers['content-type']).toContain('text/plain');
  });
});
