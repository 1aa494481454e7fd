import { describe, expect, it } from 'vitest';
import { computeWeek } from './compute-week.js';

describe('compute week', () => {
  it('starts on Monday 00:00 in Asia/Shanghai', () => {
    // Sunday 23:59 in Shanghai is still the old week; Monday 00:00 starts the next.
    expect(computeWeek(new Date('2026-11-22T23:59:00+08:00')).weekStart).toBe('2026-11-16');
    const monday = computeWeek(new Date('2026-11-23T00:00:00+08:00'));
    expect(monday.weekStart).toBe('2026-11-23');
    expect(monday.resetsAt.toISOString()).toBe('2026-11-29T16:00:00.000Z');
  });

  it('follows the customer time zone, daylight saving included', () => {
    const week = computeWeek(new Date('2026-03-26T12:00:00Z'), 'Europe/Berlin');
    expect(week.weekStart).toBe('2026-03-23');
    // Summer time begins on 29 March, so Monday 30 March 00:00 is 22:00 UTC the day before.
    expect(week.resetsAt.toISOString()).toBe('2026-03-29T22:00:00.000Z');
  });
});
