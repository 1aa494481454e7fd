import { ROLES, SESSION_COOKIE_DAYS, SESSION_COOKIES } from '@aiedu/contracts';
import { useMemo, useSyncExternalStore } from 'react';
import { deleteCookie, readCookie, writeCookie } from './cookies';

/**
 * The signed-in user's session (spec section 3). Tokens and the customer code live in cookies
 * (365 days, SameSite=Strict); the rest of the login info lives in localStorage with the same
 * 365-day expiry; the customer code is also kept in sessionStorage for the current tab.
 */
export interface Session {
  token: string | null;
  refreshToken: string | null;
  userId: string | null;
  roles: string[];
  custcode: string | null;
  /** ISO timestamp of the last sign-in. */
  loginDate: string | null;
  isSuper: boolean;
  /** Grade information was fetched for an organisation admin (ROLE_ADMINORGANIZE). */
  isGrade: boolean;
  /** The user has picked a product in the product chooser. */
  isUserSelect: boolean;
}

export interface LoginInfo {
  token: string;
  refreshToken: string;
  userId: string;
  roles: string[];
  custcode?: string;
  /** Defaults to whether `roles` holds ROLE_SUPER. */
  isSuper?: boolean;
  isGrade?: boolean;
  isUserSelect?: boolean;
}

const STORED = ['userId', 'roles', 'loginDate', 'isSuper', 'isGrade', 'isUserSelect', 'gradeInfo'] as const;
type StoredKey = (typeof STORED)[number];

const DAY_MS = 24 * 60 * 60 * 1000;

/** localStorage key of the cached profile (user-info.ts): it belongs to the user, so sign-out removes it. */
export const USER_INFO_STORAGE_KEY = 'userInfo';

/** localStorage entries carry their own expiry: `{ value, expires }` (epoch ms). */
function readStored(key: StoredKey): string | null {
  try {
    const raw = localStorage.getItem(key);
    if (raw === null) return null;
    const entry = JSON.parse(raw) as { value?: unknown; expires?: unknown };
    if (typeof entry.value !== 'string' || typeof entry.expires !== 'number' || entry.expires <= Date.now()) {
      localStorage.removeItem(key);
      return null;
    }
    return entry.value;
  } catch {
    return null;
  }
}

function writeStored(key: StoredKey, value: string): void {
  try {
    localStorage.setItem(key, JSON.stringify({ value, expires: Date.now() + SESSION_COOKIE_DAYS * DAY_MS }));
  } catch {
    // Storage can be unavailable (private mode, quota); the cookies still carry the session.
  }
}

function parseRoles(raw: string | null): string[] {
  try {
    const roles: unknown = JSON.parse(raw ?? '[]');
    return Array.isArray(roles) ? roles.filter((r): r is string => typeof r === 'string') : [];
  } catch {
    return [];
  }
}

export function readSession(): Session {
  let tabCustcode: string | null = null;
  try {
    tabCustcode = sessionStorage.getItem(SESSION_COOKIES.custcode);
  } catch {
    tabCustcode = null;
  }
  return {
    token: readCookie(SESSION_COOKIES.token),
    refreshToken: readCookie(SESSION_COOKIES.refreshToken),
    userId: readStored('userId'),
    roles: parseRoles(readStored('roles')),
    custcode: tabCustcode ?? readCookie(SESSION_COOKIES.custcode),
    loginDate: readStored('loginDate'),
    isSuper: readStored('isSuper') === 'true',
    isGrade: readStored('isGrade') === 'true',
    isUserSelect: readStored('isUserSelect') === 'true',
  };
}

/** Logged in only when both the token and the user id exist. */
export function isLoggedIn(session: Session = readSession()): boolean {
  return Boolean(session.token && session.userId);
}

export function saveLogin(login: LoginInfo): void {
  writeCookie(SESSION_COOKIES.token, login.token, SESSION_COOKIE_DAYS);
  writeCookie(SESSION_COOKIES.refreshToken, login.refreshToken, SESSION_COOKIE_DAYS);
  writeStored('userId', login.userId);
  writeStored('roles', JSON.stringify(login.roles));
  writeStored('loginDate', new Date().toISOString());
  writeStored('isSuper', String(login.isSuper ?? login.roles.includes(ROLES.super)));
  writeStored('isGrade', String(login.isGrade ?? false));
  writeStored('isUserSelect', String(login.isUserSelect ?? false));
  if (login.custcode !== undefined) saveCustcode(login.custcode);
  notify();
}

/** Keeps the tokens a refresh returned; the rest of the session is unchanged. */
export function saveTokens(token: string, refreshToken: string): void {
  writeCookie(SESSION_COOKIES.token, token, SESSION_COOKIE_DAYS);
  writeCookie(SESSION_COOKIES.refreshToken, refreshToken, SESSION_COOKIE_DAYS);
  notify();
}

export function saveCustcode(custcode: string): void {
  writeCookie(SESSION_COOKIES.custcode, custcode, SESSION_COOKIE_DAYS);
  try {
    sessionStorage.setItem(SESSION_COOKIES.custcode, custcode);
  } catch {
    // The cookie still carries it.
  }
}

/** An organisation administrator's grades (spec 4), fetched after sign-in: `[{ eduStage, grade, classCount }]`. */
export interface GradeInfo {
  eduStage: string;
  grade: number;
  classCount: number;
}

export function saveGradeInfo(grades: GradeInfo[]): void {
  writeStored('gradeInfo', JSON.stringify(grades));
}

export function readGradeInfo(): GradeInfo[] {
  try {
    return JSON.parse(readStored('gradeInfo') ?? '[]') as GradeInfo[];
  } catch {
    return [];
  }
}

export function saveSessionFlags(flags: Partial<Pick<Session, 'isGrade' | 'isUserSelect'>>): void {
  if (flags.isGrade !== undefined) writeStored('isGrade', String(flags.isGrade));
  if (flags.isUserSelect !== undefined) writeStored('isUserSelect', String(flags.isUserSelect));
  notify();
}

/** Forgets the user. The language and the customer code stay: they belong to the browser, not the user. */
export function clearSession(): void {
  deleteCookie(SESSION_COOKIES.token);
  deleteCookie(SESSION_COOKIES.refreshToken);
  for (const key of [...STORED, USER_INFO_STORAGE_KEY]) {
    try {
      localStorage.removeItem(key);
    } catch {
      // Nothing stored.
    }
  }
  notify();
}

const listeners = new Set<() => void>();

function notify(): void {
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  // Another tab signing in or out changes localStorage.
  window.addEventListener('storage', listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', listener);
  };
}

/** Re-renders when the user signs in or out (in this tab or another one). */
export function useLoggedIn(): boolean {
  return useSyncExternalStore(subscribe, () => isLoggedIn());
}

/** The signed-in user's roles, re-rendering when they sign in or out. */
export function useSessionRoles(): string[] {
  const joined = useSyncExternalStore(subscribe, () => (isLoggedIn() ? readSession().roles.join(',') : ''));
  return useMemo(() => (joined ? joined.split(',') : []), [joined]);
}
