import {
  DATASET_API,
  type DatasetAccess,
  datasetApi,
  GROUP_API,
  type TAnnotationSummary,
  type TCreateDatasetRequest,
  type TDataset,
  type TDatasetDetail,
  type TDatasetFiles,
  type TDatasetPreview,
  type TDatasetVersion,
  type TGroup,
  type TImageAnnotation,
  type TUpdateDatasetRequest,
  type TPage,
} from '@aiedu/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../app/api';

/** The calls of the dataset screens. */

/** The list's query (`ZDatasetListQuery` as the screens build it). */
export interface DatasetListQuery {
  scope: 'all' | 'mine';
  page: number;
  size: number;
  keyword?: string;
  tag?: string;
  access?: DatasetAccess;
  /** Only those shared with this group. */
  groupId?: string;
  sort: string;
}

export const datasetKeys = {
  all: ['datasets'] as const,
  list: (query: DatasetListQuery) => ['datasets', 'list', query] as const,
  detail: (id: string) => ['datasets', 'detail', id] as const,
  version: (id: string, versionId: string) => ['datasets', 'version', id, versionId] as const,
  files: (id: string, versionId: string, dir: string) => ['datasets', 'files', id, versionId, dir] as const,
  preview: (id: string, versionId: string, path: string) => ['datasets', 'preview', id, versionId, path] as const,
  boxes: (id: string, versionId: string, path: string) => ['datasets', 'boxes', id, versionId, path] as const,
  groups: ['datasets', 'groups'] as const,
};

/** The dataset rules' refusals, left to the screens: the form says them beside its fields, the detail page once as a toast. */
export const RULE_CODES = ['3201', '3202', '3203', '3204', '3206', '3015'];

export function useDatasetList(query: DatasetListQuery) {
  return useQuery({
    queryKey: datasetKeys.list(query),
    queryFn: () => api.get<TPage<TDataset>>(DATASET_API.base, { query: { ...query } }),
    placeholderData: keepPreviousData,
  });
}

export function useDataset(id: string | undefined) {
  return useQuery({
    queryKey: datasetKeys.detail(id ?? ''),
    queryFn: () => api.get<TDatasetDetail>(datasetApi(id!).base, { handledCodes: ['1004'] }),
    enabled: Boolean(id),
    retry: false,
    // A version being extracted changes state on the server: the page follows it.
    refetchInterval: (query) => (query.state.data?.versions.some((v) => v.state === 'processing') ? 2000 : false),
  });
}

/** One version, polled while the server checks and extracts its zip. */
export function useDatasetVersion(id: string, versionId: string | null) {
  return useQuery({
    queryKey: datasetKeys.version(id, versionId ?? ''),
    queryFn: () => api.get<TDatasetVersion>(datasetApi(id).version(versionId!)),
    enabled: Boolean(versionId),
    refetchInterval: (query) => (query.state.data?.state === 'processing' ? 1500 : false),
  });
}

/** The groups the caller belongs to (owns or joined): where a dataset may be shared. */
export function useMyGroups(enabled = true) {
  return useQuery({
    queryKey: datasetKeys.groups,
    queryFn: () => api.get<TPage<TGroup>>(GROUP_API.base, { query: { scope: 'visible', page: 1, size: 100 } }),
    enabled,
    staleTime: 60_000,
  });
}

export const createDataset = (body: TCreateDatasetRequest) =>
  api.post<TDatasetDetail>(DATASET_API.base, body, { handledCodes: RULE_CODES });
export const updateDataset = (id: string, body: TUpdateDatasetRequest) =>
  api.put<TDatasetDetail>(datasetApi(id).base, body, { handledCodes: RULE_CODES });
export const deleteDataset = (id: string) => api.delete<null>(datasetApi(id).base, { handledCodes: RULE_CODES });
export const publishDataset = (id: string) =>
  api.post<TDatasetDetail>(datasetApi(id).publish, undefined, { handledCodes: RULE_CODES });

export function uploadAnnotation(id: string, versionId: string, file: File) {
  const body = new FormData();
  body.append('file', file);
  return api.put<TAnnotationSummary>(datasetApi(id).annotation, body, { query: { versionId } });
}

export function useDatasetFiles(id: string, versionId: string, dir: string) {
  return useQuery({
    queryKey: datasetKeys.files(id, versionId, dir),
    queryFn: () => api.get<TDatasetFiles>(datasetApi(id).files, { query: { versionId, dir } }),
    staleTime: Infinity,
  });
}

/** One folder level, for the tree's lazy loading (kept in the same cache as `useDatasetFiles`). */
export const fetchFiles = (id: string, versionId: string, dir: string) =>
  api.get<TDatasetFiles>(datasetApi(id).files, { query: { versionId, dir } });

export function useFilePreview(id: string, versionId: string, path: string | null) {
  return useQuery({
    queryKey: datasetKeys.preview(id, versionId, path ?? ''),
    queryFn: () => api.get<TDatasetPreview>(datasetApi(id).preview, { query: { versionId, path: path! } }),
    enabled: Boolean(path),
    staleTime: Infinity,
  });
}

/** An image's annotation boxes, asked for only when the version has an annotation file. */
export function useImageBoxes(id: string, versionId: string, path: string, enabled: boolean) {
  return useQuery({
    queryKey: datasetKeys.boxes(id, versionId, path),
    // An image the annotation file does not mention simply has no boxes: no toast for it.
    queryFn: () =>
      api.get<TImageAnnotation>(datasetApi(id).annotation, { query: { versionId, path }, handledCodes: ['1004'] }),
    retry: false,
    enabled,
    staleTime: Infinity,
  });
}

/** A file's bytes (or an image's thumbnail) with the caller's token: images cannot send it themselves. */
export const fileBlob = (id: string, versionId: string, path: string, thumb = false) =>
  api.download(datasetApi(id).raw, { query: { versionId, path, thumb: thumb ? '1' : undefined } });
