import { z } from 'zod';
import { API } from './api.js';
import { SYNC_STATES } from './project.js';

/**
 * Datasets attached to a project: mounted read-only in its runtime at `datasets/<mountName>`, relative to the
 * workspace (the notebook's working folder), e.g. `pd.read_csv('datasets/iris/iris.csv')`.
 */

/** The folder of the workspace that holds the attached datasets. */
export const DATASET_MOUNT_FOLDER = 'datasets';
/** A mount name is at most this long (a unique suffix included). */
export const DATASET_MOUNT_NAME_MAX = 40;

/** Paths of one project's attached datasets. */
export const projectDatasetApi = (projectId: string) => {
  const base = `${API.projects}/${projectId}/datasets`;
  return {
    /** GET: the attached datasets; POST `{ datasetId }`: attach one (its current version). */
    base,
    /** DELETE: detach it. */
    one: (datasetId: string) => `${base}/${datasetId}`,
    /** POST: synchronise it again (a retry, or a move to the dataset's current version). */
    sync: (datasetId: string) => `${base}/${datasetId}/sync`,
  };
};

/**
 * Why a synchronisation failed: the caller may no longer see the dataset ("no permission to visit"), it has no ready
 * version, the server's disk is full, an entry of the project's own is where the dataset should appear, or the
 * files could not be copied.
 */
export const DATASET_SYNC_REASONS = ['noPermission', 'notReady', 'noSpace', 'inTheWay', 'failed'] as const;
export type DatasetSyncReason = (typeof DATASET_SYNC_REASONS)[number];

export const ZAttachDatasetRequest = z.object({ datasetId: z.uuid() });
export type TAttachDatasetRequest = z.infer<typeof ZAttachDatasetRequest>;

/** A dataset attached to a project, with where code finds it and how its synchronisation went. */
export const ZProjectDataset = z.object({
  datasetId: z.string(),
  name: z.string(),
  versionNumber: z.int().nullable().describe('the version mounted; null once it was deleted'),
  currentVersionNumber: z
    .int()
    .nullable()
    .describe("the dataset's current version: a newer one than the mounted one is taken by a sync"),
  mountName: z.string(),
  path: z.string().describe('where code finds the files, relative to the workspace: `datasets/<mountName>`'),
  syncState: z.enum(SYNC_STATES),
  syncError: z
    .object({
      errorCode: z.string().describe('3003'),
      errorMsg: z.string().describe('3003’s message in the caller’s language'),
      reason: z.enum(DATASET_SYNC_REASONS),
    })
    .nullable()
    .describe('why the last synchronisation failed'),
  attachedAt: z.string(),
});
export type TProjectDataset = z.infer<typeof ZProjectDataset>;

/**
 * A folder name for a dataset from its name: letters and digits of any script kept (lower case), every other run of
 * characters one `_`, at most `DATASET_MOUNT_NAME_MAX` characters; `dataset` when nothing is left. `taken` names
 * make it `<name>_2`, `<name>_3`, … so it is unique in its project.
 */
export function datasetMountName(name: string, taken: ReadonlySet<string> = new Set()): string {
  const base =
    name
      .normalize('NFKC')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}]+/gu, '_')
      .replace(/^_+|_+$/g, '')
      .slice(0, DATASET_MOUNT_NAME_MAX - 4)
      .replace(/_+$/, '') || 'dataset';
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base}_${n}`)) return `${base}_${n}`;
}
