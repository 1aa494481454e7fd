import type { APIRequestContext, Page } from '@playwright/test';

export interface Login {
  id: string;
  roles: string[];
  token: string;
  refreshToken: string;
}

const b64 = (plain: string) => Buffer.from(plain, 'utf8').toString('base64');

/** Signs in through the API (not the form: the sign-in journeys test that) and answers the login. */
export async function apiLogin(request: APIRequestContext, custcode: string, username: string, password: string) {
  const res = await request.post('/gw/api/v1/auth/login', {
    data: { custcode, usernameOrEmailOrPhone: username, password: b64(password) },
  });
  const body = (await res.json()) as { errorCode: string; data: Login };
  if (body.errorCode !== '1000') throw new Error(`login of ${custcode}/${username} refused: ${body.errorCode}`);
  return body.data;
}

/** Puts a login into the browser the way the web app keeps it (cookies and localStorage, 365 days). */
export async function useLogin(page: Page, custcode: string, login: Login) {
  await page.goto('/home');
  await page.evaluate(
    ({ custcode, login }) => {
      const expires = Date.now() + 365 * 86_400_000;
      const cookie = (name: string, value: string) =>
        (document.cookie = `${name}=${encodeURIComponent(value)}; expires=${new Date(expires).toUTCString()}; path=/; SameSite=Strict`);
      cookie('token', login.token);
      cookie('refreshToken', login.refreshToken);
      cookie('custcode', custcode);
      const store = (key: string, value: string) => localStorage.setItem(key, JSON.stringify({ value, expires }));
      store('userId', login.id);
      store('roles', JSON.stringify(login.roles));
      store('loginDate', new Date().toISOString());
      store('isSuper', 'false');
      store('isGrade', 'false');
      store('isUserSelect', 'true');
    },
    { custcode, login },
  );
}

/** Calls the API as a signed-in user. */
export async function apiCall<T>(
  request: APIRequestContext,
  token: string,
  method: 'GET' | 'POST' | 'PUT',
  url: string,
  data?: object,
): Promise<T> {
  const res = await request.fetch(url, { method, data, headers: { 'x-authorization': token, language: 'en' } });
  const body = (await res.json()) as { errorCode: string; data: T };
  if (body.errorCode !== '1000') throw new Error(`${method} ${url} refused: ${body.errorCode}`);
  return body.data;
}

export { b64 };
