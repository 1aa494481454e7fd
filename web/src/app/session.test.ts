import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { readCookie } from './cookies';
import {
  clearSession,
  isLoggedIn,
  onSessionCleared,
  readSession,
  saveCustcode,
  saveLogin,
  saveProductChoice,
  saveSessionFlags,
  saveTokens,
  settleSession,
  useLoggedIn,
} from './session';

const DAY_MS = 24 * 60 * 60 * 1000;

function clearCookies(): void {
  for (const item of document.cookie.split(';')) {
    const name = item.split('=')[0]?.trim();
    if (name) document.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
  }
}

const LOGIN = { token: 'tok', refreshToken: 'ref', userId: 'u-1', roles: ['ROLE_TEACHER'] };

beforeEach(() => {
  clearCookies();
  localStorage.clear();
  sessionStorage.clear();
});

afterEach(() => {
  vi.useRealTimers();
});

describe('session', () => {
  it('saves a login: tokens in cookies, login info in localStorage, custcode in cookie and sessionStorage', () => {
    saveLogin({ ...LOGIN, custcode: 'SCHOOL01' });

    expect(readCookie('token')).toBe('tok');
    expect(readCookie('refreshToken')).toBe('ref');
    expect(readCookie('custcode')).toBe('SCHOOL01');
    expect(sessionStorage.getItem('custcode')).toBe('SCHOOL01');
    const session = readSession();
    expect(session).toMatchObject({ userId: 'u-1', roles: ['ROLE_TEACHER'], isSuper: false, isGrade: false });
    expect(session.loginDate).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(isLoggedIn()).toBe(true);
  });

  it('writes the cookies for 365 days, SameSite=Strict, on the whole site', () => {
    const writes: string[] = [];
    const descriptor = Object.getOwnPropertyDescriptor(Document.prototype, 'cookie');
    vi.spyOn(document, 'cookie', 'set').mockImplementation((value: string) => {
      writes.push(value);
      descriptor?.set?.call(document, value);
    });

    saveTokens('tok-2', 'ref-2');

    expect(writes).toHaveLength(2);
    for (const write of writes) {
      expect(write).toContain('path=/');
      expect(write).toContain('SameSite=Strict');
      const expires = Date.parse(/expires=([^;]+)/.exec(write)?.[1] ?? '');
      expect(Math.round((expires - Date.now()) / DAY_MS)).toBe(365);
    }
    vi.restoreAllMocks();
  });

  it('marks super administrators from their role unless told otherwise', () => {
    saveLogin({ ...LOGIN, roles: ['ROLE_SUPER'] });
    expect(readSession().isSuper).toBe(true);
    saveLogin({ ...LOGIN, roles: ['ROLE_SUPER'], isSuper: false });
    expect(readSession().isSuper).toBe(false);
  });

  it('is logged out when the token or the user id is missing', () => {
    saveLogin(LOGIN);
    document.cookie = 'token=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/';
    expect(isLoggedIn()).toBe(false);

    saveLogin(LOGIN);
    localStorage.removeItem('userId');
    expect(isLoggedIn()).toBe(false);
  });

  it('forgets login info stored more than 365 days ago', () => {
    vi.useFakeTimers({ now: new Date('2025-01-01T00:00:00Z'), toFake: ['Date'] });
    saveLogin(LOGIN);
    vi.setSystemTime(new Date('2025-12-31T00:00:00Z'));
    expect(readSession().userId).toBe('u-1');
    vi.setSystemTime(new Date('2026-01-02T00:00:00Z'));
    expect(readSession().userId).toBeNull();
    expect(localStorage.getItem('userId')).toBeNull();
  });

  it('keeps refreshed tokens and the rest of the session', () => {
    saveLogin(LOGIN);
    saveTokens('tok-2', 'ref-2');
    expect(readSession()).toMatchObject({ token: 'tok-2', refreshToken: 'ref-2', userId: 'u-1' });
  });

  it('stores the grade and product-chooser flags', () => {
    saveLogin(LOGIN);
    saveSessionFlags({ isGrade: true, isUserSelect: true });
    expect(readSession()).toMatchObject({ isGrade: true, isUserSelect: true });
  });

  it("remembers each user's product choice across sign-out, for that user only", () => {
    saveLogin(LOGIN);
    expect(readSession()).toMatchObject({ isUserSelect: false, product: null });
    saveProductChoice('admin');
    expect(readSession()).toMatchObject({ isUserSelect: true, product: 'admin' });

    clearSession();
    saveLogin({ ...LOGIN, userId: 'u-2' });
    expect(readSession()).toMatchObject({ isUserSelect: false, product: null });
    saveProductChoice('pjedu');

    clearSession();
    saveLogin(LOGIN);
    expect(readSession()).toMatchObject({ isUserSelect: true, product: 'admin' });
  });

  it('forgets a product choice not renewed for 365 days', () => {
    vi.useFakeTimers({ now: new Date('2025-01-01T00:00:00Z'), toFake: ['Date'] });
    saveLogin(LOGIN);
    saveProductChoice('admin');
    vi.setSystemTime(new Date('2026-01-02T00:00:00Z'));
    saveLogin(LOGIN);
    expect(readSession()).toMatchObject({ isUserSelect: false, product: null });
  });

  it('keeps the school of the signed-in user as schoolNumber (spec 3), and none for a user without one', () => {
    saveLogin({ ...LOGIN, schoolId: 'school-7' });
    expect(readSession().schoolNumber).toBe('school-7');
    saveLogin({ ...LOGIN, schoolId: null });
    expect(readSession().schoolNumber).toBeNull();
  });

  it('clears every part of the session but the language and the product choices', () => {
    document.cookie = 'language=ja; path=/';
    saveCustcode('SCHOOL01');
    saveLogin({ ...LOGIN, schoolId: 'school-7' });
    saveProductChoice('admin');
    localStorage.setItem('userInfo', JSON.stringify({ userId: 'u-1', info: { id: 'u-1' } }));
    const cleared = vi.fn();
    const stop = onSessionCleared(cleared);

    clearSession();
    stop();

    const session = readSession();
    expect(session).toMatchObject({ token: null, refreshToken: null, userId: null, roles: [], isSuper: false });
    expect(isLoggedIn(session)).toBe(false);
    expect(session).toMatchObject({ schoolNumber: null, custcode: null, loginDate: null });
    for (const cookie of ['token', 'refreshToken', 'custcode']) expect(readCookie(cookie)).toBeNull();
    expect(sessionStorage.getItem('custcode')).toBeNull();
    expect(Object.keys(localStorage)).toEqual(['productChoices']);
    expect(cleared).toHaveBeenCalledTimes(1);
    expect(readCookie('language')).toBe('ja');
  });

  it.each([
    ['its user id was deleted from storage', () => localStorage.removeItem('userId')],
    ['its token cookie is gone', () => (document.cookie = 'token=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/')],
  ])('ends a session whose %s, cookies and storage alike', async (_case, breakIt) => {
    saveLogin({ ...LOGIN, custcode: 'SCHOOL01' });
    settleSession();
    expect(isLoggedIn()).toBe(true);

    breakIt();
    // What changes cookies from outside (another tab, the browser) is read from the next task on.
    await Promise.resolve();
    settleSession();

    expect(readCookie('token')).toBeNull();
    expect(readCookie('refreshToken')).toBeNull();
    expect(readCookie('custcode')).toBeNull();
    expect(localStorage.getItem('roles')).toBeNull();
  });

  it('ends a half session, on screen and in its cookies, when another tab (or a hand) changes storage', () => {
    saveLogin(LOGIN);
    const shown = renderHook(() => useLoggedIn());
    expect(shown.result.current).toBe(true);
    localStorage.removeItem('userId');
    act(() => void window.dispatchEvent(new StorageEvent('storage', { key: 'userId' })));
    expect(shown.result.current).toBe(false);
    expect(readCookie('token')).toBeNull();
    shown.unmount();
  });
});
