import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newPuzzle, passedCaptcha } from '../../test/captcha-kit.js';
import { b64, buildCustomer, buildUser, testClock } from '../../test/factories.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

describe('the backoff once an account needs the captcha', () => {
  let t: TestApp;
  const clock = testClock();
  let custcode: string;
  let customerId: string;

  beforeAll(async () => {
    t = await createTestApp({ now: clock.now, config: { trustProxy: true } });
    const customer = await buildCustomer(t.database.db);
    custcode = customer.code;
    customerId = customer.id;
  });
  afterAll(() => t.close());

  const login = (username: string, password: string, captchaId?: string) =>
    t.app.inject({
      method: 'POST',
      url: '/gw/api/v1/auth/login',
      headers: { language: 'en', 'x-forwarded-for': '10.7.0.1' },
      payload: { custcode, usernameOrEmailOrPhone: username, password: b64(password), captchaId },
    });

  /** A new account behind the captcha: its 3 wrong passwords, which need no captcha and are held by nothing. */
  async function accountBehindCaptcha() {
    const account = await buildUser(t.database.db, { customerId });
    for (let i = 0; i < 3; i++) expect((await login(account.username, 'Wrong2026x')).json().errorCode).toBe('1102');
    return account;
  }

  it('holds each next attempt 1 s, 2 s, 4 s … at most a minute after a failure, and says when to retry', async () => {
    const account = await accountBehindCaptcha();
    let captchaId = await passedCaptcha(t);
    for (const seconds of [1, 2, 4, 8, 16, 32, 60, 60]) {
      expect((await login(account.username, 'Wrong2026x', captchaId)).json().errorCode).toBe('1102');
      // Even the right password with a solved puzzle waits; the puzzle is not used up by the refusal.
      captchaId = await passedCaptcha(t);
      const held = await login(account.username, account.password, captchaId);
      expect(held.statusCode).toBe(429);
      expect(held.json()).toEqual({
        errorCode: '1101',
        errorMsg: 'Too many login attempts, please try again later',
        data: { retryAfter: seconds },
      });
      clock.advance(seconds * 1000 - 1);
      expect((await login(account.username, account.password, captchaId)).json().data).toEqual({ retryAfter: 1 });
      clock.advance(1);
    }
    // Never shut out: once the wait is over the owner's right password signs in, and clears the count.
    expect((await login(account.username, account.password, captchaId)).json().errorCode).toBe('1000');
    expect((await login(account.username, 'Wrong2026x')).json().errorCode).toBe('1102');
  });

  it('judges one of several attempts sent at once, each with its own solved puzzle', async () => {
    const account = await accountBehindCaptcha();
    const captchaIds = await Promise.all([1, 2, 3, 4].map(() => passedCaptcha(t)));
    const answers = await Promise.all(captchaIds.map((id) => login(account.username, 'Wrong2026x', id)));
    expect(answers.map((answer) => answer.json().errorCode).sort()).toEqual(['1101', '1101', '1101', '1102']);
  });

  it('is not started by an attempt whose captcha fails, and refuses one without a captcha only while it runs', async () => {
    const account = await accountBehindCaptcha();
    const unchecked = await newPuzzle(t);
    expect((await login(account.username, 'Wrong2026x', unchecked.captchaId)).json().errorCode).toBe('1104');
    expect((await login(account.username, 'Wrong2026x', await passedCaptcha(t))).json().errorCode).toBe('1102');
    expect((await login(account.username, account.password)).json().errorCode).toBe('1101');
    clock.advance(1000);
    expect((await login(account.username, account.password)).json().errorCode).toBe('1104');
  });

  it("holds only the account that failed: a classmate's sign-in goes on", async () => {
    const account = await accountBehindCaptcha();
    const classmate = await buildUser(t.database.db, { customerId });
    expect((await login(account.username, 'Wrong2026x', await passedCaptcha(t))).json().errorCode).toBe('1102');
    expect((await login(account.username, account.password, await passedCaptcha(t))).json().errorCode).toBe('1101');
    expect((await login(classmate.username, classmate.password)).json().errorCode).toBe('1000');
  });
});
