import {
  API,
  projectApi,
  type TCollaborator,
  type TComputeBalance,
  type TCreateProjectRequest,
  type TFileChange,
  type TFileNode,
  type TPackage,
  type TPackageOperation,
  type TProject,
  type TProjectListParams,
  type TProjectVersion,
  type TRuntimeAvailability,
  type TRuntimeStatus,
  type TStorageUsage,
  type TUpdateProjectRequest,
  type TPage,
} from '@aiedu/contracts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../app/api';

export const projectKeys = {
  all: ['projects'] as const,
  list: (scope: 'public' | 'mine', query: TProjectListParams) => ['projects', scope, query] as const,
  one: (id: string) => ['projects', 'one', id] as const,
  files: (id: string) => ['projects', 'files', id] as const,
  runtime: (id: string) => ['projects', 'runtime', id] as const,
  versions: (id: string) => ['projects', 'versions', id] as const,
  packages: (id: string) => ['projects', 'packages', id] as const,
  storage: (id: string) => ['projects', 'storage', id] as const,
  operations: (id: string) => ['projects', 'operations', id] as const,
  balances: ['projects', 'balances'] as const,
};

export function useProjectList(scope: 'public' | 'mine', query: TProjectListParams, enabled = true) {
  return useQuery({
    queryKey: projectKeys.list(scope, query),
    queryFn: () =>
      api.request<TPage<TProject>>(scope === 'mine' ? API.myProjects : API.projects, {
        query: query as Record<string, string | number | undefined>,
      }),
    placeholderData: keepPreviousData,
    enabled,
  });
}

export function useProject(id: string) {
  return useQuery({ queryKey: projectKeys.one(id), queryFn: () => api.request<TProject>(projectApi(id).base) });
}

export const createProject = (body: TCreateProjectRequest) =>
  api.request<TProject>(API.projects, { method: 'POST', body, handledCodes: ['3015'] });
export const updateProject = (id: string, body: TUpdateProjectRequest) =>
  api.request<TProject>(projectApi(id).base, { method: 'PUT', body, handledCodes: ['3015', '3103'] });
export const forkProject = (id: string) => api.request<TProject>(projectApi(id).fork, { method: 'POST' });
export function useCollaborators(id: string) {
  return useQuery({
    queryKey: ['projects', 'collaborators', id],
    queryFn: () => api.request<TCollaborator[]>(projectApi(id).collaborators),
  });
}

export const setCollaborators = (id: string, usernames: string[]) =>
  api.request<TCollaborator[]>(projectApi(id).collaborators, { method: 'PUT', body: { usernames } });

export function useFileTree(id: string) {
  return useQuery({ queryKey: projectKeys.files(id), queryFn: () => api.request<TFileNode[]>(projectApi(id).files) });
}

export const files = {
  create: (id: string, folder: string, name: string, kind: 'file' | 'folder') =>
    api.request<{ path: string }>(projectApi(id).files, { method: 'POST', body: { folder, name, kind } }),
  rename: (id: string, path: string, name: string) =>
    api.request<null>(projectApi(id).fileRename, { method: 'PUT', body: { path, name } }),
  move: (id: string, path: string, toFolder: string) =>
    api.request<null>(projectApi(id).fileMove, { method: 'PUT', body: { path, toFolder } }),
  copy: (id: string, path: string, toFolder?: string) =>
    api.request<{ path: string }>(projectApi(id).fileCopy, { method: 'POST', body: { path, toFolder } }),
  remove: (id: string, path: string) => api.request<null>(projectApi(id).files, { method: 'DELETE', query: { path } }),
  read: (id: string, path: string) =>
    api.request<{ content: string; size: number }>(projectApi(id).fileContent, {
      query: { path },
      handledCodes: ['3107'],
    }),
  save: (id: string, path: string, content: string) =>
    api.request<null>(projectApi(id).fileContent, { method: 'PUT', body: { path, content } }),
  blob: (id: string, path: string) =>
    api.request<Blob>(projectApi(id).fileDownload, { query: { path }, responseType: 'blob' }),
};

/** The storage the project's owner's projects take against the owner's quota (shown under the file tree). */
export function useProjectStorage(id: string, enabled: boolean) {
  return useQuery({
    queryKey: projectKeys.storage(id),
    queryFn: () => api.request<TStorageUsage>(projectApi(id).storage),
    enabled,
  });
}

