import { describe, expect, it } from 'vitest';
import { meanScore, rankWorks, type RankableWork } from './results.ranking.js';

const at = (minute: number) => new Date(Date.UTC(2026, 10, 20, 8, minute));
const work = (id: string, score: number, minute: number, trackId = 'ai', round = 1): RankableWork => ({
  id,
  trackId,
  score,
  submittedAt: at(minute),
  round,
});
const AWARDS = [
  { name: 'Gold', count: 1 },
  { name: 'Silver', count: 2 },
];
const brief = (rows: ReturnType<typeof rankWorks>) => rows.map((r) => [r.id, r.rank, r.award]);

describe('rankWorks', () => {
  const works = [work('a', 80, 5), work('b', 90, 9), work('c', 90, 1), work('d', 70, 0), work('e', 60, 2)];

  it('breaks ties by the earlier submission', () => {
    expect(brief(rankWorks(works, 'earlierSubmission', AWARDS))).toEqual([
      ['c', 1, 'Gold'],
      ['b', 2, 'Silver'],
      ['a', 3, 'Silver'],
      ['d', 4, null],
      ['e', 5, null],
    ]);
  });

  it('ranks the works of a later round above those whose review ended earlier, whatever their scores', () => {
    const rounds = [work('a', 95, 0, 'ai', 1), work('b', 70, 1, 'ai', 2), work('c', 75, 2, 'ai', 2), work('d', 95, 3)];
    expect(brief(rankWorks(rounds, 'shared', AWARDS))).toEqual([
      ['c', 1, 'Gold'],
      ['b', 2, 'Silver'],
      ['a', 3, 'Silver'],
      ['d', 3, 'Silver'],
    ]);
  });

  it('shares ranks (1, 1, 3) and the award of a shared rank', () => {
    expect(brief(rankWorks(works, 'shared', AWARDS))).toEqual([
      ['c', 1, 'Gold'],
      ['b', 1, 'Gold'],
      ['a', 3, 'Silver'],
      ['d', 4, null],
      ['e', 5, null],
    ]);
  });

  it('ranks each track on its own and gives each its awards', () => {
    const rows = rankWorks([work('a', 50, 0, 'ai'), work('b', 40, 0, 'robots'), work('c', 70, 0, 'robots')], 'shared', [
      { name: 'Gold', count: 1 },
    ]);
    expect(brief(rows)).toEqual([
      ['a', 1, 'Gold'],
      ['c', 1, 'Gold'],
      ['b', 2, null],
    ]);
  });

  it('skips awards with no places and gives none without awards', () => {
    const rows = rankWorks(works, 'earlierSubmission', [
      { name: 'Special', count: 0 },
      { name: 'Gold', count: 1 },
    ]);
    expect(rows[0]!.award).toBe('Gold');
    expect(rows[1]!.award).toBeNull();
    expect(rankWorks(works, 'shared', []).every((r) => r.award === null)).toBe(true);
  });

  it('takes the mean of the judges’ totals, equal whatever their order', () => {
    expect(meanScore([80, 90, 85])).toBe(85);
    expect(meanScore([0.1, 0.2, 0.3])).toBe(meanScore([0.3, 0.2, 0.1]));
    const tied = rankWorks(
      [work('x', meanScore([0.1, 0.2, 0.3]), 3), work('y', meanScore([0.3, 0.2, 0.1]), 4)],
      'shared',
      [],
    );
    expect(tied.map((r) => r.rank)).toEqual([1, 1]);
  });
});
