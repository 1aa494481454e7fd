import type { TImportStarterRequest, TStarterCourse, TPage } from '@aiedu/contracts';
import {
  COURSE_API,
  type TAttempt,
  type TCentreQuery,
  type TCourseAuthorStatus,
  type TCourseCollaborator,
  type TCourseDetail,
  type TCourseFilters,
  type TCourseSummary,
  type TCourseVersion,
  type TEditableCourse,
  type TExperimentCopy,
  type TExperimentStart,
  type TLearnerSection,
  type TLearningRecord,
  type TOutlineRequest,
} from '@aiedu/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../app/api';
import { takePageData } from '../../app/page-data';
import type { TCheckResult, TTrialCheckRequest } from '@aiedu/contracts';
import type { QueryClient } from '@tanstack/react-query';

/** The calls of the course centre, the course player, the editor and the learning record. */

const B = COURSE_API.base;
export type StudyItem = TCourseSummary & { progress: number; learnerVersionNumber: number | null };

export const courseKeys = {
  all: ['course'] as const,
  detail: (id: string) => ['course', 'detail', id] as const,
  edit: (id: string) => ['course', 'edit', id] as const,
};

export function useFilters() {
  return useQuery({ queryKey: ['course', 'filters'], queryFn: () => api.get<TCourseFilters>(COURSE_API.filters) });
}

export function useCentre(query: TCentreQuery) {
  return useQuery({
    queryKey: ['course', 'centre', query],
    queryFn: () => api.get<TPage<TCourseSummary>>(COURSE_API.centre, { query: { ...query } }),
  });
}

/** Codes the pages show as their own state (closed, taken down, not found), not as a toast. */
export const COURSE_PAGE_CODES = ['4001', '4002', '1004', '4107', '4106'];

export function useCourseDetail(id: string) {
  return useQuery({
    queryKey: courseKeys.detail(id),
    queryFn: () => api.get<TCourseDetail>(`${B}/${id}`, { handledCodes: COURSE_PAGE_CODES }),
    // A visitor's course came with its page (its frame showed it): drawn at once, not asked again.
    initialData: () => takePageData<TCourseDetail>(`${B}/${id}`),
    retry: false,
  });
}

export function useLearnerSection(id: string | null) {
  return useQuery({
    queryKey: ['course', 'section', id],
    queryFn: () => api.get<TLearnerSection>(`${B}/sections/${id}/learn`, { handledCodes: COURSE_PAGE_CODES }),
    enabled: Boolean(id),
    retry: false,
  });
}

export function useEditableCourse(id: string | null) {
  return useQuery({
    queryKey: courseKeys.edit(id ?? ''),
    queryFn: () => api.get<TEditableCourse>(`${B}/${id}/edit`),
    enabled: Boolean(id),
  });
}

/** Whether the signed-in teacher may create a course, and where their certification stands. */
export function useAuthorStatus(enabled: boolean) {
  return useQuery({
    queryKey: ['course', 'author-status'],
    queryFn: () => api.get<TCourseAuthorStatus>(COURSE_API.authorStatus),
    enabled,
  });
}

export function useCourseVersions(courseId: string) {
  return useQuery({
    queryKey: ['course', 'versions', courseId],
    queryFn: () => api.get<TCourseVersion[]>(`${B}/${courseId}/versions`),
  });
}

/** Teachers the owner may add as collaborators, found by part of their username or name. */
export function useCollaboratorSearch(courseId: string, keyword: string, enabled: boolean) {
  return useQuery({
    queryKey: ['course', 'collaborator-search', courseId, keyword],
    queryFn: () => api.get<TCourseCollaborator[]>(`${B}/${courseId}/collaborators/candidates`, { query: { keyword } }),
    enabled,
    staleTime: 10_000,
  });
}

export function useMyStudy(enabled = true) {
  return useQuery({ queryKey: ['course', 'study'], queryFn: () => api.get<StudyItem[]>(COURSE_API.study), enabled });
}