export function useRuntime(id: string) {
  return useQuery({
    queryKey: projectKeys.runtime(id),
    queryFn: () => api.request<TRuntimeStatus>(projectApi(id).runtime),
    // The state changes on the server (idle stop, balance run out): keep it live.
    refetchInterval: (query) => (['BOOTING', 'STOPPING'].includes(query.state.data?.state ?? '') ? 1000 : 15_000),
  });
}

const RUNTIME_AVAILABILITY_KEY = ['runtime', 'availability'];

export function useRuntimeAvailability() {
  return useQuery({
    queryKey: RUNTIME_AVAILABILITY_KEY,
    queryFn: () => api.request<TRuntimeAvailability>(API.runtimeAvailability),
    // An installation shows its progress; a full disk is looked at again until space is freed.
    refetchInterval: (query) =>
      query.state.data?.state === 'installing' || query.state.data?.ai?.state === 'installing'
        ? 3000
        : query.state.data?.diskFull
          ? 30_000
          : false,
  });
}

export function useRuntimeActions(id: string) {
  const client = useQueryClient();
  const update = (status: TRuntimeStatus) => client.setQueryData(projectKeys.runtime(id), status);
  const start = useMutation({
    mutationFn: () =>
      api.request<TRuntimeStatus>(projectApi(id).runtimeStart, {
        method: 'POST',
        body: {},
        // The top bar shows each refusal with what to do about it: no toast besides.
        handledCodes: ['3004', '3005', '3108', '3110', '3101', '3102', '2003'],
      }),
    onMutate: () =>
      client.setQueryData<TRuntimeStatus>(projectKeys.runtime(id), (s) => (s ? { ...s, state: 'BOOTING' } : s)),
    onSuccess: update,
    onError: () => {
      void client.invalidateQueries({ queryKey: projectKeys.runtime(id) });
      // A start may have begun installing the packages it needs (3102): the banner follows the installation.
      void client.invalidateQueries({ queryKey: RUNTIME_AVAILABILITY_KEY });
    },
  });
  const stop = useMutation({
    mutationFn: () => api.request<TRuntimeStatus>(projectApi(id).runtimeStop, { method: 'POST' }),
    onMutate: () =>
      client.setQueryData<TRuntimeStatus>(projectKeys.runtime(id), (s) => (s ? { ...s, state: 'STOPPING' } : s)),
    onSuccess: update,
  });
  return { start, stop };
}

export type { TComputeBalance, TFileChange, TPackageOperation, TProjectVersion };

/** The caller's weekly compute balance on each container type their customer offers. */
export function useComputeBalances() {
  return useQuery({
    queryKey: projectKeys.balances,
    queryFn: () => api.request<TComputeBalance[]>(API.computeBalance),
  });
}

export function useVersions(id: string) {
  return useQuery({
    queryKey: projectKeys.versions(id),
    queryFn: () => api.request<TProjectVersion[]>(projectApi(id).versions),
  });
}

export const versions = {
  create: (id: string, body: { major: number; minor: number; revision: number; description: string }) =>
    api.request<TProjectVersion>(projectApi(id).versions, { method: 'POST', body, handledCodes: ['3104'] }),
  restore: (id: string, versionId: string) =>
    api.request<null>(projectApi(id).restore, { method: 'POST', body: { versionId } }),
  compare: (id: string, from: string, to: string) =>
    api.request<TFileChange[]>(projectApi(id).compare, { query: { from, to } }),
};

export function usePackages(id: string, enabled: boolean) {
  return useQuery({
    queryKey: projectKeys.packages(id),
    queryFn: () => api.request<TPackage[]>(projectApi(id).packages),
    enabled,
  });
}

export function usePackageOperations(id: string, enabled: boolean) {
  return useQuery({
    queryKey: projectKeys.operations(id),
    queryFn: () => api.request<TPackageOperation[]>(projectApi(id).packageOperations),
    enabled,
    refetchInterval: (query) =>
      query.state.data?.some((o) => ['init', 'waiting', 'installing', 'uninstalling'].includes(o.state)) ? 1500 : false,
  });
}

export const packages = {
  run: (id: string, kind: 'install' | 'uninstall', name: string) =>
    api.request<TPackageOperation>(`${projectApi(id).packages}/${kind}`, {
      method: 'POST',
      body: { name },
      // The panel shows the refusal under its form.
      handledCodes: ['2003'],
    }),
  cancel: (id: string, operationId: string) =>
    api.request<TPackageOperation>(`${projectApi(id).packageOperations}/cancel`, {
      method: 'POST',
      body: { operationId },
    }),
};
