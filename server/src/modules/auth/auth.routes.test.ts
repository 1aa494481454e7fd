import { LIMITS, ROLES } from '@aiedu/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captchas, customers, schools, users } from '../../platform/db/schema/index.js';
import { newPuzzle, slide } from '../../test/captcha-kit.js';
import { b64, buildCustomer, buildSchool, buildUser, testClock } from '../../test/factories.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

describe('password sign-in, tokens and sessions', () => {
  let t: TestApp;
  const clock = testClock();
  let custcode: string;
  let customerId: string;
  let schoolId: string;
  let student: Awaited<ReturnType<typeof buildUser>>;

  beforeAll(async () => {
    t = await createTestApp({ now: clock.now, config: { accessTokenTtlSeconds: 1800 } });
    const customer = await buildCustomer(t.database.db);
    const school = await buildSchool(t.database.db, customer.id);
    custcode = customer.code;
    customerId = customer.id;
    schoolId = school.id;
    student = await buildUser(t.database.db, {
      customerId,
      schoolId,
      username: 'student01',
      phone: '13800138000',
      email: 'kid@school.cn',
    });
  });
  afterAll(() => t.close());

  const login = (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: 'POST',
      url: '/gw/api/v1/auth/login',
      payload: body,
      headers: { language: 'en', ...headers },
    });
  /** A token refresh; a browser also sends its cookies (and the page's address). */
  const refresh = (refreshToken: string, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: 'GET',
      url: '/gw/api/v1/auth/token',
      headers: { 'x-authorization': refreshToken, ...headers },
    });
  const logout = (token: string) =>
    t.app.inject({ method: 'POST', url: '/gw/api/v1/auth/logout', headers: { 'x-authorization': token } });

  it('signs in by username, phone or email and answers id, roles, school, token and refreshToken', async () => {
    for (const identifier of ['student01', '13800138000', 'kid@school.cn']) {
      const res = await login({ custcode, usernameOrEmailOrPhone: identifier, password: b64(student.password) });
      expect(res.statusCode).toBe(200);
      const data = res.json().data;
      expect(data).toMatchObject({
        id: student.id,
        roles: [ROLES.student],
        mustChangePassword: false,
        isSuper: false,
        schoolId,
      });
      expect(data.token.split('.')).toHaveLength(3);
      expect(data.refreshToken).toMatch(/^[\w-]{43}$/);
    }
  });

  it('signs in the account whose username was typed when another account has it as its phone', async () => {
    const byName = await buildUser(t.database.db, { customerId, username: '13900139000' });
    const byPhone = await buildUser(t.database.db, {
      customerId,
      username: 'student02',
      phone: '13900139000',
      password: 'Other@2026word',
    });
    for (const account of [byName, byPhone]) {
      const res = await login({ custcode, usernameOrEmailOrPhone: '13900139000', password: b64(account.password) });
      expect(res.json()).toMatchObject(account === byName ? { data: { id: byName.id } } : { errorCode: '1102' });
    }
  });

  it('accepts the form-encoded legacy sign-in', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ custcode, username: 'student01', password: b64(student.password) }).toString(),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.id).toBe(student.id);
  });

  it('gives the same answer for a wrong password, an unknown user and an unknown customer code', async () => {
    const ip = { 'x-forwarded-for': '10.9.9.9' };
    const answers = await Promise.all([
      login({ custcode, usernameOrEmailOrPhone: 'student01', password: b64('Wrong@2026') }, ip),
      login({ custcode, usernameOrEmailOrPhone: 'nobody', password: b64('Wrong@2026') }, ip),
      login({ custcode: 'nosuchcode', usernameOrEmailOrPhone: 'student01', password: b64(student.password) }, ip),
    ]);
    for (const res of answers) {
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ errorCode: '1102', errorMsg: 'Username or password incorrect', data: null });
    }
  });

  it('refuses a password that is not base64 with a parameter error', async () => {
    const res = await login({ custcode, usernameOrEmailOrPhone: 'student01', password: 'not base64!' });
    expect(res.statusCode).toBe(400);
    expect(res.json().errorCode).toBe('1001');
  });

  it('rotates the refresh token; reusing an old one revokes the whole sign-in (E002)', async () => {
    const first = (
      await login({ custcode, usernameOrEmailOrPhone: 'student01', password: b64(student.password) })
    ).json().data;
    const second = await refresh(first.refreshToken);
    expect(second.json().errorCode).toBe('1000');
    const pair = second.json().data;
    expect(pair.refreshToken).not.toBe(first.refreshToken);

    const reuse = await refresh(first.refreshToken);
    expect(reuse.statusCode).toBe(401);
    expect(reuse.json().errorCode).toBe('E002');
    // The thief's replay also ended the legitimate holder's session.
    expect((await refresh(pair.refreshToken)).json().errorCode).toBe('E002');
  });

  it("replaces the session cookies of a browser whose cookie holds the refreshed token, and nobody else's", async () => {
    const first = (
      await login({ custcode, usernameOrEmailOrPhone: 'student01', password: b64(student.password) })
    ).json().data;
    const answer = await refresh(first.refreshToken, {
      cookie: `custcode=${custcode}; refreshToken=${first.refreshToken}`,
    });
    const pair = answer.json().data;
    const cookies = Object.fromEntries(answer.cookies.map((c) => [c.name, c]));
    expect(Object.keys(cookies).sort()).toEqual(['refreshToken', 'token']);
    expect(cookies.token).toMatchObject({
      value: pair.token,
      path: '/',
      maxAge: 365 * 24 * 60 * 60,
      sameSite: 'Strict',
    });
    expect(cookies.refreshToken).toMatchObject({ value: pair.refreshToken, path: '/', sameSite: 'Strict' });
    // The web client reads them (spec section 3), so they are not HttpOnly; plain HTTP here, so not Secure.
    expect(cookies.token?.httpOnly).toBeUndefined();
    expect(cookies.token?.secure).toBeUndefined();

    // Another client (no cookie), or a browser whose cookie already holds another token: the body only.
    const bodyOnly = await refresh(pair.refreshToken);
    expect(bodyOnly.json().errorCode).toBe('1000');
    expect(bodyOnly.cookies).toEqual([]);
    const other = await refresh(bodyOnly.json().data.refreshToken, { cookie: `refreshToken=${pair.refreshToken}` });
    expect(other.json().errorCode).toBe('1000');
    expect(other.cookies).toEqual([]);
  });

  it('marks the replaced cookies Secure exactly when the page that asked is on HTTPS', async () => {
    const refreshFrom = async (page: string | undefined) => {
      const pair = (
        await login({ custcode, usernameOrEmailOrPhone: 'student01', password: b64(student.password) })
      ).json().data;
      const answer = await refresh(pair.refreshToken, {
        cookie: `refreshToken=${pair.refreshToken}`,
        ...(page ? { referer: page } : {}),
      });
      expect(answer.json().errorCode).toBe('1000');
      return answer.cookies.map((c) => [c.name, c.secure ?? false]);
    };
    expect(await refreshFrom('https://ai.school.example/pjPortal/home')).toEqual([
      ['token', true],
      ['refreshToken', true],
    ]);
    // A public address configured as https while the page is on plain HTTP: the browser would drop Secure cookies.
    const publicUrl = t.config.publicUrl;
    t.config.publicUrl = 'https://ai.school.example';
    try {
      expect(await refreshFrom('http://10.0.0.5:8080/pjPortal/home')).toEqual([
        ['token', false],
        ['refreshToken', false],
      ]);
      // Without an Origin or Referer, the configured address decides.
      expect(await refreshFrom(undefined)).toEqual([
        ['token', true],
        ['refreshToken', true],
      ]);
    } finally {
      t.config.publicUrl = publicUrl;
    }
  });

  it('answers 1107 for an unknown refresh token or none', async () => {
    expect((await refresh('x'.repeat(43))).json().errorCode).toBe('1107');
    const none = await t.app.inject({ method: 'GET', url: '/gw/api/v1/auth/token' });
    expect(none.statusCode).toBe(401);
    expect(none.json().errorCode).toBe('1107');
  });

  it('lets an access token expire after its lifetime (1107, HTTP 401) while refresh still works', async () => {
    const pair = (
      await login({ custcode, usernameOrEmailOrPhone: 'student01', password: b64(student.password) })
    ).json().data;
    const info = await t.app.inject({
      method: 'POST',
      url: '/gw/api/v1/auth/token/loginInfo',
      payload: { token: pair.token },
    });
    expect(info.json().data).toEqual({ id: student.id, roles: [ROLES.student], customerId, custcode });
    clock.advance(1801 * 1000);
    const expired = await logout(pair.token);
    expect(expired.statusCode).toBe(401);
    expect(expired.json().errorCode).toBe('1107');
    const renewed = await refresh(pair.refreshToken);
    expect(renewed.json().errorCode).toBe('1000');
    expect((await logout(renewed.json().data.token)).json().errorCode).toBe('1000');
  });

  it('ends the sign-in on logout: its refresh token no longer works', async () => {
    const pair = (
      await login({ custcode, usernameOrEmailOrPhone: 'student01', password: b64(student.password) })
    ).json().data;
    expect((await logout(pair.token)).json()).toEqual({ errorCode: '1000', errorMsg: '', data: null });
    expect((await refresh(pair.refreshToken)).json().errorCode).toBe('E002');
    const info = await t.app.inject({
      method: 'POST',
      url: '/gw/api/v1/auth/token/loginInfo',
      payload: { token: pair.token },
    });
    expect(info.json().errorCode).toBe('1107');
  });

  it.each([
    ['the account', () => t.database.db.update(users).set({ enabled: false }).where(eq(users.id, student.id))],
    ['the school', () => t.database.db.update(schools).set({ enabled: false }).where(eq(schools.id, schoolId))],
    ['the customer', () => t.database.db.update(customers).set({ enabled: false }).where(eq(customers.id, customerId))],
  ])(
    'refuses sign-in and refresh (E003) while %s is switched off, and restores both after',
    async (_what, switchOff) => {
      const pair = (
        await login({ custcode, usernameOrEmailOrPhone: 'student01', password: b64(student.password) })
      ).json().data;
      await switchOff();
      const refused = await login({ custcode, usernameOrEmailOrPhone: 'student01', password: b64(student.password) });
      expect(refused.statusCode).toBe(401);
      expect(refused.json().errorCode).toBe('E003');
      expect((await refresh(pair.refreshToken)).json().errorCode).toBe('E003');

      await t.database.db.update(users).set({ enabled: true }).where(eq(users.id, student.id));
      await t.database.db.update(schools).set({ enabled: true }).where(eq(schools.id, schoolId));
      await t.database.db.update(customers).set({ enabled: true }).where(eq(customers.id, customerId));
      const restored = await login({ custcode, usernameOrEmailOrPhone: 'student01', password: b64(student.password) });
      expect(restored.json().errorCode).toBe('1000');
    },
  );

  it.each([
    ['its parent', 'middle'],
    ["its parent's parent", 'top'],
  ] as const)(
    'refuses sign-in and refresh (E003) to a user of a sub-customer while %s is switched off, and restores both after',
    async (_what, level) => {
      const top = await buildCustomer(t.database.db);
      const middle = await buildCustomer(t.database.db, { parentId: top.id });
      const sub = await buildCustomer(t.database.db, { parentId: middle.id });
      const school = await buildSchool(t.database.db, sub.id);
      const pupil = await buildUser(t.database.db, { customerId: sub.id, schoolId: school.id, username: 'subpupil' });
      const signIn = () =>
        login({ custcode: sub.code, usernameOrEmailOrPhone: 'subpupil', password: b64(pupil.password) });
      const switchTo = (enabled: boolean) =>
        t.database.db
          .update(customers)
          .set({ enabled })
          .where(eq(customers.id, level === 'top' ? top.id : middle.id));

      const pair = (await signIn()).json().data;
      await switchTo(false);
      const refused = await signIn();
      expect(refused.statusCode).toBe(401);
      expect(refused.json().errorCode).toBe('E003');
      expect((await refresh(pair.refreshToken)).json().errorCode).toBe('E003');

      await switchTo(true);
      const restored = (await signIn()).json();
      expect(restored.errorCode).toBe('1000');
      expect((await refresh(restored.data.refreshToken)).json().errorCode).toBe('1000');
    },
  );

  it('signs a super administrator in with an empty customer code, apart from customers', async () => {
    const superAdmin = await buildUser(t.database.db, { username: 'root1', roles: [ROLES.super] });
    const res = await login({ custcode: '', usernameOrEmailOrPhone: 'root1', password: b64(superAdmin.password) });
    expect(res.json().data).toMatchObject({ id: superAdmin.id, isSuper: true, roles: [ROLES.super], schoolId: null });
    const withCustomer = await login({ custcode, usernameOrEmailOrPhone: 'root1', password: b64(superAdmin.password) });
    expect(withCustomer.json().errorCode).toBe('1102');
  });
});

