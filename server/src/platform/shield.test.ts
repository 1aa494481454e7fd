import { afterEach, describe, expect, it, vi } from 'vitest';
import { testClock } from '../test/factories.js';
import { addressKey, isExemptableRange, RequestShield } from './shield.js';

const HOUR = 3_600_000;

function shieldAt(clock: { now: () => Date }, loginFailure = 3) {
  return new RequestShield({ limits: { loginFailure }, blockMs: 15 * 60_000, now: clock.now });
}

describe('request shield', () => {
  afterEach(() => vi.useRealTimers());

  it('counts IPv6 addresses by their /64 and IPv4-mapped ones as IPv4', async () => {
    expect(addressKey('203.0.113.9')).toBe('203.0.113.9');
    expect(addressKey('::ffff:203.0.113.9')).toBe('203.0.113.9');
    expect(addressKey('::ffff:cb00:7109')).toBe('203.0.113.9');
    expect(addressKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:0db8:0001:0002:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
    expect(addressKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(addressKey('2001:db8::')).toBe('2001:db8:0:0::/64');

    const shield = shieldAt(testClock());
    // Four failures from four addresses of one /64: over the limit of three, as if from one address.
    for (const host of ['1', '2', 'abcd:1', 'ffff:ffff:fffe'])
      await shield.record(`2001:db8:1:2::${host}`, 'loginFailure');
    expect(shield.isBlocked('2001:db8:1:2::9999')).toBe(true);
    expect(shield.isBlocked('2001:db8:1:3::1')).toBe(false);

    for (let i = 0; i < 4; i++) await shield.record('::ffff:198.51.100.7', 'loginFailure');
    expect(shield.isBlocked('198.51.100.7')).toBe(true);
  });

  it('leaves a block of a /64 to its addresses that are not exempt', async () => {
    const shield = shieldAt(testClock());
    shield.setAllowlist(['2001:db8:1:2::5']);
    for (let i = 1; i <= 4; i++) await shield.record(`2001:db8:1:2::${i}`, 'loginFailure');
    expect(shield.isBlocked('2001:db8:1:2::5')).toBe(false);
    expect(shield.isBlocked('2001:db8:1:2::6')).toBe(true);
  });

  it('does not count events it has no limit for', async () => {
    const shield = shieldAt(testClock(), 1);
    for (let i = 0; i < 5; i++) await shield.record('192.0.2.1', 'captchaRequest');
    expect(shield.isBlocked('192.0.2.1')).toBe(false);
    expect(shield.size).toBe(0);
  });

  it('sweeps the counts and blocks that ran out from memory on its own timer', async () => {
    vi.useFakeTimers({ now: new Date('2026-11-22T09:00:00Z') });
    const shield = shieldAt({ now: () => new Date() });
    try {
      for (let i = 0; i < 200; i++) await shield.record(`2001:db8:${i.toString(16)}::1`, 'loginFailure');
      for (let i = 0; i < 4; i++) await shield.record('192.0.2.1', 'loginFailure');
      expect(shield.size).toBe(202);

      vi.advanceTimersByTime(HOUR - 60_000);
      await shield.record('192.0.2.2', 'loginFailure');
      // The next sweeps come after the hour of the first events; the 15-minute block ran out long before.
      vi.advanceTimersByTime(11 * 60_000);
      expect(shield.size).toBe(1);
      expect(shield.isBlocked('192.0.2.1')).toBe(false);
    } finally {
      shield.close();
    }
  });

  it('exempts no range wider than an IPv4 /16 or an IPv6 /48', () => {
    for (const range of ['203.0.113.7', '10.1.0.0/16', '203.0.113.0/24', '2001:db8:1::/48', '2001:db8::1']) {
      expect(isExemptableRange(range), range).toBe(true);
    }
    for (const range of ['0.0.0.0/0', '10.0.0.0/8', '10.0.0.0/15', '::/0', '2001:db8::/32', '2001:db8::/47']) {
      expect(isExemptableRange(range), range).toBe(false);
    }
    // IPv6 ranges over the IPv4-mapped addresses cover IPv4 ones: judged as IPv4 ranges.
    expect(isExemptableRange('::ffff:203.0.113.0/120')).toBe(true);
    expect(isExemptableRange('::ffff:0:0/96')).toBe(false);
    expect(isExemptableRange('::ffff:10.0.0.0/104')).toBe(false);
    expect(isExemptableRange('::/48')).toBe(false);
    expect(isExemptableRange('::1')).toBe(true);
  });
});
