import { z } from 'zod';
import { ZListQuery } from './user.js';
import { LIMITS } from './validation.js';

/** Datasets: a zip of files with its description, kept in versions (spec 3, 4, 5, 6 and 9). */

const MB = 1024 * 1024;

/** Limits of a dataset's form, its zip and its annotation file (spec 5 and 9). */
export const DATASET_LIMITS = {
  name: LIMITS.datasetName,
  description: LIMITS.datasetDescription,
  explanation: 1000,
  tags: LIMITS.tags,
  tag: 20,
  courseTag: 50,
  annotationCategories: LIMITS.annotationCategories,
  annotationCategory: 50,
  annotationBytes: LIMITS.annotationFileBytes,
  /** The zip's own size; a deployment may set another (`DATASET_MAX_ZIP_MB`). */
  zipBytes: 2048 * MB,
  /** Entries of the zip, folders included; a deployment may set another (`DATASET_MAX_ENTRIES`). */
  entries: 100_000,
  /** Rows of a csv or tsv preview, after its header. */
  previewRows: 50,
  /** Bytes of a text or json preview. */
  previewTextBytes: 64 * 1024,
  /** The longer side of an image's thumbnail, in pixels. */
  thumbnailPx: 320,
} as const;

export const DATASET_ACCESS = ['public', 'private', 'group'] as const;
export type DatasetAccess = (typeof DATASET_ACCESS)[number];
export const DATASET_VERSION_STATES = ['processing', 'ready', 'failed'] as const;
export type DatasetVersionState = (typeof DATASET_VERSION_STATES)[number];
/** Which datasets a list shows: every one the caller may see, or only their own. */
export const DATASET_SCOPES = ['all', 'mine'] as const;
export const DATASET_SORTS = ['updatedAt', 'createdAt', 'name'] as const;

/** Dataset API paths. Static paths under `base` are matched before `/:id`. */
export const DATASET_API = {
  base: '/api/v1/datasets',
  /**
   * Resumable (tus) uploads of a dataset's zip; `Upload-Metadata` carries `datasetId` and `filename`. The finishing
   * PATCH answers `x-version-id` (the new version, `processing` until extracted) or, when the zip is refused, the
   * error envelope.
   */
  uploads: '/api/v1/datasets/uploads',
} as const;

/** Paths of one dataset's calls. */
export const datasetApi = (id: string) => {
  const base = `${DATASET_API.base}/${id}`;
  return {
    base,
    publish: `${base}/publish`,
    version: (versionId: string) => `${base}/versions/${versionId}`,
    /** GET `?versionId&dir`: one folder level of a version's files (the current version without `versionId`). */
    files: `${base}/files`,
    /** GET `?path&versionId`: what the file shows (see `ZDatasetPreview`). */
    preview: `${base}/preview`,
    /** GET `?path&versionId&thumb=1`: the file's bytes, or an image's thumbnail of at most 320 px. */
    raw: `${base}/raw`,
    /** PUT multipart `file` (COCO JSON, at most 100 MB) `?versionId`; GET `?path&versionId`: one image's boxes. */
    annotation: `${base}/annotation`,
  };
};

/** Text a person typed: trimmed, and not only spaces when required. */
const text = (max: number) => z.string().trim().max(max);
export const ZDatasetTags = z
  .array(z.string().trim().min(1).max(DATASET_LIMITS.tag))
  .max(DATASET_LIMITS.tags)
  .refine((tags) => new Set(tags).size === tags.length, 'Tag already exists!')
  .describe('at most 10 tags of at most 20 characters, no duplicates');
export const ZDatasetCategories = z
  .array(z.string().trim().min(1).max(DATASET_LIMITS.annotationCategory))
  .max(DATASET_LIMITS.annotationCategories)
  .refine((names) => new Set(names).size === names.length, 'Category already exists')
  .describe('annotation categories of an image dataset, at most 50');

const datasetFields = {
  name: text(DATASET_LIMITS.name).min(1),
  description: text(DATASET_LIMITS.description),
  explanation: text(DATASET_LIMITS.explanation),
  tags: ZDatasetTags,
  access: z.enum(DATASET_ACCESS),
  groupId: z.uuid().nullable().describe('the group a "group" dataset is shared with; one the owner belongs to'),
  courseTag: text(DATASET_LIMITS.courseTag).describe('the official course it belongs to'),
  annotationCategories: ZDatasetCategories,
};

export const ZCreateDatasetRequest = z.object({
  ...datasetFields,
  description: datasetFields.description.default(''),
  explanation: datasetFields.explanation.default(''),
  tags: ZDatasetTags.default([]),
  access: datasetFields.access.default('private'),
  groupId: datasetFields.groupId.default(null),
  courseTag: datasetFields.courseTag.default(''),
  annotationCategories: ZDatasetCategories.default([]),
});
export type TCreateDatasetRequest = z.input<typeof ZCreateDatasetRequest>;

/** Changes only the fields sent; a published dataset refuses every change (3201). */
export const ZUpdateDatasetRequest = z.object(datasetFields).partial();
export type TUpdateDatasetRequest = z.infer<typeof ZUpdateDatasetRequest>;

