/** Plain `document.cookie` helpers. Cookies are scoped to the whole site and never sent cross-site. */

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The cookies as read in the current task. Every component that asks whether someone is signed in reads the session's cookies,
 * and each `document.cookie` read asks the browser for the whole list; they change only between tasks (another tab
 * signing in) or through the helpers below, which drop this copy.
 */
let current: Map<string, string> | null = null;

function cookies(): Map<string, string> {
  if (current) return current;
  const read = new Map<string, string>();
  for (const part of document.cookie.split(';')) {
    const item = part.trim();
    const equals = item.indexOf('=');
    if (equals > 0 && !read.has(item.slice(0, equals))) read.set(item.slice(0, equals), item.slice(equals + 1));
  }
  current = read;
  queueMicrotask(() => {
    current = null;
  });
  return read;
}

export function readCookie(name: string): string | null {
  const value = cookies().get(encodeURIComponent(name));
  return value === undefined ? null : decodeURIComponent(value);
}

export function writeCookie(name: string, value: string, days: number): void {
  const expires = new Date(Date.now() + days * DAY_MS).toUTCString();
  const secure = location.protocol === 'https:' ? '; Secure' : '';
  current = null;
  document.cookie = `${encodeURIComponent(name)}=${encodeURIComponent(value)}; expires=${expires}; path=/; SameSite=Strict${secure}`;
}

export function deleteCookie(name: string): void {
  current = null;
  document.cookie = `${encodeURIComponent(name)}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/; SameSite=Strict`;
}
