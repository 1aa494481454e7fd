import { describe, expect, it } from 'vitest';
import { outcomeOf, parseEvaluation, sandboxName } from './evaluation.runner.js';
import { pickNext, type QueueHead } from './run.queue.js';

const at = (minute: number) => new Date(Date.UTC(2026, 10, 22, 1, minute));

/** Drains a queue the way the worker does: pick, start (the team's latest start is now), repeat. */
function order(runs: { id: string; team: string; queued: number }[], started: Record<string, number> = {}) {
  const queued = [...runs];
  const last = new Map(Object.entries(started).map(([team, minute]) => [team, at(minute)]));
  const picked: string[] = [];
  let clock = 100;
  while (queued.length) {
    const heads: QueueHead[] = [];
    for (const team of new Set(queued.map((r) => r.team))) {
      const head = queued.filter((r) => r.team === team).sort((a, b) => a.queued - b.queued)[0]!;
      heads.push({
        id: head.id,
        registrationId: team,
        queuedAt: at(head.queued),
        lastStartedAt: last.get(team) ?? null,
      });
    }
    const next = pickNext(heads)!;
    picked.push(next.id);
    last.set(next.registrationId, at(clock++));
    queued.splice(
      queued.findIndex((r) => r.id === next.id),
      1,
    );
  }
  return picked;
}

describe('the fair pick of the next run', () => {
  it('answers nothing for an empty queue', () => {
    expect(pickNext([])).toBeNull();
  });

  it("does not let fifty runs of one team starve another team's single run", () => {
    const flood = Array.from({ length: 50 }, (_, i) => ({ id: `a${i}`, team: 'A', queued: i }));
    const picked = order([...flood, { id: 'b0', team: 'B', queued: 30 }]);
    expect(picked.indexOf('b0')).toBe(1);
    expect(picked).toHaveLength(51);
    // A's own runs keep their order.
    expect(picked.filter((id) => id.startsWith('a'))).toEqual(flood.map((r) => r.id));
  });

  it('takes teams round-robin, the team whose latest run started longest ago first, never-run teams before all', () => {
    const runs = [
      { id: 'a1', team: 'A', queued: 1 },
      { id: 'a2', team: 'A', queued: 2 },
      { id: 'b1', team: 'B', queued: 3 },
      { id: 'b2', team: 'B', queued: 4 },
      { id: 'c1', team: 'C', queued: 5 },
    ];
    // C never ran; B's last run started before A's.
    expect(order(runs, { A: 50, B: 40 })).toEqual(['c1', 'b1', 'a1', 'b2', 'a2']);
  });

  it('between teams that never ran, the run queued earliest goes first', () => {
    const heads: QueueHead[] = [
      { id: 'late', registrationId: 'A', queuedAt: at(9), lastStartedAt: null },
      { id: 'early', registrationId: 'B', queuedAt: at(2), lastStartedAt: null },
      { id: 'ran', registrationId: 'C', queuedAt: at(1), lastStartedAt: at(0) },
    ];
    expect(pickNext(heads)!.id).toBe('early');
  });
});

describe("the evaluation harness's answer", () => {
  const nonce = 'f'.repeat(32);

  it('takes only the line marked with the nonce, and the last of them', () => {
    const stdout = [
      '@@evaluate 0000 {"score": 1, "error": "", "reason": null}',
      `@@evaluate ${nonce} {"score": 0.5, "error": "", "reason": null}`,
    ].join('\n');
    expect(parseEvaluation(stdout, nonce)).toMatchObject({ score: 0.5 });
    expect(parseEvaluation('@@evaluate 0000 {"score": 1}', nonce)).toBeNull();
    expect(parseEvaluation(`@@evaluate ${nonce} not json`, nonce)).toBeNull();
  });

  it("counts a failure of the script's own, not a sandbox failure or a timeout", () => {
    expect(outcomeOf({ score: 0.7, error: '', reason: null }, '')).toEqual({
      score: 0.7,
      error: null,
      platformFault: false,
    });
    expect(outcomeOf({ score: null, error: 'KeyError: id', reason: 'script' }, '')).toMatchObject({
      platformFault: false,
      error: 'KeyError: id',
    });
    expect(outcomeOf({ score: null, error: 'too long', reason: 'timeout' }, '')).toMatchObject({ platformFault: true });
    expect(outcomeOf(null, 'Killed\n')).toMatchObject({ platformFault: true, score: null });
  });

  it("names the sandbox's files by role, with the original's plain extension", () => {
    expect(sandboxName('predictions', 'My Results.CSV')).toBe('predictions.csv');
    expect(sandboxName('answers', 'truth')).toBe('answers');
    expect(sandboxName('answers', 'x.$(rm -rf)')).toBe('answers');
  });
});