describe('slider captcha after failed sign-ins', () => {
  let t: TestApp;
  const clock = testClock();
  let custcode: string;
  let customerId: string;
  let user: Awaited<ReturnType<typeof buildUser>>;

  beforeAll(async () => {
    t = await createTestApp({ now: clock.now, config: { captchaAfterAddressFailures: 6, trustProxy: true } });
    const customer = await buildCustomer(t.database.db);
    custcode = customer.code;
    customerId = customer.id;
    user = await buildUser(t.database.db, { customerId: customer.id, username: 'typo' });
    await buildUser(t.database.db, { customerId: customer.id, username: 'classmate', password: 'Class@2026x' });
  });
  afterAll(() => t.close());

  const fromIp = (ip: string) => ({ 'x-forwarded-for': ip, language: 'en' });
  const login = (username: string, password: string, ip: string, captchaId?: string) =>
    t.app.inject({
      method: 'POST',
      url: '/gw/api/v1/auth/login',
      headers: fromIp(ip),
      payload: { custcode, usernameOrEmailOrPhone: username, password: b64(password), captchaId },
    });
  const enabled = async (username: string, ip: string) =>
    (
      await t.app.inject({
        method: 'GET',
        url: `/gw/api/v1/auth/verifycode/enabled?custcode=${custcode}&username=${username}`,
        headers: fromIp(ip),
      })
    ).json().data;
  const newCaptcha = () => newPuzzle(t);
  const check = (captchaId: string, x: number) => slide(t, captchaId, x);

  it('is required after 3 failures of one account, not for a classmate at the same address', async () => {
    expect(await enabled('typo', '10.0.0.1')).toBe(false);
    for (let i = 0; i < 3; i++) expect((await login('typo', 'nope-nope', '10.0.0.1')).json().errorCode).toBe('1102');
    expect(await enabled('typo', '10.0.0.1')).toBe(true);
    expect(await enabled('classmate', '10.0.0.1')).toBe(false);
    const locked = await login('typo', user.password, '10.0.0.1');
    expect(locked.json()).toMatchObject({ errorCode: '1104', errorMsg: 'Please complete the slider verification' });
    expect((await login('classmate', 'Class@2026x', '10.0.0.1')).json().errorCode).toBe('1000');
  });

  it('passes a slide within ±5 px once, and the passed captcha unlocks one sign-in', async () => {
    const missed = await newCaptcha();
    const off = missed.answerX > 140 ? missed.answerX - 20 : missed.answerX + 20;
    expect((await check(missed.captchaId, off)).json().errorCode).toBe('1116');
    const captcha = await newCaptcha();
    expect(captcha.displayData.baseImg).toMatch(/^data:image\/jpeg;base64,/);
    expect(captcha.displayData.jigsawImg).toMatch(/^data:image\/png;base64,/);
    // 5 px off, to whichever side the slider can reach (a piece at the right edge leaves no room to its right).
    const near = captcha.answerX + 5 <= LIMITS.sliderMax ? captcha.answerX + 5 : captcha.answerX - 5;
    expect((await check(captcha.captchaId, near)).json().data).toEqual({ pass: true });
    expect((await check(captcha.captchaId, captcha.answerX)).json().errorCode).toBe('1116');
    expect((await login('typo', user.password, '10.0.0.1', captcha.captchaId)).json().errorCode).toBe('1000');
    // Success clears the account's failures; the used captcha cannot unlock anything else.
    expect(await enabled('typo', '10.0.0.1')).toBe(false);
  });

  it('refuses an unchecked, reused or expired captcha', async () => {
    for (let i = 0; i < 3; i++) await login('typo', 'nope-nope', '10.0.0.2');
    const unchecked = await newCaptcha();
    expect((await login('typo', user.password, '10.0.0.2', unchecked.captchaId)).json().errorCode).toBe('1104');
    const late = await newCaptcha();
    clock.advance(121_000);
    expect((await check(late.captchaId, late.answerX)).json().errorCode).toBe('1116');
  });

  it('accepts the classic image code of the legacy form login instead of the slider', async () => {
    for (let i = 0; i < 3; i++) await login('typo', 'nope-nope', '10.0.0.5');
    const acid = '0192f7a0-0000-7000-8000-000000000001';
    const image = await t.app.inject({ method: 'GET', url: `/api/v1/auth/verifycode?acid=${acid}` });
    expect(image.headers['content-type']).toBe('image/png');
    expect(image.rawPayload.subarray(1, 4).toString()).toBe('PNG');
    const [row] = await t.database.db.select().from(captchas).where(eq(captchas.id, acid));
    const form = (verifycode: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/auth/login',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': '10.0.0.5' },
        payload: new URLSearchParams({
          custcode,
          username: 'typo',
          password: b64(user.password),
          acid,
          verifycode,
        }).toString(),
      });
    const wrong = String(((row!.answerX - 1000 + 1) % 9000) + 1000);
    expect((await form(wrong)).json().errorCode).toBe('1104');
    expect((await form(String(row!.answerX))).json().errorCode).toBe('1000');
    // Used once: after new failures the same code no longer unlocks anything.
    for (let i = 0; i < 3; i++) await login('typo', 'nope-nope', '10.0.0.5');
    expect((await form(String(row!.answerX))).json().errorCode).toBe('1104');
  });

  it('ends an image code after 5 wrong tries; a new image for the same id starts again', async () => {
    for (let i = 0; i < 3; i++) await login('typo', 'nope-nope', '10.0.0.6');
    const acid = '0192f7a0-0000-7000-8000-000000000002';
    const form = (verifycode: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/auth/login',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': '10.0.0.6' },
        payload: new URLSearchParams({
          custcode,
          username: 'typo',
          password: b64(user.password),
          acid,
          verifycode,
        }).toString(),
      });
    const answer = async () => {
      await t.app.inject({ method: 'GET', url: `/api/v1/auth/verifycode?acid=${acid}` });
      const [row] = await t.database.db.select().from(captchas).where(eq(captchas.id, acid));
      return String(row!.answerX);
    };
    const right = await answer();
    const wrong = right === '1000' ? '1001' : '1000';
    for (let i = 0; i < 5; i++) expect((await form(wrong)).json().errorCode).toBe('1104');
    expect((await form(right)).json().errorCode).toBe('1104');
    expect((await form(await answer())).json().errorCode).toBe('1000');
  });

  it('judges at most 3 of 6 parallel wrong passwords of one account; the rest and the next sign-in need it', async () => {
    const target = await buildUser(t.database.db, { customerId, username: 'rushed' });
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => login('rushed', 'nope-nope', '10.0.1.1').then((res) => res.json().errorCode)),
    );
    expect(answers.sort()).toEqual(['1102', '1102', '1102', '1104', '1104', '1104']);
    expect(await enabled('rushed', '10.0.1.2')).toBe(true);
    expect((await login('rushed', target.password, '10.0.1.2')).json().errorCode).toBe('1104');
  });

  it('counts the failures of one account together, whichever of its username, phone and email was typed', async () => {
    const target = await buildUser(t.database.db, {
      customerId,
      username: 'manynames',
      phone: '13800138111',
      email: 'many@school.cn',
    });
    for (const identifier of ['manynames', '13800138111', 'many@school.cn']) {
      expect(await enabled(identifier, '10.0.2.1')).toBe(false);
      expect((await login(identifier, 'nope-nope', '10.0.2.1')).json().errorCode).toBe('1102');
    }
    for (const identifier of ['manynames', '13800138111', 'many@school.cn']) {
      expect(await enabled(identifier, '10.0.2.2')).toBe(true);
      expect((await login(identifier, target.password, '10.0.2.2')).json().errorCode).toBe('1104');
    }
    // An identifier that names nobody keeps a count of its own.
    expect(await enabled('13800138112', '10.0.2.2')).toBe(false);
  });

  it('is required for everyone at an address after its failure threshold', async () => {
    for (let i = 0; i < 6; i++) await login(`ghost${i}`, 'nope-nope', '10.0.0.3');
    expect(await enabled('classmate', '10.0.0.3')).toBe(true);
    expect(await enabled('classmate', '10.0.0.4')).toBe(false);
  });
});