export function useMyTeaching(enabled: boolean) {
  return useQuery({ queryKey: ['course', 'mine'], queryFn: () => api.get<TCourseSummary[]>(COURSE_API.mine), enabled });
}

export function useLearningRecord(id: string) {
  return useQuery({
    queryKey: ['course', 'record', id],
    queryFn: () => api.get<TLearningRecord>(`${B}/${id}/record`, { handledCodes: COURSE_PAGE_CODES }),
    retry: false,
  });
}

export const joinByCode = (code: string) => api.post<TCourseDetail>(COURSE_API.join, { code });
export const joinCourse = (id: string) => api.post<TCourseDetail>(`${B}/${id}/join`);
export const recordSection = (sectionId: string, body: { seconds?: number; completed?: boolean }) =>
  api.post<TCourseDetail>(`${B}/sections/${sectionId}/record`, body);
export const submitAttempt = (taskId: string, answers: unknown[]) =>
  api.post<TAttempt>(`${B}/tasks/${taskId}/attempts`, { answers });
/** Refusals "Start experiment" shows next to its button: removed, not joined, closed, taken down. */
const EXPERIMENT_CODES = ['4003', '4107', '4002', '4001', '1004'];
export const startExperiment = (taskId: string, questionId: string) =>
  api.post<TExperimentStart>(
    `${B}/tasks/${taskId}/experiment/start`,
    { questionId },
    { handledCodes: EXPERIMENT_CODES },
  );
export function useExperimentCopies(courseId: string) {
  return useQuery({
    queryKey: ['course', 'experiment-copies', courseId],
    queryFn: () => api.get<TExperimentCopy[]>(`${B}/${courseId}/experiment-copies`),
  });
}
export const resourceUrl = (id: string) =>
  api.get<{ url: string; downloadUrl: string; preview: boolean; mime: string; name: string; size: number }>(
    `${B}/resources/${id}/url`,
  );

/** An editor call that answers the whole editable course: the cache is replaced by the answer. */
export function useEditorMutation<V>(courseId: string, call: (vars: V) => Promise<TEditableCourse>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: (course) => {
      client.setQueryData(courseKeys.edit(courseId), course);
      void client.invalidateQueries({ queryKey: courseKeys.detail(courseId) });
    },
  });
}

export const editorCalls = {
  create: (body: object) => api.post<TEditableCourse>(B, body),
  update: (id: string, body: object) => api.put<TEditableCourse>(`${B}/${id}`, body),
  cover: (id: string, file: File) => {
    const form = new FormData();
    form.append('file', file);
    return api.put<TEditableCourse>(`${B}/${id}/cover`, form);
  },
  addChapter: (id: string, title: string) => api.post<TEditableCourse>(`${B}/${id}/chapters`, { title }),
  renameChapter: (chapterId: string, title: string) =>
    api.put<TEditableCourse>(`${B}/chapters/${chapterId}`, { title }),
  reorder: (id: string, chapters: TOutlineRequest['chapters']) =>
    api.put<TEditableCourse>(`${B}/${id}/outline`, { chapters }),
  deleteChapter: (chapterId: string) => api.delete<TEditableCourse>(`${B}/chapters/${chapterId}`),
  addSection: (chapterId: string, title: string) =>
    api.post<{ sectionId: string; course: TEditableCourse }>(`${B}/chapters/${chapterId}/sections`, { title }),
  updateSection: (sectionId: string, body: object) => api.put<TEditableCourse>(`${B}/sections/${sectionId}`, body),
  deleteSection: (sectionId: string) => api.delete<TEditableCourse>(`${B}/sections/${sectionId}`),
  addTask: (sectionId: string, body: object) => api.post<TEditableCourse>(`${B}/sections/${sectionId}/tasks`, body),
  updateTask: (taskId: string, body: object) => api.put<TEditableCourse>(`${B}/tasks/${taskId}`, body),
  reorderTasks: (sectionId: string, ids: string[]) =>
    api.put<TEditableCourse>(`${B}/sections/${sectionId}/tasks/order`, { ids }),
  deleteTask: (taskId: string) => api.delete<TEditableCourse>(`${B}/tasks/${taskId}`),
  setCollaborators: (id: string, usernames: string[]) =>
    api.put<TEditableCourse>(`${B}/${id}/collaborators`, { usernames }),
  deleteResource: (resourceId: string) => api.delete<TEditableCourse>(`${B}/resources/${resourceId}`),
  transition: (id: string, action: 'publish' | 'revision' | 'abandon-revision' | 'close') =>
    api.post<TEditableCourse>(`${B}/${id}/${action}`),
};

