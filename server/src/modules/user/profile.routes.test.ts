import { ROLES } from '@aiedu/contracts';
import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outbox, users } from '../../platform/db/schema/index.js';
import { addPoints } from './points.service.js';
import { b64, buildCustomer, buildUser, signIn, testClock } from '../../test/factories.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

describe('profile and points', () => {
  let t: TestApp;
  let token: string;
  let userId: string;
  let custcode: string;
  let password: string;
  const clock = testClock();

  beforeAll(async () => {
    t = await createTestApp({ now: clock.now });
    const customer = await buildCustomer(t.database.db);
    custcode = customer.code;
    const user = await buildUser(t.database.db, { customerId: customer.id, username: 'profiler' });
    userId = user.id;
    password = user.password;
    token = await signIn(t.app, custcode, 'profiler', password);
  });
  afterAll(() => t.close());

  const call = (method: 'GET' | 'PUT' | 'POST', url: string, payload?: object) =>
    t.app.inject({ method, url, payload, headers: { 'x-authorization': token, language: 'en' } });

  it('answers the profile in both variants and saves edits', async () => {
    const info = (await call('GET', '/gw/api/v1/user/userInfo')).json().data;
    expect(info).toMatchObject({ id: userId, username: 'profiler', custcode, gender: 'unknown', avatarUrl: null });
    expect((await call('GET', '/gw/api/v1/edu_user/userInfo')).json().data).toEqual(info);
    const saved = await call('PUT', '/gw/api/v1/user/userInfo', {
      nickname: 'Little Ada',
      realName: '林小雨',
      gender: 'female',
      birthDay: '2016-05-04',
      identity: 'student',
      province: '浙江省',
      city: '杭州市',
      schoolName: 'Demo Primary',
      signature: 'I like robots',
    });
    expect(saved.json().data).toMatchObject({
      nickname: 'Little Ada',
      realName: '林小雨',
      birthDay: '2016-05-04',
      areas: ['浙江省', '杭州市'],
    });
    // A province alone is a region; a city without its province is none (the picker would show it as a province).
    const province = await call('PUT', '/gw/api/v1/user/userInfo', { city: '' });
    expect(province.json().data.areas).toEqual(['浙江省']);
    const cityOnly = await call('PUT', '/gw/api/v1/user/userInfo', { province: '', city: '杭州市' });
    expect(cityOnly.json().data.areas).toEqual([]);
  });

  it('says a teacher or student account its school made is one, until its holder says otherwise', async () => {
    const customer = await buildCustomer(t.database.db);
    const identity = async (roles: string[]) => {
      const user = await buildUser(t.database.db, { customerId: customer.id, roles });
      const own = await signIn(t.app, customer.code, user.username, user.password);
      const read = async () =>
        (
          await t.app.inject({ method: 'GET', url: '/gw/api/v1/user/userInfo', headers: { 'x-authorization': own } })
        ).json().data.identity as string | null;
      return { read, own };
    };
    const teacher = await identity([ROLES.teacher]);
    expect(await teacher.read()).toBe('teacher');
    expect(await (await identity([ROLES.student])).read()).toBe('student');
    expect(await (await identity([ROLES.customerAdmin])).read()).toBeNull();
    await t.app.inject({
      method: 'PUT',
      url: '/gw/api/v1/user/userInfo',
      payload: { identity: 'student' },
      headers: { 'x-authorization': teacher.own },
    });
    expect(await teacher.read()).toBe('student');
  });

  it('refuses a nickname over 10 characters and a name over 20, changing nothing', async () => {
    const long = await call('PUT', '/gw/api/v1/user/userInfo', { nickname: 'x'.repeat(11) });
    expect(long.statusCode).toBe(400);
    expect(long.json().data.issues[0].path).toBe('body.nickname');
    expect((await call('PUT', '/gw/api/v1/user/userInfo', { realName: 'y'.repeat(21) })).statusCode).toBe(400);
    expect((await call('GET', '/gw/api/v1/user/userInfo')).json().data.nickname).toBe('Little Ada');
  });

  it('answers the points balance from the ledger', async () => {
    expect((await call('GET', '/gw/api/v1/integral/total')).json().data).toBe(0);
    await addPoints(t.database.db, userId, 50, 'invite');
    await addPoints(t.database.db, userId, -20, 'exchange');
    expect((await call('GET', '/gw/api/v1/integral/total')).json().data).toBe(30);
  });

  /** Sends a code for `scene` to `target` as typed; answers the code from the outbox, which holds it as `sentTo`. */
  const codeFor = async (target: string, scene = 'BIND', sentTo = target) => {
    // One code per target a minute.
    clock.advance(61_000);
    await t.app.inject({
      method: 'POST',
      url: '/gw/api/v1/user/verifyCode/send',
      payload: { scene, target, custcode },
    });
    const [message] = await t.database.db
      .select()
      .from(outbox)
      .where(eq(outbox.target, sentTo))
      .orderBy(desc(outbox.createdAt))
      .limit(1);
    return message!.body.match(/\d{6}/)![0];
  };

  it('binds a phone proven with a code, and refuses one another account holds', async () => {
    const verifyCode = await codeFor('13600000001');
    const bound = await call('PUT', '/gw/api/v1/user/bind', { target: '13600000001', verifyCode });
    expect(bound.json().data.phone).toBe('13600000001');
    const [me] = await t.database.db.select().from(users).where(eq(users.id, userId));
    await buildUser(t.database.db, { customerId: me!.customerId, phone: '13600000002' });
    // Whether another account holds the phone is said only to a caller with a valid code for it.
    const guessed = await call('PUT', '/gw/api/v1/user/bind', { target: '13600000002', verifyCode: '123456' });
    expect(guessed.json().errorCode).toBe('1111');
    const taken = await call('PUT', '/gw/api/v1/user/bind', {
      target: '13600000002',
      verifyCode: await codeFor('13600000002'),
    });
    expect(taken.json().errorCode).toBe('1114');
  });

  it('keeps an email in lower case however it is typed, and finds its account by it in any case', async () => {
    const typed = 'Ada.Lovelace@School.CN';
    const email = 'ada.lovelace@school.cn';
    const bound = await call('PUT', '/gw/api/v1/user/bind', {
      target: typed,
      verifyCode: await codeFor(typed, 'BIND', email),
    });
    expect(bound.json().data.email).toBe(email);
    const [me] = await t.database.db.select().from(users).where(eq(users.id, userId));
    expect(me!.email).toBe(email);

    const signInAs = (identifier: string, password: string) =>
      t.app.inject({
        method: 'POST',
        url: '/gw/api/v1/auth/login',
        payload: { custcode, usernameOrEmailOrPhone: identifier, password: b64(password) },
      });
    expect((await signInAs('ADA.LOVELACE@school.cn', password)).json().data.id).toBe(userId);
    const byCode = await t.app.inject({
      method: 'POST',
      url: '/gw/api/v1/user/verifyCode/login',
      payload: { user: 'Ada.LOVELACE@School.cn', verifyCode: await codeFor(typed, 'LOGIN', email), custcode },
    });
    expect(byCode.json().data.id).toBe(userId);
    // The reset's contact is an email of more than 11 characters, in capitals: the code sent to it resets.
    const reset = await t.app.inject({
      method: 'POST',
      url: '/gw/api/v1/user/register/password/update',
      payload: {
        user: typed.toUpperCase(),
        password: b64('Lovelace2026'),
        verifyCode: await codeFor(typed, 'RESET_PWD', email),
        custcode,
      },
    });
    expect(reset.json().errorCode).toBe('1000');
    expect((await signInAs(email, 'Lovelace2026')).json().errorCode).toBe('1000');
    token = await signIn(t.app, custcode, 'profiler', 'Lovelace2026');

    // Another account of the customer cannot take the same email in other capitals.
    const other = await buildUser(t.database.db, { customerId: me!.customerId, username: 'other-profiler' });
    const otherToken = await signIn(t.app, custcode, 'other-profiler', other.password);
    const taken = await t.app.inject({
      method: 'PUT',
      url: '/gw/api/v1/user/bind',
      headers: { 'x-authorization': otherToken },
      payload: { target: 'ADA.LOVELACE@SCHOOL.CN', verifyCode: await codeFor('ADA.LOVELACE@SCHOOL.CN', 'BIND', email) },
    });
    expect(taken.json().errorCode).toBe('1105');
    // An email is at most 50 characters.
    const long = await call('POST', '/gw/api/v1/user/verifyCode/send', {
      scene: 'BIND',
      target: `${'a'.repeat(44)}@x.test`,
    });
    expect(long.json().errorCode).toBe('1106');
  });

  it('needs a token', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/gw/api/v1/user/userInfo' });
    expect(res.statusCode).toBe(401);
    expect(res.json().errorCode).toBe('1107');
  });
});
