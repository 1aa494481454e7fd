import { describe, expect, it } from 'vitest';
import { assignWorks, type AssignableGroup, type AssignableWork } from './review.assignment.js';

const work = (n: number, schoolId: string | null = null): AssignableWork => ({
  id: `w${String(n).padStart(4, '0')}`,
  schoolId,
});
const group = (n: number, schoolIds: (string | null)[] = [], existing = 0): AssignableGroup => ({
  group: n,
  schoolIds,
  existing,
});

function sizes(result: ReturnType<typeof assignWorks>, groups: AssignableGroup[]) {
  if (!result.ok) throw new Error(`unplaced ${result.unplaced.join(',')}`);
  const out = new Map(groups.map((g) => [g.group, g.existing]));
  for (const g of result.groups.values()) out.set(g, (out.get(g) ?? 0) + 1);
  return [...out.values()];
}

/** A small pseudo-random generator, so the property checks below are the same on every run. */
function rng(seed: number) {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    return s / 2 ** 31;
  };
}

describe('assignWorks', () => {
  it('gives nothing when there is nothing to give', () => {
    const result = assignWorks([], [group(1)]);
    expect(result).toEqual({ ok: true, groups: new Map() });
  });

  it('splits works evenly: group sizes differ by at most one', () => {
    for (const [works, groups] of [
      [10, 3],
      [7, 7],
      [5, 8],
      [100, 6],
      [1, 2],
    ] as const) {
      const gs = Array.from({ length: groups }, (_, i) => group(i + 1));
      const result = assignWorks(
        Array.from({ length: works }, (_, i) => work(i)),
        gs,
      );
      const s = sizes(result, gs);
      expect(s.reduce((a, b) => a + b, 0)).toBe(works);
      expect(Math.max(...s) - Math.min(...s)).toBeLessThanOrEqual(1);
    }
  });

  it('never gives a work to a group with a judge of its school', () => {
    const gs = [group(1, ['A', 'B']), group(2, ['B', 'C']), group(3, ['C'])];
    const works = [work(1, 'A'), work(2, 'B'), work(3, 'C'), work(4, 'A'), work(5, null), work(6, 'B')];
    const result = assignWorks(works, gs);
    if (!result.ok) throw new Error('should fit');
    const schoolsOf = new Map(gs.map((g) => [g.group, g.schoolIds]));
    for (const w of works) {
      const g = result.groups.get(w.id)!;
      expect(schoolsOf.get(g)).not.toContain(w.schoolId);
    }
    // B fits only group 3, A only 2 or 3, C only 1: still two works a group.
    const s = sizes(result, gs);
    expect(s).toEqual([2, 2, 2]);
  });

  it('moves placed works to make room, keeping the split even under the own-school rule', () => {
    // Works of school X fit only group 2; the others fit anywhere. The first greedy choice would fill group 2.
    const gs = [group(1, ['X']), group(2, [])];
    const works = [work(1), work(2), work(3, 'X'), work(4, 'X')];
    const result = assignWorks(works, gs);
    if (!result.ok) throw new Error('should fit');
    expect(result.groups.get('w0003')).toBe(2);
    expect(result.groups.get('w0004')).toBe(2);
    expect(result.groups.get('w0001')).toBe(1);
    expect(result.groups.get('w0002')).toBe(1);
  });

  it('holds for random schools and groups whenever an even split exists by construction', () => {
    const random = rng(42);
    for (let round = 0; round < 60; round++) {
      const groupCount = 2 + Math.floor(random() * 5);
      const perGroup = 1 + Math.floor(random() * 6);
      // Each group has judges of one school; works of school s are made for a group that is not s's.
      const gs = Array.from({ length: groupCount }, (_, i) => group(i + 1, [`S${i}`]));
      const works: AssignableWork[] = [];
      for (let g = 0; g < groupCount; g++) {
        for (let k = 0; k < perGroup; k++) {
          const school = random() < 0.2 ? null : `S${(g + 1 + Math.floor(random() * (groupCount - 1))) % groupCount}`;
          works.push(work(works.length, school === `S${g}` ? null : school));
        }
      }
      const result = assignWorks(works, gs);
      const s = sizes(result, gs);
      expect(Math.max(...s) - Math.min(...s)).toBeLessThanOrEqual(1);
      if (result.ok) {
        for (const w of works) expect(`S${result.groups.get(w.id)! - 1}`).not.toBe(w.schoolId);
      }
    }
  });

  it('counts the works a group already has', () => {
    const gs = [group(1, [], 3), group(2, [], 0), group(3, [], 1)];
    const result = assignWorks(
      Array.from({ length: 5 }, (_, i) => work(i)),
      gs,
    );
    expect(sizes(result, gs)).toEqual([3, 3, 3]);
  });

  it('respects worksPerGroup and fails when the groups cannot hold every work', () => {
    const gs = [group(1), group(2)];
    const fits = assignWorks(
      Array.from({ length: 4 }, (_, i) => work(i)),
      gs,
      2,
    );
    expect(sizes(fits, gs)).toEqual([2, 2]);
    const over = assignWorks(
      Array.from({ length: 5 }, (_, i) => work(i)),
      gs,
      2,
    );
    expect(over.ok).toBe(false);
    if (!over.ok) expect(over.unplaced).toHaveLength(1);
  });

  it('fails for a work whose school has a judge in every group, naming it', () => {
    const result = assignWorks([work(1, 'A'), work(2, 'B')], [group(1, ['A']), group(2, ['A', 'C'])]);
    expect(result).toEqual({ ok: false, unplaced: ['w0001'] });
  });

  it('fails when the own-school rule and the limit together leave no room', () => {
    // Three works fit only group 2, which holds two.
    const result = assignWorks([work(1, 'A'), work(2, 'A'), work(3, 'A')], [group(1, ['A']), group(2, [])], 2);
    expect(result.ok).toBe(false);
  });

  it('fails with no group at all', () => {
    expect(assignWorks([work(1)], []).ok).toBe(false);
  });

  it('answers the same whatever order the works and groups come in', () => {
    const random = rng(7);
    const gs = [group(1, ['A']), group(2, ['B']), group(3, [])];
    const works = Array.from({ length: 20 }, (_, i) => work(i, ['A', 'B', null][i % 3]!));
    const first = assignWorks(works, gs);
    for (let k = 0; k < 5; k++) {
      const shuffled = [...works].sort(() => random() - 0.5);
      const again = assignWorks(shuffled, [...gs].reverse());
      expect(again).toEqual(first);
    }
  });
});