// Experiment checks: a learner checks their notebook, an author tries a check; both poll the run until it ends.

/** How often a running check is asked about. */
export const CHECK_POLL_MS = 1500;
/** Refusals the check buttons show next to themselves (the 1109 warning is also a toast). */
const CHECK_CODES = ['1109', '4111', '4112', '4003', '4107', '3101', '3102', '1004'];

export const checkKeys = {
  latest: (taskId: string, questionId: string) => ['course', 'check', 'latest', taskId, questionId] as const,
  one: (checkId: string) => ['course', 'check', 'one', checkId] as const,
};

export const runCheck = (taskId: string, questionId: string) =>
  api.post<TCheckResult>(`${B}/tasks/${taskId}/experiment/check`, { questionId }, { handledCodes: CHECK_CODES });
export const latestCheck = (taskId: string, questionId: string) =>
  api.get<TCheckResult | null>(`${B}/tasks/${taskId}/experiment/check`, { query: { questionId } });
export const getCheck = (checkId: string) => api.get<TCheckResult>(`${COURSE_API.checks}/${checkId}`);
export const trialCheck = (taskId: string, body: TTrialCheckRequest) =>
  api.post<TCheckResult>(`${B}/tasks/${taskId}/experiment/check-trial`, body, { handledCodes: CHECK_CODES });

/** The learner's latest check of an experiment question (null: none yet). */
export function useLatestCheck(taskId: string, questionId: string, enabled: boolean) {
  return useQuery({
    queryKey: checkKeys.latest(taskId, questionId),
    queryFn: () => latestCheck(taskId, questionId),
    enabled,
  });
}

/** A check as it is now: while it runs, it is asked about every CHECK_POLL_MS until it ends. */
export function usePolledCheck(check: TCheckResult | null | undefined): TCheckResult | null {
  const running = check?.status === 'running' ? check.id : null;
  const poll = useQuery({
    queryKey: checkKeys.one(running ?? ''),
    queryFn: () => getCheck(running!),
    enabled: running !== null,
    refetchInterval: (query) => (query.state.data && query.state.data.status !== 'running' ? false : CHECK_POLL_MS),
  });
  return running && poll.data?.id === running ? poll.data : (check ?? null);
}

/** Waits for a check to end, sharing the answers with `usePolledCheck` of the same check. */
export async function settleCheck(client: QueryClient, check: TCheckResult): Promise<TCheckResult> {
  let current = client.getQueryData<TCheckResult>(checkKeys.one(check.id)) ?? check;
  while (current.status === 'running') {
    await new Promise((resolve) => setTimeout(resolve, CHECK_POLL_MS));
    current = await client.fetchQuery({
      queryKey: checkKeys.one(check.id),
      queryFn: () => getCheck(check.id),
      staleTime: CHECK_POLL_MS / 2,
    });
  }
  return current;
}

// Starter courses: the courses shipped with the platform, which institution administrators import as their own.

export const starterKeys = { all: ['course', 'starter'] as const };

/** The starter courses, with the copies the caller's institution imported already. */
export function useStarterCourses(enabled: boolean) {
  return useQuery({
    queryKey: starterKeys.all,
    queryFn: () => api.get<TStarterCourse[]>(COURSE_API.starter),
    enabled,
  });
}

/** Imports a starter course in one language: a published course of the caller's institution, owned by the caller. */
export const importStarterCourse = (body: TImportStarterRequest) =>
  api.post<{ courseId: string }>(`${COURSE_API.starter}/import`, body);
