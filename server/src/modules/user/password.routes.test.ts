import { ROLES } from '@aiedu/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { b64, buildCustomer, buildSchool, buildUser, testClock } from '../../test/factories.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

describe('password change and the forced change of an administrator-set password', () => {
  let t: TestApp;
  let custcode: string;
  let customerId: string;

  beforeAll(async () => {
    t = await createTestApp();
    const customer = await buildCustomer(t.database.db);
    custcode = customer.code;
    customerId = customer.id;
    await buildUser(t.database.db, { customerId: customer.id, username: 'changer', password: 'First2026x' });
    await buildUser(t.database.db, {
      customerId: customer.id,
      username: 'newkid',
      password: 'Given2026x',
      mustChangePassword: true,
    });
    await buildUser(t.database.db, {
      customerId: customer.id,
      username: 'leaver',
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

  it("asks an administrator's own new password to be strong, and everyone else's to be simple", async () => {
    const admin = await buildUser(t.database.db, {
      customerId,
      roles: [ROLES.customerAdmin],
      mustChangePassword: true,
    });
    const teacher = await buildUser(t.database.db, { customerId, roles: [ROLES.teacher] });
    const adminToken = (await login(admin.username, admin.password)).data.token;
    const teacherToken = (await login(teacher.username, teacher.password)).data.token;
    // Simple (six, with a capital, a small letter and a digit) but not strong (eight, three kinds).
    const simple = 'Kid7ok';
    const replaced = await call('PUT', '/gw/api/v1/auth/pwd/default', adminToken, { newPasswd: b64(simple) });
    expect(replaced.json().errorCode).toBe('1117');
    const spaced = await call('PUT', '/gw/api/v1/auth/pwd/default', adminToken, { newPasswd: b64('Kid7 ok2026') });
    expect(spaced.json().errorCode).toBe('1117');
    const strong = await call('PUT', '/gw/api/v1/auth/pwd/default', adminToken, { newPasswd: b64('kid7ok!2026') });
    expect(strong.json().errorCode).toBe('1000');
    const changed = await call('PUT', '/gw/api/v1/auth/pwd', teacherToken, {
      oriPasswd: b64(teacher.password),
      newPasswd: b64(simple),
    });
    expect(changed.json().errorCode).toBe('1000');
  });

  it('takes 6–20 visible ASCII characters as a password an administrator sets, nothing else', async () => {
    const school = await buildSchool(t.database.db, customerId);
    const admin = await buildUser(t.database.db, { customerId, roles: [ROLES.customerAdmin] });
    const token = (await login(admin.username, admin.password)).data.token;
    const create = (username: string, password: string) =>
      call('POST', '/gw/admin/api/v1/school/teachers', token, {
        schoolId: school.id,
        username,
        realName: 'Given',
        password: b64(password),
      });
    for (const refused of ['Start 2026', '密码密码密码', 'Größe2026', 'five5'])
      expect((await create('given1', refused)).json().errorCode, refused).toBe('1117');
    const created = await create('given1', '123456');
    expect(created.json().errorCode).toBe('1000');
    const reset = (password: string) =>
      call('PUT', `/gw/admin/api/v1/school/teachers/${created.json().data.id}/password`, token, {
        password: b64(password),
      });
    expect((await reset('new pass')).json().errorCode).toBe('1117');
    expect((await reset('new-pass')).json().errorCode).toBe('1000');
  });

  it('lets a user with an administrator-set password sign out by every logout call', async () => {
    for (const url of ['/gw/api/v1/auth/logout', '/gw/api/v1/auth/uaa_logout', '/api/v1/auth/logout']) {
      const { data } = await login('leaver', 'Given2026x');
      expect(data.mustChangePassword).toBe(true);
      expect((await call('POST', url, data.token)).json()).toMatchObject({ errorCode: '1000' });
      const refreshed = await t.app.inject({
        method: 'GET',
        url: '/gw/api/v1/auth/token',
        headers: { 'x-authorization': data.refreshToken },
      });
      expect(refreshed.json().errorCode).toBe('E002');
    }
  });
});

describe('a password change with a wrong old password', () => {
  let t: TestApp;
  const clock = testClock();
  let custcode: string;
  let customerId: string;

  beforeAll(async () => {
    t = await createTestApp({ now: clock.now, config: { trustProxy: true, shieldLoginFailuresPerHour: 4 } });
    const customer = await buildCustomer(t.database.db);
    custcode = customer.code;
    customerId = customer.id;
  });
  afterAll(() => t.close());

  const login = (username: string, password: string, ip: string) =>
    t.app.inject({
      method: 'POST',
      url: '/gw/api/v1/auth/login',
      payload: { custcode, usernameOrEmailOrPhone: username, password: b64(password) },
      headers: { 'x-forwarded-for': ip },
    });
  const change = (token: string, oldPassword: string, ip: string) =>
    t.app.inject({
      method: 'PUT',
      url: '/gw/api/v1/auth/pwd',
      payload: { oriPasswd: b64(oldPassword), newPasswd: b64('Changed2026x') },
      headers: { 'x-authorization': token, 'x-forwarded-for': ip, language: 'en' },
    });

  it('counts as a sign-in failure of the account, and after 3 refuses changes until the window passes', async () => {
    const account = await buildUser(t.database.db, { customerId });
    const token = (await login(account.username, account.password, '10.5.0.1')).json().data.token;
    for (let i = 0; i < 3; i++) expect((await change(token, 'Wrong2026x', '10.5.0.1')).json().errorCode).toBe('1102');
    // The next sign-in of the account needs the captcha, from any address.
    expect((await login(account.username, account.password, '10.5.0.2')).json().errorCode).toBe('1104');
    // And the change itself is refused, even with the right old password, until the window has passed.
    const refused = await change(token, account.password, '10.5.0.1');
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({
      errorCode: '1101',
      errorMsg: 'Too many login attempts, please try again later',
    });
    clock.advance(t.config.loginFailureWindowMinutes * 60_000 + 1000);
    expect((await change(token, account.password, '10.5.0.1')).json().errorCode).toBe('1000');
  });

  it("counts toward the address's request shield", async () => {
    const tokens = [];
    for (const account of [
      await buildUser(t.database.db, { customerId }),
      await buildUser(t.database.db, { customerId }),
    ]) {
      tokens.push((await login(account.username, account.password, '10.5.1.1')).json().data.token);
    }
    // 5 wrong old passwords from one address, over two accounts: one more than its hourly limit here.
    for (const token of [tokens[0], tokens[0], tokens[0], tokens[1], tokens[1]]) {
      expect((await change(token, 'Wrong2026x', '10.5.1.1')).json().errorCode).toBe('1102');
    }
    const blocked = await login('anyone', 'Any2026xx', '10.5.1.1');
    expect(blocked.statusCode).toBe(403);
    expect(blocked.headers['content-type']).toMatch(/^text\/plain/);
  });
});
