import {
  SCHEDULE_API,
  scheduleApi,
  scheduleTaskApi,
  type TCreateScheduleRequest,
  type TMyScheduleItem,
  type TScheduleDetail,
  type TScheduleOptions,
  type TScheduleStatistics,
  type TScheduleStudent,
  type TScheduleStudentOption,
  type TScheduleSubmission,
  type TScheduleTask,
  type TScoreRequest,
  type TTeachableCourse,
  type TTeachingStatistics,
  type TUpdateScheduleRequest,
} from '@aiedu/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../app/api';
import { saveFile } from '../../ui/save-file';

/** The calls of the teaching schedule screens. */

export const scheduleKeys = {
  all: ['schedule'] as const,
  detail: (id: string) => ['schedule', 'detail', id] as const,
  tasks: (id: string) => ['schedule', 'tasks', id] as const,
  submissions: (taskId: string) => ['schedule', 'submissions', taskId] as const,
};

/** Codes the schedule pages show as their own state rather than as a toast: not found (or not theirs). */
const PAGE_CODES = ['1004'];

export function useScheduleDetail(id: string) {
  return useQuery({
    queryKey: scheduleKeys.detail(id),
    queryFn: () => api.get<TScheduleDetail>(scheduleApi(id).base, { handledCodes: PAGE_CODES }),
    retry: false,
  });
}

export function useScheduleTasks(id: string) {
  return useQuery({
    queryKey: scheduleKeys.tasks(id),
    queryFn: () => api.get<TScheduleTask[]>(scheduleApi(id).tasks),
  });
}

export function useSubmissions(scheduleTaskId: string | null) {
  return useQuery({
    queryKey: scheduleKeys.submissions(scheduleTaskId ?? ''),
    queryFn: () => api.get<TScheduleSubmission[]>(scheduleTaskApi(scheduleTaskId!).submissions),
    enabled: Boolean(scheduleTaskId),
  });
}

export function useScheduleStudents(id: string) {
  return useQuery({
    queryKey: ['schedule', 'students', id],
    queryFn: () => api.get<TScheduleStudent[]>(scheduleApi(id).students, { handledCodes: PAGE_CODES }),
    retry: false,
  });
}

export function useScheduleStatistics(id: string) {
  return useQuery({
    queryKey: ['schedule', 'statistics', id],
    queryFn: () => api.get<TScheduleStatistics>(scheduleApi(id).statistics),
  });
}

export function useMySchedules(enabled = true) {
  return useQuery({
    queryKey: ['schedule', 'study'],
    queryFn: () => api.get<TMyScheduleItem[]>(SCHEDULE_API.study),
    enabled,
  });
}

export function useScheduleOptions(enabled: boolean) {
  return useQuery({
    queryKey: ['schedule', 'options'],
    queryFn: () => api.get<TScheduleOptions>(SCHEDULE_API.options),
    enabled,
    staleTime: 60_000,
  });
}

export function useCourseOptions(keyword: string, enabled: boolean) {
  return useQuery({
    queryKey: ['schedule', 'course-options', keyword],
    queryFn: () => api.get<TTeachableCourse[]>(SCHEDULE_API.courseOptions, { query: { keyword } }),
    enabled,
    staleTime: 10_000,
  });
}

export function useStudentOptions(keyword: string, enabled: boolean) {
  return useQuery({
    queryKey: ['schedule', 'student-options', keyword],
    queryFn: () => api.get<TScheduleStudentOption[]>(SCHEDULE_API.studentOptions, { query: { keyword } }),
    enabled,
    staleTime: 10_000,
  });
}

export function useTeachingStatistics(days: number) {
  return useQuery({
    queryKey: ['schedule', 'teaching-statistics', days],
    queryFn: () => api.get<TTeachingStatistics>(SCHEDULE_API.statistics, { query: { days } }),
  });
}

export const scheduleCalls = {
  create: (body: TCreateScheduleRequest) => api.post<TScheduleDetail>(SCHEDULE_API.base, body),
  update: (id: string, body: TUpdateScheduleRequest) => api.put<TScheduleDetail>(scheduleApi(id).base, body),
  move: (id: string, action: 'start' | 'finish') => api.post<TScheduleDetail>(scheduleApi(id)[action]),
  remove: (id: string) => api.delete<null>(scheduleApi(id).base),
  assign: (id: string, body: { taskId: string; dueAt: string | null }) =>
    api.post<TScheduleTask[]>(scheduleApi(id).tasks, body),
  changeDue: (taskId: string, dueAt: string | null) =>
    api.put<TScheduleTask[]>(scheduleTaskApi(taskId).base, { dueAt }),
  unassign: (taskId: string) => api.delete<TScheduleTask[]>(scheduleTaskApi(taskId).base),
  reopen: (taskId: string, body: { userId: string; dueAt: string | null }) =>
    api.post<null>(scheduleTaskApi(taskId).reopen, body),
  score: (taskId: string, scores: TScoreRequest['scores']) =>
    api.put<TScheduleSubmission[]>(scheduleTaskApi(taskId).scores, { scores }),
  exportStudents: async (id: string, fileName: string) =>
    saveFile(await api.download(scheduleApi(id).studentsExport), fileName),
};

/** A change of a schedule: once done, every schedule query is read again (lists, detail, tasks, statistics). */
export function useScheduleMutation<V, R>(call: (vars: V) => Promise<R>, onDone?: (result: R) => void) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: async (result) => {
      await client.invalidateQueries({ queryKey: scheduleKeys.all });
      onDone?.(result);
    },
  });
}
