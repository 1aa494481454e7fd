import { describe, expect, it } from 'vitest';
import { rankLadder, type PersonalBest } from './ladder.service.js';

const at = (minute: number) => new Date(Date.UTC(2026, 10, 22, 1, minute));
const best = (registrationId: string, score: number, minute: number, runs = 1): PersonalBest => ({
  registrationId,
  best: score,
  bestAt: at(minute),
  runs,
});

describe('the ladder by personal best', () => {
  const bests = [best('a', 0.7, 1), best('b', 0.9, 5), best('c', 0.8, 2), best('d', 0.9, 3)];

  it('puts the largest best first where higher is better, a tie to the team that reached it earlier', () => {
    expect(rankLadder(bests, true).map((r) => [r.rank, r.registrationId])).toEqual([
      [1, 'd'],
      [2, 'b'],
      [3, 'c'],
      [4, 'a'],
    ]);
  });

  it('puts the smallest best first where lower is better, with the same tie rule', () => {
    const errors = [...bests, best('e', 0.7, 0)];
    expect(rankLadder(errors, false).map((r) => r.registrationId)).toEqual(['e', 'a', 'c', 'd', 'b']);
  });

  it('shows the top 50 only', () => {
    const many = Array.from({ length: 60 }, (_, i) => best(`t${String(i).padStart(2, '0')}`, i, i));
    const ladder = rankLadder(many, true);
    expect(ladder).toHaveLength(50);
    expect(ladder[0]).toMatchObject({ rank: 1, registrationId: 't59', best: 59 });
    expect(ladder.at(-1)).toMatchObject({ rank: 50, registrationId: 't10' });
  });
});
