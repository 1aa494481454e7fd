import { ROLES } from '@aiedu/contracts';
import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../../platform/context.js';
import { outbox, verificationCodes } from '../../platform/db/schema/index.js';
import type { AppError } from '../../platform/errors.js';
import { b64, buildCustomer, buildUser, testClock } from '../../test/factories.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { consumeCode } from './verification.service.js';

describe('codes, sign-up, code sign-in and password reset', () => {
  let t: TestApp;
  const clock = testClock();
  let superToken: string;

  beforeAll(async () => {
    t = await createTestApp({ now: clock.now, config: { trustProxy: true } });
    const superAdmin = await buildUser(t.database.db, { username: 'root', roles: [ROLES.super] });
    superToken = (
      await post('/gw/api/v1/auth/login', { usernameOrEmailOrPhone: 'root', password: b64(superAdmin.password) })
    ).json().data.token;
  });
  afterAll(() => t.close());

  function post(url: string, payload: unknown, headers: Record<string, string> = {}) {
    return t.app.inject({ method: 'POST', url, payload: payload as object, headers: { language: 'en', ...headers } });
  }
  const send = (scene: string, target: string, ip = '10.1.0.1') =>
    post('/gw/api/v1/user/verifyCode/send', { scene, target, type: 'unknown' }, { 'x-forwarded-for': ip });

  /** Reads the newest code for a target from the outbox, as a super administrator would. */
  async function codeFor(target: string): Promise<string> {
    const res = await t.app.inject({
      method: 'GET',
      url: `/gw/api/v1/sys/outbox?keyword=${encodeURIComponent(target)}`,
      headers: { 'x-authorization': superToken },
    });
    const body: string = res.json().data.list[0].body;
    return body.match(/\b(\d{6})\b/)![1]!;
  }

  it('signs up by phone with the code from the outbox, then signs in with the same credentials', async () => {
    expect((await send('REGISTER', '13900000001')).json().errorCode).toBe('1000');
    const code = await codeFor('13900000001');
    const res = await post('/gw/api/v1/user/register/byPhone', {
      phone: '13900000001',
      password: b64('Kid2026ok'),
      verifyCode: code,
    });
    expect(res.json().errorCode).toBe('1000');
    const login = await post('/gw/api/v1/auth/login', {
      usernameOrEmailOrPhone: '13900000001',
      password: b64('Kid2026ok'),
    });
    expect(login.json().data.id).toBe(res.json().data.id);
    // The code was single use: it is checked before the phone, so a second sign-up with it fails on the code.
    const again = await post('/gw/api/v1/user/register/byPhone', {
      phone: '13900000001',
      password: b64('Kid2026ok'),
      verifyCode: code,
    });
    expect(again.json().errorCode).toBe('1111');
  });

  it('refuses a sign-up code for a taken phone, a weak or common password, and a wrong code', async () => {
    expect((await send('REGISTER', '13900000001', '10.1.0.2')).json().errorCode).toBe('1114');
    clock.advance(61_000);
    await send('REGISTER', '13900000002');
    const code = await codeFor('13900000002');
    const weak = await post('/gw/api/v1/user/register/byPhone', {
      phone: '13900000002',
      password: b64('abcdef'),
      verifyCode: code,
    });
    expect(weak.json().errorCode).toBe('1117');
    const common = await post('/gw/api/v1/user/register/byPhone', {
      phone: '13900000002',
      password: b64('Password1'),
      verifyCode: code,
    });
    expect(common.json().errorCode).toBe('1117');
    const wrong = await post('/gw/api/v1/user/register/byPhone', {
      phone: '13900000002',
      password: b64('Kid2026ok'),
      verifyCode: code === '000000' ? '000001' : '000000',
    });
    expect(wrong.json()).toMatchObject({
      errorCode: '1111',
      errorMsg: 'Invalid verification code, please register again',
    });
  });

  it('says a phone is taken only to a sign-up that brings a valid code for it', async () => {
    const taken = await post('/gw/api/v1/user/register/byPhone', {
      phone: '13900000001',
      password: b64('Kid2026ok'),
      verifyCode: '123456',
    });
    expect(taken.json().errorCode).toBe('1111');
    // A code sent while the phone was free, then the phone taken by another account before the sign-up.
    expect((await send('REGISTER', '13900000041', '10.1.0.41')).json().errorCode).toBe('1000');
    const code = await codeFor('13900000041');
    await buildUser(t.database.db, { phone: '13900000041' });
    const late = await post('/gw/api/v1/user/register/byPhone', {
      phone: '13900000041',
      password: b64('Kid2026ok'),
      verifyCode: code,
    });
    expect(late.json().errorCode).toBe('1114');
  });

  it('binds a code to its scene and lets it expire after 10 minutes', async () => {
    clock.advance(61_000);
    await send('LOGIN', '13900000001');
    const code = await codeFor('13900000001');
    const wrongScene = await post('/gw/api/v1/user/register/password/update', {
      user: '13900000001',
      password: b64('New2026pass'),
      verifyCode: code,
    });
    expect(wrongScene.json().errorCode).toBe('1111');
    clock.advance(10 * 60_000 + 1000);
    const late = await post('/gw/api/v1/user/verifyCode/login', { user: '13900000001', verifyCode: code });
    expect(late.json().errorCode).toBe('1111');
  });

  it('signs in with a phone code', async () => {
    await send('LOGIN', '13900000001');
    const res = await post('/gw/api/v1/user/verifyCode/login', {
      user: '13900000001',
      verifyCode: await codeFor('13900000001'),
    });
    expect(res.json().data).toMatchObject({ roles: [ROLES.student] });
    expect(res.json().data.token).toBeTruthy();
    // The code was single use.
    const again = await post('/gw/api/v1/user/verifyCode/login', {
      user: '13900000001',
      verifyCode: await codeFor('13900000001'),
    });
    expect(again.json().errorCode).toBe('1111');
  });

  it('ends a code after 5 tries even when 20 wrong ones arrive at once, and lets one of two right ones through', async () => {
    await buildUser(t.database.db, { phone: '13900000031' });
    const target = '13900000031';
    const useCode = (verifyCode: string) => post('/gw/api/v1/user/verifyCode/login', { user: target, verifyCode });
    expect((await send('LOGIN', target, '10.1.0.31')).json().errorCode).toBe('1000');
    const code = await codeFor(target);
    const wrong = code === '000000' ? '000001' : '000000';
    // The service itself, twenty at once: nothing between the tries spaces them out.
    const ctx = { db: t.database.db, now: clock.now } as AppContext;
    const guesses = await Promise.allSettled(
      Array.from({ length: 20 }, () => consumeCode(ctx, 'LOGIN', target, wrong)),
    );
    expect(guesses.map((guess) => guess.status === 'rejected' && (guess.reason as AppError).code)).toEqual(
      Array(20).fill('1111'),
    );
    const [row] = await t.database.db
      .select()
      .from(verificationCodes)
      .where(eq(verificationCodes.target, target))
      .orderBy(desc(verificationCodes.createdAt))
      .limit(1);
    expect(row!.attempts).toBe(5);
    expect((await useCode(code)).json().errorCode).toBe('1111');

    clock.advance(61_000);
    expect((await send('LOGIN', target, '10.1.0.31')).json().errorCode).toBe('1000');
    const fresh = await codeFor(target);
    const both = await Promise.allSettled([0, 1].map(() => consumeCode(ctx, 'LOGIN', target, fresh)));
    expect(both.map((use) => use.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect((await useCode(fresh)).json().errorCode).toBe('1111');
  });

  it('resets a password with a code, ending every earlier sign-in', async () => {
    clock.advance(61_000);
    const before = (
      await post('/gw/api/v1/auth/login', { usernameOrEmailOrPhone: '13900000001', password: b64('Kid2026ok') })
    ).json().data;
    await send('RESET_PWD', '13900000001');
    const res = await post('/gw/api/v1/user/register/password/update', {
      user: '13900000001',
      password: b64('Reset2026ok'),
      verifyCode: await codeFor('13900000001'),
    });
    expect(res.json().errorCode).toBe('1000');
    const old = await post('/gw/api/v1/auth/login', {
      usernameOrEmailOrPhone: '13900000001',
      password: b64('Kid2026ok'),
    });
    expect(old.json().errorCode).toBe('1102');
    const refreshed = await t.app.inject({
      method: 'GET',
      url: '/gw/api/v1/auth/token',
      headers: { 'x-authorization': before.refreshToken },
    });
    expect(refreshed.json().errorCode).toBe('E002');
    const fresh = await post('/gw/api/v1/auth/login', {
      usernameOrEmailOrPhone: '13900000001',
      password: b64('Reset2026ok'),
    });
    expect(fresh.json().errorCode).toBe('1000');
  });

  it('takes the contact of a reset as emailOrPhone too', async () => {
    const account = await buildUser(t.database.db, { email: 'alias@school.cn' });
    await send('RESET_PWD', 'alias@school.cn', '10.1.0.51');
    const res = await post('/gw/api/v1/user/register/password/update', {
      emailOrPhone: 'alias@school.cn',
      password: b64('Alias2026ok'),
      verifyCode: await codeFor('alias@school.cn'),
    });
    expect(res.json().errorCode).toBe('1000');
    const login = await post('/gw/api/v1/auth/login', {
      usernameOrEmailOrPhone: 'alias@school.cn',
      password: b64('Alias2026ok'),
    });
    expect(login.json().data.id).toBe(account.id);
    const neither = await post('/gw/api/v1/user/register/password/update', {
      password: b64('Alias2026ok'),
      verifyCode: '123456',
    });
    expect(neither.statusCode).toBe(400);
    expect(neither.json().errorCode).toBe('1001');
    const doc = (await t.app.inject({ method: 'GET', url: '/gw/api/v1/openapi.json' })).json();
    const body = doc.paths['/gw/api/v1/user/register/password/update'].post.requestBody.content['application/json'];
    expect(Object.keys(body.schema.properties)).toEqual(expect.arrayContaining(['user', 'emailOrPhone']));
  });

  it('answers 1115 (reset password failed) to a proven phone whose account is not where the reset looks', async () => {
    const customer = await buildCustomer(t.database.db);
    const member = await buildUser(t.database.db, { customerId: customer.id, phone: '13900000777' });
    const sendFor = async (custcode: string) => {
      clock.advance(61_000);
      const sent = await post('/gw/api/v1/user/verifyCode/send', {
        scene: 'RESET_PWD',
        target: member.phone,
        custcode,
      });
      expect(sent.json().errorCode).toBe('1000');
      return codeFor(member.phone!);
    };
    const reset = async (custcode: string, verifyCode: string) =>
      post('/gw/api/v1/user/register/password/update', {
        user: member.phone,
        password: b64('Member2026ok'),
        verifyCode,
        custcode,
      });
    // The code went to the phone of the customer's account; the reset names the public space, which has none.
    const failed = await reset('', await sendFor(customer.code));
    expect(failed.statusCode).toBe(400);
    expect(failed.json()).toMatchObject({ errorCode: '1115', errorMsg: 'Reset password failed' });
    expect((await reset(customer.code, await sendFor(customer.code))).json().errorCode).toBe('1000');
  });

  it('says an email is not registered when resetting by email', async () => {
    const res = await send('RESET_PWD', 'ghost@school.cn');
    expect(res.json()).toMatchObject({ errorCode: '1113', errorMsg: 'Email not registered' });
    expect((await send('LOGIN', 'not-a-contact')).json().errorCode).toBe('1106');
  });

  it('allows one code per target per 60 s and 10 per day', async () => {
    clock.advance(61_000);
    const target = '13900000009';
    const sendRegister = () => send('REGISTER', target, '10.1.0.9');
    expect((await sendRegister()).json().errorCode).toBe('1000');
    const tooSoon = await sendRegister();
    expect(tooSoon.statusCode).toBe(429);
    // Spec 8: the rate limits' messages are Chinese text only, whatever the language asked for (here en).
    expect(tooSoon.json()).toMatchObject({ errorCode: '1109', errorMsg: '请求过于频繁，请稍后再试' });
    for (let i = 0; i < 9; i++) {
      clock.advance(61_000);
      expect((await sendRegister()).json().errorCode).toBe('1000');
    }
    clock.advance(61_000);
    expect((await sendRegister()).json().errorCode).toBe('1109');
  });

  it('shows the outbox only to super administrators, newest first, with the full message', async () => {
    const token = (
      await post('/gw/api/v1/auth/login', {
        custcode: '',
        usernameOrEmailOrPhone: '13900000001',
        password: b64('Reset2026ok'),
      })
    ).json().data.token;
    const refused = await t.app.inject({
      method: 'GET',
      url: '/gw/api/v1/sys/outbox',
      headers: { 'x-authorization': token },
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().errorCode).toBe('1006');
    const [newest] = await t.database.db.select().from(outbox).orderBy(desc(outbox.createdAt)).limit(1);
    expect(newest).toMatchObject({ deliveredBy: 'outbox', delivered: false });
    expect(newest!.body).toMatch(/\d{6}/);
  });
  it("sends a code to the caller's own bound phone, and refuses a caller without one", async () => {
    const withPhone = await buildUser(t.database.db, { username: 'selfsms', phone: '13900000077' });
    const noPhone = await buildUser(t.database.db, { username: 'nophone' });
    const tokenOf = async (username: string, password: string) =>
      (await post('/gw/api/v1/auth/login', { usernameOrEmailOrPhone: username, password: b64(password) })).json().data
        .token as string;
    const get = async (token: string) =>
      t.app.inject({
        method: 'GET',
        url: '/gw/api/v1/user/sms/send/message',
        headers: { 'x-authorization': token, 'x-forwarded-for': '10.1.7.7' },
      });

    const sent = await get(await tokenOf('selfsms', withPhone.password));
    expect(sent.json()).toMatchObject({ errorCode: '1000', data: { target: '139****0077' } });
    expect(await codeFor('13900000077')).toMatch(/^\d{6}$/);

    const refused = await get(await tokenOf('nophone', noPhone.password));
    expect(refused.json().errorCode).toBe('1106');
    expect((await t.app.inject({ method: 'GET', url: '/gw/api/v1/user/sms/send/message' })).statusCode).toBe(401);
  });

  it('answers a code sign-in as it answers a password sign-in, with whether the holder is a super administrator', async () => {
    const admin = await buildUser(t.database.db, { username: 'root2', phone: '13900000066', roles: [ROLES.super] });
    expect((await send('LOGIN', '13900000066', '10.1.6.6')).json().errorCode).toBe('1000');
    const byCode = await post('/gw/api/v1/user/verifyCode/login', {
      user: '13900000066',
      verifyCode: await codeFor('13900000066'),
    });
    const byPassword = await post('/gw/api/v1/auth/login', {
      usernameOrEmailOrPhone: 'root2',
      password: b64(admin.password),
    });
    expect(byCode.json().data).toMatchObject({
      id: admin.id,
      roles: [ROLES.super],
      isSuper: true,
      mustChangePassword: false,
    });
    expect(Object.keys(byCode.json().data).sort()).toEqual(Object.keys(byPassword.json().data).sort());
  });
});

describe('code requests refused for their target', () => {
  let t: TestApp;
  const clock = testClock();

  beforeAll(async () => {
    t = await createTestApp({
      now: clock.now,
      config: { trustProxy: true, codesPerAddressPerHour: 3, shieldCodeRequestsPerHour: 8 },
    });
    await buildUser(t.database.db, { phone: '13700000001' });
  });
  afterAll(() => t.close());

  const send = (scene: string, target: string, ip: string) =>
    t.app.inject({
      method: 'POST',
      url: '/gw/api/v1/user/verifyCode/send',
      payload: { scene, target },
      headers: { language: 'en', 'x-forwarded-for': ip },
    });
  const answers = async (requests: [string, string, string][]) => {
    const codes: string[] = [];
    for (const [scene, target, ip] of requests) codes.push((await send(scene, target, ip)).json().errorCode);
    return codes;
  };

  it("count toward the address's hourly limit, whether the phone was taken or unknown", async () => {
    const signUps = await answers(Array.from({ length: 5 }, () => ['REGISTER', '13700000001', '10.4.0.1']));
    expect(signUps).toEqual(['1114', '1114', '1114', '1109', '1109']);
    expect((await send('REGISTER', '13700000002', '10.4.0.1')).statusCode).toBe(429);

    const resets = await answers(
      ['13700000101', '13700000102', '13700000103', '13700000001'].map((phone) => ['RESET_PWD', phone, '10.4.0.2']),
    );
    expect(resets).toEqual(['1106', '1106', '1106', '1109']);

    // The probed phone itself is not held back: its holder gets a code at once from another address.
    expect((await send('RESET_PWD', '13700000001', '10.4.0.3')).json().errorCode).toBe('1000');
  });

  it('count toward the request shield', async () => {
    const probes = await answers(Array.from({ length: 9 }, () => ['REGISTER', '13700000001', '10.4.0.4']));
    expect(probes).toEqual(['1114', '1114', '1114', ...Array(6).fill('1109')]);
    const blocked = await send('RESET_PWD', '13700000001', '10.4.0.4');
    expect(blocked.statusCode).toBe(403);
    expect(blocked.headers['content-type']).toMatch(/^text\/plain/);
  });
});

describe('a one-customer deployment', () => {
  let t: TestApp;
  const clock = testClock();
  let custcode: string;
  let customerId: string;

  beforeAll(async () => {
    t = await createTestApp({ now: clock.now, config: { trustProxy: true, isCustomerSingle: true } });
    const customer = await buildCustomer(t.database.db);
    customerId = customer.id;
    custcode = customer.code;
  });
  afterAll(() => t.close());

  const post = (url: string, payload: object) =>
    t.app.inject({ method: 'POST', url, payload, headers: { language: 'en', 'x-forwarded-for': '10.6.0.1' } });
  /** A code request, then the code from the outbox. */
  async function codeFor(scene: string, target: string, code = custcode): Promise<string> {
    clock.advance(61_000);
    expect((await post('/gw/api/v1/user/verifyCode/send', { scene, target, custcode: code })).json().errorCode).toBe(
      '1000',
    );
    const [message] = await t.database.db
      .select()
      .from(outbox)
      .where(eq(outbox.target, target))
      .orderBy(desc(outbox.createdAt))
      .limit(1);
    return message!.body.match(/\b(\d{6})\b/)![1]!;
  }
  const passwordLogin = (user: string, password: string, code = custcode) =>
    post('/gw/api/v1/auth/login', { custcode: code, usernameOrEmailOrPhone: user, password: b64(password) });

  it("finds a learner who signed up by phone with the one customer's code or none: password, code, reset", async () => {
    const setting = await t.app.inject({ method: 'GET', url: '/gw/api/v1/sys/setting' });
    expect(setting.json().data).toMatchObject({ isCustomerSingle: true, custcode });
    const signUp = await post('/gw/api/v1/user/register/byPhone', {
      phone: '13900000501',
      password: b64('Kid2026ok'),
      verifyCode: await codeFor('REGISTER', '13900000501'),
    });
    const id = signUp.json().data.id;

    for (const code of [custcode, '']) {
      expect((await passwordLogin('13900000501', 'Kid2026ok', code)).json().data).toMatchObject({ id });
    }
    const byCode = await post('/gw/api/v1/user/verifyCode/login', {
      user: '13900000501',
      verifyCode: await codeFor('LOGIN', '13900000501'),
      custcode,
    });
    expect(byCode.json().data).toMatchObject({ id, isSuper: false });
    const reset = await post('/gw/api/v1/user/register/password/update', {
      user: '13900000501',
      password: b64('Reset2026ok'),
      verifyCode: await codeFor('RESET_PWD', '13900000501'),
      custcode,
    });
    expect(reset.json().errorCode).toBe('1000');
    expect((await passwordLogin('13900000501', 'Reset2026ok')).json().data).toMatchObject({ id });

    // Another customer's code still means that customer alone.
    const other = await buildCustomer(t.database.db);
    expect((await passwordLogin('13900000501', 'Reset2026ok', other.code)).json().errorCode).toBe('1102');
  });

  it("prefers the customer's account to a public one with the same phone", async () => {
    const member = await buildUser(t.database.db, { customerId, phone: '13900000502', password: 'Member2026x' });
    const learner = await buildUser(t.database.db, { phone: '13900000502', password: 'Learner2026x' });
    expect((await passwordLogin('13900000502', 'Member2026x')).json().data).toMatchObject({ id: member.id });
    expect((await passwordLogin('13900000502', 'Learner2026x')).json().errorCode).toBe('1102');
    const byCode = await post('/gw/api/v1/user/verifyCode/login', {
      user: '13900000502',
      verifyCode: await codeFor('LOGIN', '13900000502'),
      custcode,
    });
    expect(byCode.json().data).toMatchObject({ id: member.id });
    expect(learner.id).not.toBe(member.id);
  });

  it('answers for unknown people as before', async () => {
    expect((await passwordLogin('13900000599', 'Nobody2026x')).json().errorCode).toBe('1102');
    expect((await passwordLogin('13900000599', 'Nobody2026x', '')).json().errorCode).toBe('1102');
    clock.advance(61_000);
    const send = (scene: string, target: string) =>
      post('/gw/api/v1/user/verifyCode/send', { scene, target, custcode });
    expect((await send('LOGIN', '13900000599')).json().errorCode).toBe('1106');
    expect((await send('RESET_PWD', 'nobody@school.cn')).json().errorCode).toBe('1113');
  });
});
