import {
  API,
  EVENT_API,
  projectApi,
  type TEventImage,
  type TFileNode,
  type TProject,
  type TRegistration,
  type TRunsView,
  type TSaveWork,
  type TUpdateWork,
  type TWork,
} from '@aiedu/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../app/api';
import { ApiError } from '../../app/api-client';

/** The calls of a team's works and of its runs on an auto-scored track. */

/** Refusals the works screen shows in its own words: deadline passed (4501), wrong state, not qualified, daily limit. */
export const WORK_CODES = ['1001', '4501', '4503', '4508', '4513', '4514'];

export const refusalCode = (error: unknown): string | undefined => (error instanceof ApiError ? error.code : undefined);

export function useWorks(eventId: string) {
  return useQuery({
    queryKey: [EVENT_API.works, eventId],
    queryFn: () => api.get<TWork[]>(EVENT_API.works, { query: { eventId } }),
  });
}

const byWork = (path: string) => (workId: string) =>
  api.put<TWork>(path, undefined, { query: { workId }, handledCodes: WORK_CODES });

export const workCalls = {
  create: (body: TSaveWork) => api.post<TWork>(EVENT_API.works, body, { handledCodes: WORK_CODES }),
  update: (body: TUpdateWork) => api.put<TWork>(EVENT_API.works, body, { handledCodes: WORK_CODES }),
  submit: byWork(EVENT_API.workSubmit),
  recall: byWork(EVENT_API.workRecall),
  withdraw: byWork(EVENT_API.workWithdraw),
  uploadCover: (file: File) => {
    const form = new FormData();
    form.append('file', file);
    return api.post<TEventImage>(EVENT_API.uploadWorkCover, form);
  },
  /** The video of a work with the caller's token, to play from a local address. */
  video: (workId: string) => api.download(EVENT_API.workVideo, { query: { workId } }),
};

/** A change to a work: the team's works, the event (its work count) and "my contests" are read again. */
export function useWorkMutation<V, R>(call: (vars: V) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: async () => {
      await Promise.all(
        [EVENT_API.works, EVENT_API.detail, EVENT_API.mine].map((key) => client.invalidateQueries({ queryKey: [key] })),
      );
    },
  });
}

/** The caller's own projects, to attach one to a work. */
export function useMyProjects(enabled: boolean) {
  return useQuery({
    queryKey: ['projects', 'mine', { page: 1, size: 100 }],
    queryFn: () => api.get<{ list: TProject[]; total: number }>(API.myProjects, { query: { page: 1, size: 100 } }),
    enabled,
  });
}

/** The files of a project, as paths, to send one as predictions. */
export function useProjectFiles(projectId: string | undefined) {
  return useQuery({
    queryKey: ['projects', 'files', projectId],
    queryFn: () => api.get<TFileNode[]>(projectApi(projectId!).files),
    enabled: Boolean(projectId),
    select: (nodes) => flattenFiles(nodes),
  });
}

export function flattenFiles(nodes: TFileNode[]): string[] {
  return nodes.flatMap((node) => (node.kind === 'file' ? [node.path] : flattenFiles(node.children ?? [])));
}

/** A team's runs on an auto-scored track, polled while one is queued or running. */
export function useRuns(eventId: string, trackId: string) {
  return useQuery({
    queryKey: [EVENT_API.runs, eventId, trackId],
    queryFn: () => api.get<TRunsView>(EVENT_API.runs, { query: { eventId, trackId } }),
    refetchInterval: (query) =>
      query.state.data?.runs.some((r) => r.state === 'queued' || r.state === 'running') ? 5000 : false,
  });
}

export const runCalls = {
  upload: ({ eventId, trackId, file }: { eventId: string; trackId: string; file: File }) => {
    const form = new FormData();
    form.append('file', file);
    return api.post<unknown>(EVENT_API.runs, form, { query: { eventId, trackId }, handledCodes: WORK_CODES });
  },
  fromProject: ({
    eventId,
    trackId,
    projectId,
    path,
  }: {
    eventId: string;
    trackId: string;
    projectId: string;
    path: string;
  }) =>
    api.post<unknown>(EVENT_API.runs, { projectId, path }, { query: { eventId, trackId }, handledCodes: WORK_CODES }),
  cancel: (runId: string) => api.put<unknown>(EVENT_API.runCancel, undefined, { query: { runId } }),
};

export function useRunMutation<V>(call: (vars: V) => Promise<unknown>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: () => client.invalidateQueries({ queryKey: [EVENT_API.runs] }),
  });
}

/** The caller's team registration, for its track. */
export function useTeamRegistration(eventId: string) {
  return useQuery({
    queryKey: [EVENT_API.registration, eventId],
    queryFn: () => api.get<TRegistration | null>(EVENT_API.registration, { query: { eventId } }),
  });
}
