import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captchas } from '../../platform/db/schema/index.js';
import { newPuzzle, passedCaptcha, slide, slideTrace } from '../../test/captcha-kit.js';
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
    const headers = { 'x-forwarded-for': '10.3.0.3' };
    const wrongSlide = async () => {
      const puzzle = await newPuzzle(t);
      const wrong = puzzle.answerX > 100 ? puzzle.answerX - 50 : puzzle.answerX + 50;
      return slide(t, puzzle.captchaId, wrong, { headers });
    };
    for (let i = 0; i < 5; i++) expect((await wrongSlide()).json().errorCode).toBe('1116');
    const puzzle = await newPuzzle(t);
    expect((await slide(t, puzzle.captchaId, puzzle.answerX, { headers })).statusCode).toBe(403);
    // Another address is not affected.
    const other = await t.app.inject({
      method: 'GET',
      url: '/api/v1/auth/captcha',
      headers: { 'x-forwarded-for': '10.3.0.4' },
    });
    expect(other.statusCode).toBe(200);
  });
});

describe('a slide', () => {
  let t: TestApp;
  let custcode: string;
  let user: Awaited<ReturnType<typeof buildUser>>;

  beforeAll(async () => {
    t = await createTestApp({ config: { isVerifyCode: true } });
    const customer = await buildCustomer(t.database.db);
    custcode = customer.code;
    user = await buildUser(t.database.db, { customerId: customer.id });
  });
  afterAll(() => t.close());

  it("passes at the hole with a person's drag", async () => {
    const puzzle = await newPuzzle(t);
    expect((await slide(t, puzzle.captchaId, puzzle.answerX)).json()).toMatchObject({ data: { pass: true } });
  });

  it('is checked once: a second slide of the same puzzle fails like an expired one, right or wrong', async () => {
    const wrong = await newPuzzle(t);
    const off = wrong.answerX > 140 ? wrong.answerX - 40 : wrong.answerX + 40;
    expect((await slide(t, wrong.captchaId, off)).json().errorCode).toBe('1116');
    expect((await slide(t, wrong.captchaId, wrong.answerX)).json().errorCode).toBe('1116');

    const right = await newPuzzle(t);
    expect((await slide(t, right.captchaId, right.answerX)).json().errorCode).toBe('1000');
    expect((await slide(t, right.captchaId, right.answerX)).json().errorCode).toBe('1116');
  });

  it('fails at the hole without a trace, with one point, with a constant-speed line or faster than a hand', async () => {
    const line = (x: number) => Array.from({ length: 20 }, (_, i) => ({ x: (x * i) / 19, t: 40 * i }));
    const traces = [undefined, (x: number) => [{ x, t: 0 }], line, (x: number) => slideTrace(x, 90)];
    for (const trace of traces) {
      const puzzle = await newPuzzle(t);
      const answer = await slide(t, puzzle.captchaId, puzzle.answerX, { trace: trace?.(puzzle.answerX) });
      expect(answer.json().errorCode).toBe('1116');
    }
  });

  it('unlocks exactly one sign-in, also when two are sent with it at once', async () => {
    const captchaId = await passedCaptcha(t);
    const signIn = () =>
      t.app.inject({
        method: 'POST',
        url: '/gw/api/v1/auth/login',
        payload: { custcode, usernameOrEmailOrPhone: user.username, password: b64(user.password), captchaId },
      });
    const answers = await Promise.all([signIn(), signIn()]);
    expect(answers.map((answer) => answer.json().errorCode).sort()).toEqual(['1000', '1104']);
    expect((await signIn()).json().errorCode).toBe('1104');
  });
});
