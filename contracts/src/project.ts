import { z } from 'zod';
import { CONTAINER_TYPES, RUNTIME_ENVIRONMENTS } from './constants.js';
import { LIMITS, isSafeName } from './validation.js';

/** Who may see a project (spec 3); once public a project cannot return to private (spec 4). */
export const PROJECT_ACCESS = ['public', 'private', 'group'] as const;
export type ProjectAccess = (typeof PROJECT_ACCESS)[number];
/**
 * What a project's form may set. "group" needs a group to share with, which projects cannot name yet: offered (and
 * accepted) again once groups exist.
 */
export const SETTABLE_PROJECT_ACCESS = ['public', 'private'] as const satisfies readonly ProjectAccess[];

/** Container states of spec 4, as the editor shows them. */
export const CONTAINER_STATES = ['NA', 'BOOTING', 'RUNNING', 'STOPPING', 'STOPPED', 'FAILED'] as const;
export type ContainerState = (typeof CONTAINER_STATES)[number];

/** Run states of a notebook run in the editor (spec 4). */
export const RUN_STATES = ['loading', 'ready', 'running', 'done', 'failed', 'cancelled', 'aborting', 'error'] as const;
export type RunState = (typeof RUN_STATES)[number];

/** Synchronisation of dependencies, code and datasets (spec 4). */
export const SYNC_STATES = ['inProgress', 'success', 'failure'] as const;
export type SyncState = (typeof SYNC_STATES)[number];

/** Package install and uninstall states (spec 4). */
export const PACKAGE_STATES = [
  'init',
  'waiting',
  'installing',
  'uninstalling',
  'success',
  'fail',
  'cancelled',
] as const;
export type PackageState = (typeof PACKAGE_STATES)[number];

/** Project limits of spec 5 and 9. */
export const PROJECT_LIMITS = {
  name: 100,
  description: LIMITS.description,
  tags: LIMITS.tags,
  tag: 20,
  rename: LIMITS.rename,
  uploadBytes: LIMITS.projectUploadBytes,
  versionSegmentMax: LIMITS.projectVersionSegmentMax,
  versionDescription: 300,
  collaborators: 20,
} as const;

const ZTags = z
  .array(z.string().trim().min(1).max(PROJECT_LIMITS.tag))
  .max(PROJECT_LIMITS.tags)
  .describe('at most 10 tags, no duplicates (3015 "Tag already exists!")');

const projectFields = {
  name: z.string().trim().min(1).max(PROJECT_LIMITS.name),
  description: z.string().trim().max(PROJECT_LIMITS.description),
  tags: ZTags,
  access: z.enum(SETTABLE_PROJECT_ACCESS),
  type: z.string().trim().max(50),
  runtimeType: z.enum(CONTAINER_TYPES),
  environment: z.enum(RUNTIME_ENVIRONMENTS).describe('the runtime environment: python (numpy, matplotlib) or ai'),
  framework: z.string().trim().max(50),
  labelFile: z.string().trim().max(200),
  courseTag: z.string().trim().max(50).describe('official course tag'),
  direction: z.string().trim().max(50),
  studySection: z.string().trim().max(50),
  tool: z.string().trim().max(50),
};

export const ZCreateProjectRequest = z.object({
  ...projectFields,
  description: projectFields.description.default(''),
  tags: ZTags.default([]),
  access: projectFields.access.default('private'),
  type: projectFields.type.default(''),
  runtimeType: projectFields.runtimeType.default('BASIC'),
  environment: projectFields.environment.default('python'),
  framework: projectFields.framework.default(''),
  labelFile: projectFields.labelFile.default(''),
  courseTag: projectFields.courseTag.default(''),
  direction: projectFields.direction.default(''),
  studySection: projectFields.studySection.default(''),
  tool: projectFields.tool.default(''),
});
export type TCreateProjectRequest = z.input<typeof ZCreateProjectRequest>;

