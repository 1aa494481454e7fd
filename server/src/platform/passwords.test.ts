import { describe, expect, it } from 'vitest';
import {
  HASHES_AT_ONCE,
  hashPassword,
  hashQueue,
  hugePagesSetting,
  hugePagesWarning,
  verifyPassword,
} from './passwords.js';

describe('passwords', () => {
  it('hashes with argon2id at the OWASP parameters and verifies only the same password', async () => {
    const hashed = await hashPassword('Correct#Horse9');
    expect(hashed).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await verifyPassword(hashed, 'Correct#Horse9')).toBe(true);
    expect(await verifyPassword(hashed, 'Correct#Horse8')).toBe(false);
    expect(await verifyPassword('not a hash', 'Correct#Horse9')).toBe(false);
  });

  it('runs at most one hash per core at once and queues the rest', async () => {
    const hashed = await hashPassword('Correct#Horse9');
    const extra = 3;
    const verifies = Array.from({ length: HASHES_AT_ONCE + extra }, () => verifyPassword(hashed, 'Correct#Horse9'));
    const seen: { running: number; waiting: number }[] = [];
    let done = false;
    const all = Promise.all(verifies).finally(() => (done = true));
    while (!done) {
      seen.push(hashQueue());
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(await all).toEqual(verifies.map(() => true));
    expect(Math.max(...seen.map((s) => s.running))).toBe(HASHES_AT_ONCE);
    expect(Math.max(...seen.map((s) => s.waiting))).toBe(extra);
    expect(hashQueue()).toEqual({ running: 0, waiting: 0 });
  });

  it('warns at start only when transparent huge pages are set to never', () => {
    expect(hugePagesSetting(() => 'always [madvise] never\n')).toBe('madvise');
    expect(hugePagesWarning(() => 'always [madvise] never\n')).toBeUndefined();
    expect(hugePagesWarning(() => '[always] madvise never\n')).toBeUndefined();
    expect(hugePagesWarning(() => 'always madvise [never]\n')).toMatch(/transparent huge pages are off.*"madvise"/);
    expect(
      hugePagesWarning(() => {
        throw new Error('ENOENT');
      }),
    ).toBeUndefined();
  });
});
