import { DATASET_API, projectDatasetApi, type TDataset, type TProjectDataset } from '@aiedu/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../app/api';

/** The calls of the editor's datasets panel: a project's attached datasets, and the datasets it may attach. */

export const projectDatasetKeys = {
  attached: (projectId: string) => ['projects', 'datasets', projectId] as const,
  choices: (keyword: string) => ['projects', 'dataset-choices', keyword] as const,
};

/** The attached datasets; asked again every 2 s while one is being synchronised. */
export function useProjectDatasets(projectId: string) {
  return useQuery({
    queryKey: projectDatasetKeys.attached(projectId),
    queryFn: () => api.get<TProjectDataset[]>(projectDatasetApi(projectId).base),
    refetchInterval: (query) => (query.state.data?.some((d) => d.syncState === 'inProgress') ? 2000 : false),
  });
}

/** Datasets the caller may see, newest first, by keyword: what the picker offers. */
export function useDatasetChoices(keyword: string, enabled: boolean) {
  return useQuery({
    queryKey: projectDatasetKeys.choices(keyword),
    queryFn: () =>
      api.get<{ list: TDataset[]; total: number }>(DATASET_API.base, {
        query: { scope: 'all', page: 1, size: 20, sort: 'updatedAt,desc', ...(keyword ? { keyword } : {}) },
      }),
    enabled,
    placeholderData: keepPreviousData,
  });
}

/** Refusals the panel says itself, beside what was refused. */
const HANDLED = ['3204', '3205'];

export const projectDatasets = {
  attach: (projectId: string, datasetId: string) =>
    api.post<TProjectDataset>(projectDatasetApi(projectId).base, { datasetId }, { handledCodes: HANDLED }),
  detach: (projectId: string, datasetId: string) => api.delete<null>(projectDatasetApi(projectId).one(datasetId)),
  sync: (projectId: string, datasetId: string) =>
    api.post<TProjectDataset>(projectDatasetApi(projectId).sync(datasetId)),
};