export const ZDatasetListQuery = ZListQuery.extend({
  scope: z.enum(DATASET_SCOPES).default('all'),
  tag: z.string().trim().max(DATASET_LIMITS.tag).optional(),
  access: z.enum(DATASET_ACCESS).optional(),
  groupId: z.uuid().optional().describe('only the datasets shared with this group (of those the caller may see)'),
  sort: z
    .string()
    .regex(new RegExp(`^(${DATASET_SORTS.join('|')}),(asc|desc)$`))
    .optional()
    .describe('default updatedAt,desc'),
});
export type TDatasetListQuery = z.input<typeof ZDatasetListQuery>;

/** Why a version failed: the refusal's code and its message in the caller's language. */
export const ZDatasetFailure = z.object({ errorCode: z.string(), errorMsg: z.string() });

export const ZDatasetVersion = z.object({
  id: z.string(),
  number: z.int(),
  state: z.enum(DATASET_VERSION_STATES),
  failure: ZDatasetFailure.nullable(),
  fileCount: z.int(),
  totalBytes: z.number().int().describe('inflated bytes of its files'),
  zipName: z.string(),
  zipBytes: z.number().int(),
  annotationName: z.string().nullable(),
  createdAt: z.string(),
  readyAt: z.string().nullable(),
});
export type TDatasetVersion = z.infer<typeof ZDatasetVersion>;

/** A dataset as lists show it. */
export const ZDataset = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  explanation: z.string(),
  tags: z.array(z.string()),
  access: z.enum(DATASET_ACCESS),
  groupId: z.string().nullable(),
  courseTag: z.string(),
  annotationCategories: z.array(z.string()),
  ownerId: z.string(),
  ownerName: z.string(),
  isOwner: z.boolean(),
  canEdit: z.boolean().describe('the owner, while the dataset is not published'),
  published: z.boolean(),
  publishedAt: z.string().nullable(),
  currentVersion: z
    .object({ id: z.string(), number: z.int(), fileCount: z.int(), totalBytes: z.number().int() })
    .nullable()
    .describe('the newest ready version: what projects attaching the dataset get'),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type TDataset = z.infer<typeof ZDataset>;

export const ZDatasetDetail = ZDataset.extend({
  versions: z.array(ZDatasetVersion).describe('newest first'),
});
export type TDatasetDetail = z.infer<typeof ZDatasetDetail>;

/** One folder level of a version's files: folders first, then files, by name. */
export const ZDatasetFilesQuery = z.object({
  versionId: z.uuid().optional(),
  dir: z.string().max(1000).default('').describe('a folder path of the zip, "" for the top'),
});
export type TDatasetFilesQuery = z.input<typeof ZDatasetFilesQuery>;
export const ZDatasetFileEntry = z.object({
  name: z.string(),
  path: z.string(),
  kind: z.enum(['dir', 'file']),
  size: z.number().int().describe('bytes; of a folder, of everything under it'),
  childCount: z.int().describe('files under a folder, at any depth; 0 for a file'),
});
export type TDatasetFileEntry = z.infer<typeof ZDatasetFileEntry>;
export const ZDatasetFiles = z.object({
  versionId: z.string(),
  dir: z.string(),
  entries: z.array(ZDatasetFileEntry),
});
export type TDatasetFiles = z.infer<typeof ZDatasetFiles>;

export const ZDatasetPathQuery = z.object({
  path: z.string().min(1).max(1000),
  versionId: z.uuid().optional(),
});
export type TDatasetPathQuery = z.input<typeof ZDatasetPathQuery>;
export const ZDatasetRawQuery = ZDatasetPathQuery.extend({
  thumb: z.enum(['0', '1']).optional().describe('1: a JPEG or PNG thumbnail of an image, at most 320 px'),
});
export type TDatasetRawQuery = z.input<typeof ZDatasetRawQuery>;

/** What a file shows: an image (its thumbnail), a table's first rows, a text's first 64 KB, or only its size. */
export const ZDatasetPreview = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('image'),
    path: z.string(),
    size: z.number().int(),
    thumbnailUrl: z.string(),
    rawUrl: z.string(),
  }),
  z.object({
    kind: z.literal('table'),
    path: z.string(),
    size: z.number().int(),
    header: z.array(z.string()),
    rows: z.array(z.array(z.string())).describe('at most 50'),
    truncated: z.boolean(),
  }),
  z.object({
    kind: z.literal('text'),
    path: z.string(),
    size: z.number().int(),
    text: z.string(),
    truncated: z.boolean(),
  }),
  z.object({ kind: z.literal('other'), path: z.string(), size: z.number().int() }),
]);
export type TDatasetPreview = z.infer<typeof ZDatasetPreview>;

/** One box of an image's annotation, in the image's pixels. */
export const ZAnnotationBox = z.object({
  x: z.number(),
  y: z.number(),
  w: z.number(),
  h: z.number(),
  category: z.string(),
});
export type TAnnotationBox = z.infer<typeof ZAnnotationBox>;
export const ZImageAnnotation = z.object({
  path: z.string(),
  width: z.number().nullable(),
  height: z.number().nullable(),
  boxes: z.array(ZAnnotationBox),
});
export type TImageAnnotation = z.infer<typeof ZImageAnnotation>;
export const ZAnnotationUploadQuery = z.object({ versionId: z.uuid().optional() });
export const ZAnnotationSummary = z.object({
  versionId: z.string(),
  name: z.string(),
  bytes: z.number().int(),
  images: z.int(),
  annotations: z.int(),
  categories: z.array(z.string()),
});
export type TAnnotationSummary = z.infer<typeof ZAnnotationSummary>;
