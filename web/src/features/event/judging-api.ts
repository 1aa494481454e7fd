import { EVENT_API, type TJudgingItem, type TSaveScore, type TScore } from '@aiedu/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../app/api';

/** The calls of a judge: the works given to them and their scores. */

/** Refusals the score form shows itself: the score is final (4506), not a judge of this work (4507). */
export const JUDGING_CODES = ['1001', '4503', '4506', '4507'];

export function useJudging(eventId: string) {
  return useQuery({
    queryKey: [EVENT_API.judging, eventId],
    queryFn: () => api.get<TJudgingItem[]>(EVENT_API.judging, { query: { eventId }, handledCodes: ['4507'] }),
  });
}

export const judgingCalls = {
  save: (body: TSaveScore) => api.put<TScore>(EVENT_API.score, body, { handledCodes: JUDGING_CODES }),
  submit: (body: TSaveScore) => api.post<TScore>(EVENT_API.scoreSubmit, body, { handledCodes: JUDGING_CODES }),
};

export function useScoreMutation(call: (body: TSaveScore) => Promise<TScore>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: () => client.invalidateQueries({ queryKey: [EVENT_API.judging] }),
  });
}

/** The weighted total of criterion scores: Σ(score × weight) / Σ weight, to two decimals; null until all are given. */
export function weightedTotal(
  criteria: readonly { id: string; weight: number }[],
  scores: Record<string, number | null | undefined>,
): number | null {
  let sum = 0;
  let weights = 0;
  for (const c of criteria) {
    const score = scores[c.id];
    if (typeof score !== 'number') return null;
    sum += score * c.weight;
    weights += c.weight;
  }
  return weights > 0 ? Math.round((sum / weights) * 100) / 100 : null;
}
