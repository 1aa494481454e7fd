import type { Page } from '@playwright/test';

/**
 * Signs in through the API (not the form) and stores the session the way the web app does: tokens in cookies,
 * login info in localStorage with its expiry. It is stored from `/readyz`, a page of the same origin that runs none
 * of the app: an app page open meanwhile would send requests of its own, and with short-lived tokens could renew
 * the session while the journey moves on. The caller goes to the page it wants next.
 */
export async function signInThroughApi(page: Page, account: { custcode: string; username: string; password: string }) {
  const res = await page.request.post('/gw/api/v1/auth/login', {
    data: {
      custcode: account.custcode,
      usernameOrEmailOrPhone: account.username,
      password: Buffer.from(account.password, 'utf8').toString('base64'),
    },
  });
  const body = (await res.json()) as {
    errorCode: string;
    data: { id: string; roles: string[]; token: string; refreshToken: string };
  };
  if (body.errorCode !== '1000') throw new Error(`sign-in of ${account.username} failed: ${JSON.stringify(body)}`);
  await page.goto('/readyz');
  await page.evaluate(
    ({ login, custcode }) => {
      const days = 365 * 24 * 3600 * 1000;
      const expires = new Date(Date.now() + days).toUTCString();
      for (const [name, value] of [
        ['token', login.token],
        ['refreshToken', login.refreshToken],
        ['custcode', custcode],
      ]) {
        document.cookie = `${name}=${encodeURIComponent(value!)}; expires=${expires}; path=/; SameSite=Strict`;
      }
      const store = (key: string, value: string) =>
        localStorage.setItem(key, JSON.stringify({ value, expires: Date.now() + days }));
      store('userId', login.id);
      store('roles', JSON.stringify(login.roles));
      store('loginDate', new Date().toISOString());
      store('isSuper', 'false');
      store('isGrade', 'false');
      store('isUserSelect', 'true');
    },
    { login: body.data, custcode: account.custcode },
  );
  return body.data;
}
