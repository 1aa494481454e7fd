import {
  EVENT_API,
  type TEventCertificates,
  type TEventRunsPage,
  type EventRunState,
  type TEventResults,
  type TEventImage,
  type TJudge,
  type TAddJudge,
  type TReviewProgress,
  type TReviewSettings,
  type TReviewSettingsView,
  type TWork,
  type TWorkAuditDecision,
  type WorkState,
  type ZCloseRoundResult,
  type ZEventCertificatesResult,
} from '@aiedu/contracts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { api } from '../../app/api';

/** The calls of the organisers' review management: works audit, settings, judges, assignment, results, certificates. */

/** Refusals shown next to the action that met them (the server's words). */
export const REVIEW_CODES = ['1001', '4501', '4503', '4509', '4510', '4511', '4512', '4513'];

export interface WorkPage {
  list: TWork[];
  total: number;
  page: number;
  size: number;
}
export type TEventCertificatesResult = z.infer<typeof ZEventCertificatesResult>;
export type TCloseRoundResult = z.infer<typeof ZCloseRoundResult>;

export function useWorkAdmin(
  eventId: string,
  query: { page: number; size: number; state?: WorkState; trackId?: string; keyword?: string },
) {
  return useQuery({
    queryKey: [EVENT_API.workAdmin, eventId, query],
    queryFn: () => api.get<WorkPage>(EVENT_API.workAdmin, { query: { eventId, ...query } }),
    placeholderData: keepPreviousData,
  });
}

export function useReviewSettings(eventId: string) {
  return useQuery({
    queryKey: [EVENT_API.reviewSettings, eventId],
    queryFn: () => api.get<TReviewSettingsView | null>(EVENT_API.reviewSettings, { query: { eventId } }),
  });
}

export function useJudges(eventId: string) {
  return useQuery({
    queryKey: [EVENT_API.judges, eventId],
    queryFn: () => api.get<TJudge[]>(EVENT_API.judges, { query: { eventId } }),
  });
}

/** One round's groups (the round being judged when `round` is not given); the last answer stays while another loads. */
export function useReviewProgress(eventId: string, round?: number, enabled = true) {
  return useQuery({
    queryKey: [EVENT_API.progress, eventId, round ?? 'current'],
    queryFn: () => api.get<TReviewProgress>(EVENT_API.progress, { query: { eventId, round } }),
    placeholderData: keepPreviousData,
    enabled,
  });
}

export function useResults(eventId: string, enabled: boolean) {
  return useQuery({
    queryKey: [EVENT_API.results, eventId],
    queryFn: () => api.get<TEventResults | null>(EVENT_API.results, { query: { eventId }, handledCodes: ['1004'] }),
    enabled,
  });
}

export const reviewCalls = {
  audit: (body: TWorkAuditDecision) => api.post<null>(EVENT_API.workAudit, body, { handledCodes: REVIEW_CODES }),
  saveSettings: ({ eventId, settings }: { eventId: string; settings: TReviewSettings }) =>
    api.put<TReviewSettingsView>(EVENT_API.reviewSettings, settings, {
      query: { eventId },
      handledCodes: REVIEW_CODES,
    }),
  uploadFile: ({ eventId, kind, file }: { eventId: string; kind: 'manual' | 'sheet'; file: File }) => {
    const form = new FormData();
    form.append('file', file);
    return api.post<TEventImage>(EVENT_API.uploadReviewFile, form, { query: { eventId, kind } });
  },
  addJudge: (body: TAddJudge) => api.post<TJudge>(EVENT_API.judges, body, { handledCodes: REVIEW_CODES }),
  removeJudge: (judgeId: string) => api.delete<null>(EVENT_API.judges, { query: { judgeId } }),
  assign: (eventId: string) =>
    api.post<TReviewProgress>(EVENT_API.assign, undefined, { query: { eventId }, handledCodes: REVIEW_CODES }),
  closeRound: (eventId: string) =>
    api.post<TCloseRoundResult>(EVENT_API.closeRound, { eventId }, { handledCodes: REVIEW_CODES }),
  reopen: ({ scoreId, reason }: { scoreId: string; reason: string }) =>
    api.put<null>(EVENT_API.reopenScore, { reason }, { query: { scoreId }, handledCodes: REVIEW_CODES }),
  publish: (eventId: string) => api.post<TEventResults>(EVENT_API.results, { eventId }, { handledCodes: REVIEW_CODES }),
  certificates: (body: TEventCertificates) =>
    api.post<TEventCertificatesResult>(EVENT_API.certificates, body, { handledCodes: REVIEW_CODES }),
  evaluation: ({
    eventId,
    trackId,
    script,
    answers,
  }: {
    eventId: string;
    trackId: string;
    script: File;
    answers: File;
  }) => {
    const form = new FormData();
    form.append('script', script);
    form.append('answers', answers);
    return api.put<null>(EVENT_API.evaluation, form, { query: { eventId, trackId }, handledCodes: REVIEW_CODES });
  },
};

/** Every review read of the event is read again after a change. */
const REVIEW_KEYS = [
  EVENT_API.workAdmin,
  EVENT_API.reviewSettings,
  EVENT_API.judges,
  EVENT_API.progress,
  EVENT_API.results,
  EVENT_API.detail,
];

export function useReviewMutation<V, R>(call: (vars: V) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: async () => {
      await Promise.all(REVIEW_KEYS.map((key) => client.invalidateQueries({ queryKey: [key] })));
    },
  });
}

/** Every team's runs of an auto-scored track (organisers); refreshed while some wait or run. */
export function useAllRuns(query: {
  eventId: string;
  trackId: string;
  state?: EventRunState;
  page: number;
  size: number;
}) {
  return useQuery({
    queryKey: [EVENT_API.runsAll, query],
    queryFn: () => api.get<TEventRunsPage>(EVENT_API.runsAll, { query }),
    placeholderData: keepPreviousData,
    refetchInterval: (q) =>
      q.state.data && q.state.data.counts.queued + q.state.data.counts.running > 0 ? 5000 : false,
  });
}
