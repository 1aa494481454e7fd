import { describe, expect, it } from 'vitest';
import { slideTrace } from '../../test/captcha-kit.js';
import { isHumanTrace } from './captcha-trace.js';

/** A script's drag from 0 to `x` over `ms`: equal steps at equal times. */
const linear = (x: number, ms: number, points = 20) =>
  Array.from({ length: points }, (_, i) => ({ x: (x * i) / (points - 1), t: (ms * i) / (points - 1) }));

describe('the trace of a slide', () => {
  it("passes a person's drag: held a moment, then faster and slower", () => {
    expect(isHumanTrace(slideTrace(150), 150)).toBe(true);
    expect(isHumanTrace(slideTrace(24, 400), 24)).toBe(true);
  });

  it('passes key presses: the slider jumps a step at each press, at the pace of a hand', () => {
    const presses = [0, 180, 420, 600, 790, 1010];
    const trace = presses.flatMap((t, i) => [
      { x: i * 10, t },
      { x: (i + 1) * 10, t },
    ]);
    expect(isHumanTrace(trace, 60)).toBe(true);
  });

  it('fails without a trace, or with a single point', () => {
    expect(isHumanTrace(undefined, 150)).toBe(false);
    expect(isHumanTrace([], 150)).toBe(false);
    expect(isHumanTrace([{ x: 150, t: 0 }], 150)).toBe(false);
  });

  it('fails a perfectly linear drag at constant speed, however it is sampled', () => {
    expect(isHumanTrace(linear(150, 800), 150)).toBe(false);
    const uneven = [0, 30, 35, 120, 400, 410, 800].map((t) => ({ x: (150 * t) / 800, t }));
    expect(isHumanTrace(uneven, 150)).toBe(false);
  });

  it('fails a drag faster than a hand (under 100 ms)', () => {
    expect(isHumanTrace(slideTrace(150, 90), 150)).toBe(false);
  });

  it('fails a trace that goes back in time or ends elsewhere than the slide', () => {
    const trace = slideTrace(150);
    expect(isHumanTrace(trace, 170)).toBe(false);
    expect(isHumanTrace([trace[0]!, trace[3]!, trace[2]!, ...trace.slice(4)], 150)).toBe(false);
  });
});
