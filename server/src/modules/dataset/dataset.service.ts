import type {
  TDataset,
  TDatasetDetail,
  TDatasetVersion,
  TUpdateDatasetRequest,
  ZCreateDatasetRequest,
} from '@aiedu/contracts';
import { ERRORS, type ErrorName } from '@aiedu/contracts';
import { eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { writeAudit } from '../../platform/audit.js';
import type { AuthContext } from '../../platform/auth/tokens.js';
import type { AppContext } from '../../platform/context.js';
import type { Db } from '../../platform/db/client.js';
import { datasets, datasetVersions } from '../../platform/db/schema/index.js';
import { AppError } from '../../platform/errors.js';
import { errorMessage, requestLanguage } from '../../platform/i18n.js';
import { isGroupMember, type DatasetRow } from './dataset-access.js';
import { ownerNameOf, versionsOf, type DatasetListRow, type VersionRow } from './dataset.repository.js';
import { deleteVersionObjects } from './dataset-storage.js';

const iso = (date: Date | null) => (date ? date.toISOString() : null);

/** A list row as the contract shows it. */
export function presentDataset(row: DatasetListRow, caller: AuthContext): TDataset {
  const { dataset } = row;
  const isOwner = dataset.ownerId === caller.userId && dataset.customerId === caller.customerId;
  return {
    id: dataset.id,
    name: dataset.name,
    description: dataset.description,
    explanation: dataset.explanation,
    tags: dataset.tags,
    access: dataset.access,
    groupId: dataset.groupId,
    courseTag: dataset.courseTag,
    annotationCategories: dataset.annotationCategories,
    ownerId: dataset.ownerId,
    ownerName: row.ownerName,
    isOwner,
    canEdit: isOwner && dataset.publishedAt === null,
    published: dataset.publishedAt !== null,
    publishedAt: iso(dataset.publishedAt),
    currentVersion: row.current,
    createdAt: dataset.createdAt.toISOString(),
    updatedAt: dataset.updatedAt.toISOString(),
  };
}

/** A failure is stored as the catalogue's error name; it is answered as its code and message. */
export function presentVersion(version: VersionRow, request: FastifyRequest): TDatasetVersion {
  const failure = version.failure && version.failure in ERRORS ? ERRORS[version.failure as ErrorName] : null;
  return {
    id: version.id,
    number: version.number,
    state: version.state,
    failure: failure ? { errorCode: failure.code, errorMsg: errorMessage(failure, requestLanguage(request)) } : null,
    fileCount: version.fileCount,
    totalBytes: version.totalBytes,
    zipName: version.zipName,
    zipBytes: version.zipBytes,
    annotationName: version.annotationName,
    createdAt: version.createdAt.toISOString(),
    readyAt: iso(version.readyAt),
  };
}

/** A dataset with its owner's name, its versions (newest first) and the caller's rights. */
export async function datasetDetail(
  ctx: AppContext,
  request: FastifyRequest,
  caller: AuthContext,
  dataset: DatasetRow,
): Promise<TDatasetDetail> {
  const versions = await versionsOf(ctx.db, dataset.id);
  const current = versions.find((v) => v.id === dataset.currentVersionId);
  const row: DatasetListRow = {
    dataset,
    ownerName: await ownerNameOf(ctx.db, dataset.ownerId),
    current: current
      ? { id: current.id, number: current.number, fileCount: current.fileCount, totalBytes: current.totalBytes }
      : null,
  };
  return { ...presentDataset(row, caller), versions: versions.map((v) => presentVersion(v, request)) };
}

/** A dataset shared with a group names one its owner belongs to; a group's id is otherwise never confirmed. */
async function checkGroup(db: Db, ownerId: string, access: string, groupId: string | null, kept?: string | null) {
  if (access === 'group' && !groupId) {
    throw new AppError('BAD_REQUEST', { issues: [{ path: 'body.groupId', message: 'A group is required' }] });
  }
  if (groupId && groupId !== kept && !(await isGroupMember(db, ownerId, groupId))) {
    throw new AppError('BAD_REQUEST', { issues: [{ path: 'body.groupId', message: 'Not a group of yours' }] });
  }
}

export async function createDataset(
  ctx: AppContext,
  request: FastifyRequest,
  caller: AuthContext,
  input: z.infer<typeof ZCreateDatasetRequest>,
) {
  await checkGroup(ctx.db, caller.userId, input.access, input.groupId);
  return ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(datasets)
      .values({ ...input, customerId: caller.customerId, ownerId: caller.userId })
      .returning();
    await writeAudit(tx, request, { module: 'dataset', operation: 'create', params: { id: row!.id, ...input } });
    return row!;
  });
}

/**
 * Changes what was sent. A published dataset changes no more (3201); a public one stays public (3206); one with
 * a group cannot become private (3203); a group must be one the owner belongs to.
 */
export async function updateDataset(
  ctx: AppContext,
  request: FastifyRequest,
  dataset: DatasetRow,
  input: TUpdateDatasetRequest,
) {
  if (dataset.publishedAt) throw new AppError('DATASET_PUBLISHED_FINAL');
  const access = input.access ?? dataset.access;
  const groupId = input.groupId === undefined ? dataset.groupId : input.groupId;
  if (dataset.access === 'public' && access !== 'public') throw new AppError('DATASET_PUBLIC_FINAL');
  if (dataset.groupId && (access === 'private' || groupId === null)) throw new AppError('DATASET_GROUP_NOT_PRIVATE');
  await checkGroup(ctx.db, dataset.ownerId, access, groupId, dataset.groupId);
  return ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .update(datasets)
      .set({ ...input, groupId, updatedAt: ctx.now() })
      .where(eq(datasets.id, dataset.id))
      .returning();
    await writeAudit(tx, request, { module: 'dataset', operation: 'update', params: { id: dataset.id, ...input } });
    return row!;
  });
}

/** Publishing needs a ready version (3204) and is final: no edits or deletion afterwards. */
export async function publishDataset(ctx: AppContext, request: FastifyRequest, dataset: DatasetRow) {
  if (dataset.publishedAt) return dataset;
  if (!dataset.currentVersionId) throw new AppError('DATASET_NOT_READY');
  return ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .update(datasets)
      .set({ publishedAt: ctx.now(), updatedAt: ctx.now() })
      .where(eq(datasets.id, dataset.id))
      .returning();
    await writeAudit(tx, request, { module: 'dataset', operation: 'publish', params: { id: dataset.id } });
    return row!;
  });
}

/**
 * Deletes a dataset that is neither public (3202) nor published (3201), with its versions, files and stored bytes.
 * A version still being extracted is left to finish first (1009: try again once it has).
 */
export async function deleteDataset(ctx: AppContext, request: FastifyRequest, dataset: DatasetRow) {
  if (dataset.access === 'public') throw new AppError('DATASET_PUBLIC_UNDELETABLE');
  if (dataset.publishedAt) throw new AppError('DATASET_PUBLISHED_FINAL');
  const versions = await versionsOf(ctx.db, dataset.id);
  if (versions.some((v) => v.state === 'processing')) throw new AppError('OPERATION_FAILED');
  for (const version of versions) await deleteVersionObjects(ctx, version);
  await ctx.db.transaction(async (tx) => {
    await tx.update(datasets).set({ currentVersionId: null }).where(eq(datasets.id, dataset.id));
    await tx.delete(datasetVersions).where(eq(datasetVersions.datasetId, dataset.id));
    await tx.delete(datasets).where(eq(datasets.id, dataset.id));
    await writeAudit(tx, request, { module: 'dataset', operation: 'delete', params: { id: dataset.id } });
  });
}