export const ZUpdateProjectRequest = z.object(projectFields).partial();
export type TUpdateProjectRequest = z.infer<typeof ZUpdateProjectRequest>;

export const ZProject = z.object({
  id: z.string(),
  ownerId: z.string(),
  ownerName: z.string(),
  ...projectFields,
  access: z.enum(PROJECT_ACCESS),
  forkedFrom: z.string().nullable(),
  canEdit: z.boolean(),
  isOwner: z.boolean(),
  reviewing: z
    .boolean()
    .describe("the caller only looks, read-only, as a teacher of a course the project is a learner's copy for"),
  latestVersion: z.string().nullable(),
  forks: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type TProject = z.infer<typeof ZProject>;

export const PROJECT_SORTS = ['updatedAt', 'createdAt', 'name', 'forks'] as const;
export const ZProjectListQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  size: z.coerce.number().int().min(1).max(100).default(20),
  keyword: z.string().trim().max(100).optional(),
  tag: z.string().trim().max(PROJECT_LIMITS.tag).optional(),
  type: z.string().trim().max(50).optional(),
  direction: z.string().trim().max(50).optional(),
  runtimeType: z.enum(CONTAINER_TYPES).optional(),
  sort: z
    .string()
    .regex(new RegExp(`^(${PROJECT_SORTS.join('|')}),(asc|desc)$`))
    .optional(),
});
export type TProjectListQuery = z.infer<typeof ZProjectListQuery>;
export type TProjectListParams = z.input<typeof ZProjectListQuery>;

export const ZCollaboratorsRequest = z.object({
  usernames: z.array(z.string().trim().min(1).max(30)).max(PROJECT_LIMITS.collaborators),
});
export const ZCollaborator = z.object({ userId: z.string(), username: z.string(), realName: z.string() });
export type TCollaborator = z.infer<typeof ZCollaborator>;

/** A version segment of a project: 0–100 (spec 5 and 9). */
const ZSegment = z.number().int().min(0).max(PROJECT_LIMITS.versionSegmentMax);
export const ZCreateVersionRequest = z.object({
  major: ZSegment,
  minor: ZSegment,
  revision: ZSegment,
  description: z.string().trim().min(1).max(PROJECT_LIMITS.versionDescription),
});
export type TCreateVersionRequest = z.infer<typeof ZCreateVersionRequest>;

export const ZProjectVersion = z.object({
  id: z.string(),
  version: z.string().describe('major.minor.revision'),
  major: z.number().int(),
  minor: z.number().int(),
  revision: z.number().int(),
  description: z.string(),
  snapshotNo: z.number().int(),
  fileCount: z.number().int(),
  createdBy: z.string(),
  createdAt: z.string(),
});
export type TProjectVersion = z.infer<typeof ZProjectVersion>;

/** Compares two versions as numbers: negative when a < b. */
export function compareVersions(
  a: { major: number; minor: number; revision: number },
  b: { major: number; minor: number; revision: number },
): number {
  return a.major - b.major || a.minor - b.minor || a.revision - b.revision;
}

export const ZVersionRefRequest = z.object({ versionId: z.uuid() });
export const ZCompareVersionsQuery = z.object({
  from: z.string().describe('a version id, or "draft"'),
  to: z.string().describe('a version id, or "draft"'),
});
export const ZFileChange = z.object({
  path: z.string(),
  change: z.enum(['added', 'removed', 'changed', 'same']),
  fromSize: z.number().int().nullable(),
  toSize: z.number().int().nullable(),
});
export type TFileChange = z.infer<typeof ZFileChange>;

/** A file or folder of the project's workspace. Paths are relative to the project root, '/'-separated. */
export interface TFileNode {
  name: string;
  path: string;
  kind: 'file' | 'folder';
  size: number;
  modifiedAt: string;
  children?: TFileNode[];
}
export const ZFileNode: z.ZodType<TFileNode> = z.lazy(() =>
  z.object({
    name: z.string(),
    path: z.string(),
    kind: z.enum(['file', 'folder']),
    size: z.number().int(),
    modifiedAt: z.string(),
    children: z.array(ZFileNode).optional(),
  }),
);

