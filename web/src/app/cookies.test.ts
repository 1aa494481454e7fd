import { afterEach, describe, expect, it } from 'vitest';
import { deleteCookie, readCookie, writeCookie } from './cookies';

const EXPIRED = 'expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/';

describe('cookies', () => {
  afterEach(() => {
    for (const name of ['token', 'name with space']) document.cookie = `${encodeURIComponent(name)}=; ${EXPIRED}`;
  });

  it('reads what the helpers write and delete at once, encoded names and values included', () => {
    expect(readCookie('token')).toBeNull();
    writeCookie('token', 'a=b;c', 1);
    expect(readCookie('token')).toBe('a=b;c');
    writeCookie('name with space', '学校', 1);
    expect(readCookie('name with space')).toBe('学校');
    deleteCookie('token');
    expect(readCookie('token')).toBeNull();
    expect(readCookie('name with space')).toBe('学校');
  });

  it('keeps one reading of the cookies for the current task and reads them again in the next', async () => {
    writeCookie('token', 'first', 1);
    expect(readCookie('token')).toBe('first');

    // Another tab signing in changes the cookie behind this one's back.
    document.cookie = 'token=second; path=/';
    expect(readCookie('token')).toBe('first');

    await Promise.resolve();
    expect(readCookie('token')).toBe('second');
  });
});
