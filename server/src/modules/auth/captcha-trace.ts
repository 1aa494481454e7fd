import type { TTracePoint } from '@aiedu/contracts';

/**
 * What a slide's trace must show to pass as a person's: a few points, in time order, taking at least 100 ms, ending
 * where the slide was released, and not on one straight line of x against time (a constant-speed drag, as a
 * script moves a pointer; a hand speeds up and slows down, and keys move the slider in steps).
 */
export const TRACE_RULES = { minPoints: 4, minMs: 100, endTolerancePx: 1, minBendPx: 2 } as const;

/** Whether the trace is one a person's drag (or key presses) could have made, ending at `x`. */
export function isHumanTrace(trace: readonly TTracePoint[] | undefined, x: number): boolean {
  if (!trace || trace.length < TRACE_RULES.minPoints) return false;
  const first = trace[0]!;
  const last = trace[trace.length - 1]!;
  if (trace.some((point, i) => i > 0 && point.t < trace[i - 1]!.t)) return false;
  const duration = last.t - first.t;
  if (duration < TRACE_RULES.minMs) return false;
  if (Math.abs(last.x - x) > TRACE_RULES.endTolerancePx) return false;
  // How far the trace strays from the straight line through its ends.
  const speed = (last.x - first.x) / duration;
  const bend = Math.max(...trace.map((point) => Math.abs(point.x - (first.x + speed * (point.t - first.t)))));
  return bend >= TRACE_RULES.minBendPx;
}
