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
  /** The signed-in user's school id (spec 3: "School id stored as schoolNumber"); null without one. */
  schoolNumber: string | null;
  custcode: string | null;
  /** ISO timestamp of the last sign-in. */
  loginDate: string | null;
  isSuper: boolean;
  /** Grade information was fetched for an organisation admin (ROLE_ADMINORGANIZE). */
  isGrade: boolean;
  /** The user has picked a product in the product chooser. */
  isUserSelect: boolean;
  /** The product the user picked (the id `GET /apps` names it by), remembered across sign-ins. */
  product: string | null;
}

export interface LoginInfo {
  token: string;
  refreshToken: string;
  userId: string;
  roles: string[];
  /** The user's school (login answer `schoolId`), kept as `schoolNumber`. */
  schoolId?: string | null;
  custcode?: string;
  /** Defaults to whether `roles` holds ROLE_SUPER. */
  isSuper?: boolean;
  isGrade?: boolean;
  /** Defaults to whether this user picked a product before. */
  isUserSelect?: boolean;
}

const STORED = [
  'userId',
  'roles',
  'schoolNumber',
  'loginDate',
  'isSuper',
  'isGrade',
  'isUserSelect',
  'gradeInfo',
] as const;
/**
 * Kept when the user signs out: each user's product choice, by user id, so that the next sign-in on this browser
 * goes where they chose, and another user of a shared school computer does not inherit it.
 */
const PRODUCT_CHOICES = 'productChoices';
type StoredKey = (typeof STORED)[number] | typeof PRODUCT_CHOICES;

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

function removeStored(key: string): void {
  try {
    localStorage.removeItem(key);
  } catch {
    // Nothing stored.
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

function readProductChoices(): Record<string, string> {
  try {
    const choices: unknown = JSON.parse(readStored(PRODUCT_CHOICES) ?? '{}');
    if (typeof choices !== 'object' || choices === null) return {};
    return Object.fromEntries(
      Object.entries(choices).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
    );
  } catch {
    return {};
  }
}

function productChoiceOf(userId: string | null): string | null {
  return (userId && readProductChoices()[userId]) || null;
}

export function readSession(): Session {
  let tabCustcode: string | null = null;
  try {
    tabCustcode = sessionStorage.getItem(SESSION_COOKIES.custcode);
  } catch {
    tabCustcode = null;
  }
  const userId = readStored('userId');
  return {
    token: readCookie(SESSION_COOKIES.token),
    refreshToken: readCookie(SESSION_COOKIES.refreshToken),
    userId,
    roles: parseRoles(readStored('roles')),
    schoolNumber: readStored('schoolNumber'),
    custcode: tabCustcode ?? readCookie(SESSION_COOKIES.custcode),
    loginDate: readStored('loginDate'),
    isSuper: readStored('isSuper') === 'true',
    isGrade: readStored('isGrade') === 'true',
    isUserSelect: readStored('isUserSelect') === 'true',
    product: productChoiceOf(userId),
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
  if (login.schoolId) writeStored('schoolNumber', login.schoolId);
  else removeStored('schoolNumber');
  writeStored('loginDate', new Date().toISOString());
  writeStored('isSuper', String(login.isSuper ?? login.roles.includes(ROLES.super)));
  writeStored('isGrade', String(login.isGrade ?? false));
  writeStored('isUserSelect', String(login.isUserSelect ?? productChoiceOf(login.userId) !== null));
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

/** Remembers the signed-in user's choice in the product chooser (`isUserSelect` says they made one). */
export function saveProductChoice(product: string): void {
  const { userId } = readSession();
  if (!userId) return;
  writeStored(PRODUCT_CHOICES, JSON.stringify({ ...readProductChoices(), [userId]: product }));
  saveSessionFlags({ isUserSelect: true });
}

/** What else forgets the user when the session is cleared (the query cache: see AppProviders). */
const clearedListeners = new Set<() => void>();

export function onSessionCleared(listener: () => void): () => void {
  clearedListeners.add(listener);
  return () => void clearedListeners.delete(listener);
}

/**
 * Forgets the user, whichever way the session ends (the logout button, E002/E003, a refused refresh, a session found
 * half gone): the token cookies and the customer code (cookie and tab), the login info and the cached profile in
 * localStorage, and what the app loaded for them. The language stays: it belongs to the browser, not the user; so do
 * the product choices, each kept for its own user.
 */
export function clearSession(): void {
  deleteCookie(SESSION_COOKIES.token);
  deleteCookie(SESSION_COOKIES.refreshToken);
  deleteCookie(SESSION_COOKIES.custcode);
  try {
    sessionStorage.removeItem(SESSION_COOKIES.custcode);
  } catch {
    // Nothing stored.
  }
  for (const key of [...STORED, USER_INFO_STORAGE_KEY]) removeStored(key);
  for (const listener of clearedListeners) listener();
  notify();
}

/**
 * Spec 4: a user is logged out when the token or the user id is missing. Whatever is left of such a session (a
 * token whose user id was deleted from storage, a user id without its token) goes too, so no request carries it.
 */
export function settleSession(): void {
  const token = readCookie(SESSION_COOKIES.token);
  const refreshToken = readCookie(SESSION_COOKIES.refreshToken);
  const userId = readStored('userId');
  if ((token || refreshToken || userId) && !(token && userId)) clearSession();
}

const listeners = new Set<() => void>();

function notify(): void {
  for (const listener of listeners) listener();
}

/** Another tab signing in or out (or storage edited by hand) changes localStorage: a half session ends here too. */
function onStorage(): void {
  settleSession();
  notify();
}

function subscribe(listener: () => void): () => void {
  if (listeners.size === 0) window.addEventListener('storage', onStorage);
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) window.removeEventListener('storage', onStorage);
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
