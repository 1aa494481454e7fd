import {
  API,
  COURSE_API,
  GROUP_API,
  groupApi,
  type GroupRequestState,
  type GroupScope,
  type TAddGroupMembersResult,
  type TBatchRegisterResult,
  type TBatchRegisterRow,
  type TCourseSummary,
  type TCreateGroupRequest,
  type TGroup,
  type TGroupCourse,
  type TGroupDetail,
  type TGroupInvitation,
  type TGroupJoinRequest,
  type TGroupMember,
  type TGroupProject,
  type TJoinGroupResult,
  type TMyGroupJoinRequest,
  type TProject,
  type TUpdateGroupRequest,
  type TPage,
} from '@aiedu/contracts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../app/api';
import { saveFile } from '../../ui/save-file';

/** The calls of the group screens. */

export interface PageQuery {
  page: number;
  size: number;
  keyword?: string;
}

export const groupKeys = {
  all: ['group'] as const,
  list: (scope: GroupScope, query: PageQuery) => ['group', 'list', scope, query] as const,
  detail: (id: string) => ['group', 'detail', id] as const,
  part: (id: string, part: string, query?: object) => ['group', 'part', id, part, query] as const,
  myRequests: ['group', 'my-requests'] as const,
};

/** Not found (or not visible to the caller) and dismissed: the group pages say so as their own state. */
const PAGE_CODES = ['1004', '6004'];
/** Refusals a form shows beside its fields rather than as a toast. */
export const JOIN_CODES = ['6001', '6002', '6003', '6004'];
export const ADD_MEMBER_CODES = ['6006'];
export const BATCH_CODES = ['6007', '6008'];

export function useGroupList(scope: GroupScope, query: PageQuery) {
  return useQuery({
    queryKey: groupKeys.list(scope, query),
    queryFn: () => api.get<TPage<TGroup>>(GROUP_API.base, { query: { scope, ...query } }),
    placeholderData: keepPreviousData,
  });
}

export function useGroupDetail(id: string) {
  return useQuery({
    queryKey: groupKeys.detail(id),
    queryFn: () => api.get<TGroupDetail>(groupApi(id).base, { handledCodes: PAGE_CODES }),
    retry: false,
  });
}

/** One paged list of a group (members, projects, courses, requests). */
function useGroupPart<T>(id: string, part: string, path: string, query: object, enabled = true) {
  return useQuery({
    queryKey: groupKeys.part(id, part, query),
    queryFn: () => api.get<TPage<T>>(path, { query: query as Record<string, string | number | undefined> }),
    placeholderData: keepPreviousData,
    enabled,
  });
}

export const useGroupMembers = (id: string, query: PageQuery) =>
  useGroupPart<TGroupMember>(id, 'members', groupApi(id).members, query);
export const useGroupProjects = (id: string, query: PageQuery) =>
  useGroupPart<TGroupProject>(id, 'projects', groupApi(id).projects, query);
export const useGroupCourses = (id: string, query: PageQuery) =>
  useGroupPart<TGroupCourse>(id, 'courses', groupApi(id).courses, query);
export const useJoinRequests = (id: string, query: PageQuery & { state: GroupRequestState }) =>
  useGroupPart<TGroupJoinRequest>(id, 'requests', groupApi(id).requests, query);

export function useMyJoinRequests(enabled: boolean) {
  return useQuery({
    queryKey: groupKeys.myRequests,
    queryFn: () => api.get<TPage<TMyGroupJoinRequest>>(GROUP_API.myRequests, { query: { page: 1, size: 50 } }),
    enabled,
  });
}

/** The caller's own projects, to share one with a group. */
export function useMyProjects(keyword: string, enabled: boolean) {
  return useQuery({
    queryKey: ['group', 'my-projects', keyword],
    queryFn: () =>
      api.get<TPage<TProject>>(API.myProjects, {
        query: { page: 1, size: 50, keyword: keyword || undefined, sort: 'updatedAt,desc' },
      }),
    enabled,
    staleTime: 10_000,
  });
}

/** The courses the caller authors, to share one with a group. */
export function useMyCourses(enabled: boolean) {
  return useQuery({
    queryKey: ['group', 'my-courses'],
    queryFn: () => api.get<TCourseSummary[]>(COURSE_API.mine),
    enabled,
    staleTime: 10_000,
  });
}

export const groupCalls = {
  create: (body: TCreateGroupRequest) => api.post<TGroupDetail>(GROUP_API.base, body),
  update: (id: string, body: TUpdateGroupRequest) => api.put<TGroupDetail>(groupApi(id).base, body),
  cover: (id: string, file: File) => {
    const form = new FormData();
    form.append('file', file);
    return api.put<TGroupDetail>(groupApi(id).cover, form);
  },
  dismiss: (id: string) => api.delete<null>(groupApi(id).base),
  quit: (id: string) => api.post<null>(groupApi(id).quit),
  join: (code: string) => api.post<TJoinGroupResult>(GROUP_API.join, { code }, { handledCodes: JOIN_CODES }),
  addMembers: (id: string, usernames: string[]) =>
    api.post<TAddGroupMembersResult>(groupApi(id).members, { usernames }, { handledCodes: ADD_MEMBER_CODES }),
  removeMember: (id: string, userId: string) => api.delete<null>(groupApi(id).member(userId)),
  setInvitation: (id: string, enabled: boolean) => api.put<TGroupInvitation>(groupApi(id).invitation, { enabled }),
  resetInvitation: (id: string) => api.post<TGroupInvitation>(groupApi(id).invitationReset),
  approve: (id: string, requestId: string) => api.post<null>(groupApi(id).approve(requestId)),
  refuse: (id: string, requestId: string, reason: string) => api.post<null>(groupApi(id).refuse(requestId), { reason }),
  batchRegister: (id: string, rows: TBatchRegisterRow[], dryRun: boolean) =>
    api.post<TBatchRegisterResult>(groupApi(id).batchRegister, { rows, dryRun }, { handledCodes: BATCH_CODES }),
  batchRegisterXlsx: (id: string, file: File, dryRun: boolean) => {
    const form = new FormData();
    form.append('file', file);
    return api.post<TBatchRegisterResult>(groupApi(id).batchRegisterXlsx, form, {
      query: { dryRun: String(dryRun) },
      handledCodes: BATCH_CODES,
    });
  },
  template: async (fileName: string) => saveFile(await api.download(GROUP_API.batchTemplate), fileName),
  shareProject: (id: string, projectId: string) => api.post<null>(groupApi(id).projects, { projectId }),
  unshareProject: (id: string, projectId: string) => api.delete<null>(groupApi(id).project(projectId)),
  shareCourse: (id: string, courseId: string) => api.post<null>(groupApi(id).courses, { courseId }),
  unshareCourse: (id: string, courseId: string) => api.delete<null>(groupApi(id).course(courseId)),
};

/** A change to groups: once done, every group query is read again (lists, the detail and its parts). */
export function useGroupMutation<V, R>(call: (vars: V) => Promise<R>, onDone?: (result: R, vars: V) => void) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: async (result, vars) => {
      await client.invalidateQueries({ queryKey: groupKeys.all });
      onDone?.(result, vars);
    },
  });
}