const ZRelPath = z.string().max(1000).describe('path inside the project, "/"-separated');
/** A new name: at most 30 characters, no special characters (spec 5). */
export const ZFileName = z
  .string()
  .refine(isSafeName, 'at most 30 letters, digits, spaces, "-", "_" or "."')
  .describe('≤ 30 characters: letters, digits, space, "-", "_", "."');
export const ZFilePathQuery = z.object({ path: ZRelPath });
/** The server checks names itself and answers 3106 for a refused one, so the editor can show the spec's message. */
const ZNewName = z.string().min(1).max(200).describe('≤ 30 characters: letters, digits, space, "-", "_", "."');
export const ZCreateEntryRequest = z.object({
  folder: ZRelPath.default(''),
  name: ZNewName,
  kind: z.enum(['file', 'folder']),
});
export const ZRenameRequest = z.object({ path: ZRelPath, name: ZNewName });
export const ZMoveRequest = z.object({ path: ZRelPath, toFolder: ZRelPath });
export const ZCopyRequest = z.object({
  path: ZRelPath,
  toFolder: ZRelPath.optional().describe('default: the folder of `path`'),
  name: ZNewName.optional().describe('default: the first free of `name_copy.ext`, `name_copy_2.ext`…'),
});
export type TCopyRequest = z.infer<typeof ZCopyRequest>;

/** Bytes a user's projects hold (workspaces and kept versions) against their storage quota. */
export const ZStorageUsage = z.object({ usedBytes: z.number().int(), quotaBytes: z.number().int() });
export type TStorageUsage = z.infer<typeof ZStorageUsage>;
export const ZSaveFileRequest = z.object({ path: ZRelPath, content: z.string() });
export const ZFileContent = z.object({ path: z.string(), content: z.string(), size: z.number().int() });

/** What the editor may open, by kind; larger files are refused with 3107 (spec 5: separate video and audio limits). */
export const OPEN_LIMITS = {
  textBytes: 5 * 1024 * 1024,
  imageBytes: 20 * 1024 * 1024,
  pdfBytes: 50 * 1024 * 1024,
  videoBytes: 200 * 1024 * 1024,
  audioBytes: 50 * 1024 * 1024,
} as const;
export type OpenKind = 'notebook' | 'text' | 'image' | 'pdf' | 'video' | 'audio' | 'other';
const KINDS: Record<string, OpenKind> = {
  ipynb: 'notebook',
  png: 'image',
  jpg: 'image',
  jpeg: 'image',
  gif: 'image',
  svg: 'image',
  bmp: 'image',
  webp: 'image',
  pdf: 'pdf',
  mp4: 'video',
  webm: 'video',
  mp3: 'audio',
  wav: 'audio',
  ogg: 'audio',
};
const TEXT = [
  'py',
  'txt',
  'md',
  'csv',
  'json',
  'yaml',
  'yml',
  'toml',
  'cfg',
  'ini',
  'sh',
  'js',
  'ts',
  'html',
  'css',
  'xml',
];
export function openKindOf(fileName: string): OpenKind {
  const ext = fileName.toLowerCase().includes('.') ? fileName.toLowerCase().split('.').pop()! : '';
  if (KINDS[ext]) return KINDS[ext];
  return TEXT.includes(ext) || !fileName.includes('.') ? 'text' : 'other';
}
export function openLimitOf(kind: OpenKind): number {
  if (kind === 'image') return OPEN_LIMITS.imageBytes;
  if (kind === 'pdf') return OPEN_LIMITS.pdfBytes;
  if (kind === 'video') return OPEN_LIMITS.videoBytes;
  if (kind === 'audio') return OPEN_LIMITS.audioBytes;
  return OPEN_LIMITS.textBytes;
}

