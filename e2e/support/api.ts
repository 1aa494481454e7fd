import type { APIRequestContext } from '@playwright/test';
import { expect } from '@playwright/test';

/** The demo accounts the first start creates (README, "Demo accounts"). */
export const DEMO = {
  super: { custcode: '', username: 'super', password: 'Super@2026' },
  admin: { custcode: 'demo2026', username: 'admin', password: 'Admin@2026' },
  school: { custcode: 'demo2026', username: 'school1', password: 'School@2026' },
  teacher: { custcode: 'demo2026', username: 'teacher1', password: 'Teacher@2026' },
  student: { custcode: 'demo2026', username: 'student01', password: 'Student@2026' },
} as const;

export interface Account {
  custcode: string;
  username: string;
  password: string;
}

export const b64 = (plain: string) => Buffer.from(plain, 'utf8').toString('base64');

/** A call to the product's API with a token; the envelope's `data` when errorCode is 1000. */
export async function call<T>(
  request: APIRequestContext,
  token: string | null,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  data?: unknown,
): Promise<T> {
  const response = await request.fetch(url, {
    method,
    headers: token ? { 'x-authorization': token, language: 'en' } : { language: 'en' },
    data,
  });
  const body = (await response.json()) as { errorCode: string; errorMsg: string; data: T };
  expect(body.errorCode, `${method} ${url}: ${body.errorMsg}`).toBe('1000');
  return body.data;
}

/** Signs in over the API (journeys that do not test the form start signed in). */
export async function apiSignIn(request: APIRequestContext, account: Account) {
  return call<{ id: string; token: string; refreshToken: string; roles: string[] }>(
    request,
    null,
    'POST',
    '/gw/api/v1/auth/login',
    { custcode: account.custcode, usernameOrEmailOrPhone: account.username, password: b64(account.password) },
  );
}

/**
 * The newest verification code sent to `target`, read from the outbox as a super administrator reads it
 * (no SMS or SMTP provider is configured in the embedded default).
 */
export async function latestCode(request: APIRequestContext, target: string): Promise<string> {
  const { token } = await apiSignIn(request, DEMO.super);
  let code: string | undefined;
  await expect
    .poll(async () => {
      const page = await call<{ list: Array<{ target: string; body: string }> }>(
        request,
        token,
        'GET',
        `/gw/api/v1/sys/outbox?keyword=${encodeURIComponent(target)}&size=5`,
      );
      code = page.list.find((item) => item.target === target)?.body.match(/\b(\d{6})\b/)?.[1];
      return code;
    })
    .toBeTruthy();
  return code as string;
}

/** A phone number no other run of the journeys uses. */
export function uniquePhone(): string {
  return `13${String(Date.now()).slice(-7)}${String(Math.floor(Math.random() * 100)).padStart(2, '0')}`;
}

/** Each journey's browser gets its own client address, so failure counters of one never touch another. */
export function clientAddress(): string {
  const n = Math.floor(Math.random() * 250) + 1;
  const m = Math.floor(Math.random() * 250) + 1;
  return `127.${10 + Math.floor(Math.random() * 200)}.${n}.${m}`;
}

/** The server whose access tokens expire after 2 seconds (playwright.config.ts). */
export const SHORT_TOKEN_URL = `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 8181) + 100}`;

/** The server whose disk is below its floor whatever its size (`MIN_FREE_DISK_MB` beyond any disk). */
export const FULL_DISK_URL = `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 8181) + 200}`;
