import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captchas } from '../../platform/db/schema/index.js';
import { b64, buildCustomer, buildUser, testClock } from '../../test/factories.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

describe('failed captchas and the request shield', () => {
  let t: TestApp;
  const clock = testClock();
  let custcode: string;
  let user: Awaited<ReturnType<typeof buildUser>>;

  beforeAll(async () => {
    t = await createTestApp({
      now: clock.now,
      config: { isVerifyCode: true, shieldLoginFailuresPerHour: 4, trustProxy: true },
    });
    const customer = await buildCustomer(t.database.db);
    custcode = customer.code;
    user = await buildUser(t.database.db, { customerId: customer.id, username: 'guesser' });
  });
  afterAll(() => t.close());

  const form = (ip: string, fields: Record<string, string>) =>
    t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': ip },
      payload: new URLSearchParams({
        custcode,
        username: 'guesser',
        password: b64(user.password),
        ...fields,
      }).toString(),
    });

  it('blocks an address once its wrong image codes pass the limit; a login without any captcha is not counted', async () => {
    // Past the limit of 4, and still answered: a login that sends no captcha has guessed nothing.
    for (let i = 0; i < 6; i++) expect((await form('10.3.0.2', {})).json().errorCode).toBe('1104');

    const acid = '0192f7a0-0000-7000-8000-000000000003';
    await t.app.inject({ method: 'GET', url: `/api/v1/auth/verifycode?acid=${acid}` });
    const [row] = await t.database.db.select().from(captchas).where(eq(captchas.id, acid));
    const wrong = row!.answerX === 1000 ? '1001' : '1000';
    for (let i = 0; i < 5; i++)
      expect((await form('10.3.0.1', { acid, verifycode: wrong })).json().errorCode).toBe('1104');
    const blocked = await form('10.3.0.1', { acid, verifycode: String(row!.answerX) });
    expect(blocked.statusCode).toBe(403);
    expect(blocked.headers['content-type']).toMatch(/^text\/plain/);
  });

  it('blocks an address once its failed slides pass the limit', async () => {
    const check = (captchaId: string, x: number) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/auth/captcha/check',
        headers: { 'x-forwarded-for': '10.3.0.3' },
        payload: { captchaId, checkedData: { x } },
      });
    const captchaId = (await t.app.inject({ method: 'GET', url: '/api/v1/auth/captcha' })).json().data.captchaId;
    const [row] = await t.database.db.select().from(captchas).where(eq(captchas.id, captchaId));
    const wrong = row!.answerX > 100 ? row!.answerX - 50 : row!.answerX + 50;
    for (let i = 0; i < 5; i++) expect((await check(captchaId, wrong)).json().errorCode).toBe('1116');
    expect((await check(captchaId, row!.answerX)).statusCode).toBe(403);
    // Another address is not affected.
    const other = await t.app.inject({
      method: 'GET',
      url: '/api/v1/auth/captcha',
      headers: { 'x-forwarded-for': '10.3.0.4' },
    });
    expect(other.statusCode).toBe(200);
  });
});
