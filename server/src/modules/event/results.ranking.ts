import type { TEventAward, TieRule } from '@aiedu/contracts';

/**
 * The ranking of one track's audited works: by the last review round reached (a work of the final round above one
 * whose review ended earlier), then by that round's score, highest first. Ties go to the earlier submission
 * (`earlierSubmission`: every rank distinct), or share a rank and skip the next (`shared`: 1, 1, 3). Awards are
 * given from the top in their order, each to the next `count` ranks, so works sharing a rank share its award.
 */

export interface RankableWork {
  id: string;
  trackId: string;
  score: number;
  submittedAt: Date;
  /** The last review round the work reached. */
  round: number;
}

export interface RankedWork extends RankableWork {
  rank: number;
  award: string | null;
}

/** Scores compared at four decimals, so means of the same marks in another order count as equal. */
export const roundScore = (score: number) => Math.round(score * 10_000) / 10_000;

/** A work's score: the mean of its judges' totals. */
export function meanScore(totals: number[]): number {
  if (totals.length === 0) return 0;
  return roundScore(totals.reduce((a, b) => a + b, 0) / totals.length);
}

function awardFor(rank: number, awards: readonly TEventAward[]): string | null {
  let upTo = 0;
  for (const award of awards) {
    upTo += award.count;
    if (rank <= upTo) return award.name;
  }
  return null;
}

export function rankWorks(
  works: readonly RankableWork[],
  tieRule: TieRule,
  awards: readonly TEventAward[],
): RankedWork[] {
  const tracks = [...new Set(works.map((w) => w.trackId))].sort();
  const out: RankedWork[] = [];
  for (const track of tracks) {
    const sorted = works
      .filter((w) => w.trackId === track)
      .map((w) => ({ ...w, score: roundScore(w.score) }))
      .sort(
        (a, b) =>
          b.round - a.round ||
          b.score - a.score ||
          a.submittedAt.getTime() - b.submittedAt.getTime() ||
          (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
      );
    sorted.forEach((work, i) => {
      const previous = out[out.length - 1];
      const rank =
        tieRule === 'shared' && i > 0 && previous && previous.score === work.score && previous.round === work.round
          ? previous.rank
          : i + 1;
      out.push({ ...work, rank, award: awardFor(rank, awards) });
    });
  }
  return out;
}