export const ZComputeBalance = z.object({
  runtimeType: z.enum(CONTAINER_TYPES),
  cpu: z.number().describe("the type's CPU cores"),
  memoryMb: z.number().int().describe("the type's memory"),
  weeklyMinutes: z.number().int(),
  usedMinutes: z.number().int(),
  remainingMinutes: z.number().int(),
  resetsAt: z.string().describe('next Monday 00:00 in the customer time zone'),
});
export type TComputeBalance = z.infer<typeof ZComputeBalance>;

/**
 * Why a runtime stopped: its user, idle culling, an exhausted weekly balance, a crash, the server stopping, or
 * writing on while the disk was below its floor (`diskFull`).
 */
export const ZRuntimeStopReason = z.enum(['user', 'idle', 'computeExhausted', 'crashed', 'shutdown', 'diskFull']);

export const ZRuntimeStatus = z.object({
  state: z.enum(CONTAINER_STATES),
  runtimeType: z.enum(CONTAINER_TYPES),
  startedAt: z.string().nullable(),
  startedBy: z.string().nullable(),
  stopReason: ZRuntimeStopReason.nullable(),
  /** Where the browser reaches Jupyter through the gateway; null unless RUNNING. */
  proxyPath: z.string().nullable(),
  balance: ZComputeBalance,
});
export type TRuntimeStatus = z.infer<typeof ZRuntimeStatus>;

export const ZStartRuntimeRequest = z.object({ runtimeType: z.enum(CONTAINER_TYPES).optional() });

/** Whether this server can run notebooks, and what to do when it cannot. */
export const ZRuntimeAvailability = z.object({
  state: z.enum(['ready', 'installing', 'missing', 'failed']),
  command: z.string().describe('the command an administrator runs to install the runtime'),
  progress: z.string().describe('the last line of the running installation'),
  limits: z.enum(['cgroup', 'rlimit', 'none']).describe('how memory and CPU limits are enforced'),
  diskFull: z.boolean().describe("the server's disk is below MIN_FREE_DISK_MB: starts are refused (2003)"),
  ai: z
    .object({
      state: z.enum(['ready', 'installing', 'missing', 'failed']),
      command: z.string(),
      progress: z.string(),
    })
    .describe('the AI environment (pandas, scikit-learn, PyTorch, OpenCV): installed when an AI project first starts'),
});
export type TRuntimeAvailability = z.infer<typeof ZRuntimeAvailability>;

export const ZComputeAllowance = z.object({
  runtimeType: z.enum(CONTAINER_TYPES),
  weeklyMinutes: z.number().int(),
});
export type TComputeAllowance = z.infer<typeof ZComputeAllowance>;
/** A week has 10,080 minutes: no allowance can be larger. */
export const WEEKLY_MINUTES_MAX = 7 * 24 * 60;
export const ZSetComputeAllowanceRequest = z.object({
  customerId: z.uuid().optional().describe('super administrators: the customer; others: their own'),
  runtimeType: z.enum(CONTAINER_TYPES),
  weeklyMinutes: z.number().int().min(0).max(WEEKLY_MINUTES_MAX),
});
export type TSetComputeAllowanceRequest = z.infer<typeof ZSetComputeAllowanceRequest>;

export const ZPackage = z.object({
  name: z.string(),
  version: z.string(),
  provided: z
    .boolean()
    .describe(
      "part of the runtime environment (Debian's packages), outside the project's virtual environment: cannot be uninstalled",
    ),
});
export type TPackage = z.infer<typeof ZPackage>;
export const ZPackageRequest = z.object({
  name: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*(==[A-Za-z0-9.+!*-]+)?$/, 'a package name, optionally ==version')
    .max(120),
});
export const ZPackageOperation = z.object({
  id: z.string(),
  kind: z.enum(['install', 'uninstall']),
  name: z.string(),
  state: z.enum(PACKAGE_STATES),
  message: z.string(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type TPackageOperation = z.infer<typeof ZPackageOperation>;
