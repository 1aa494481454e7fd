import { and, asc, eq, isNotNull } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { DatasetSyncReason } from '@aiedu/contracts';
import type { Db } from '../../platform/db/client.js';
import { datasetFiles, datasets, datasetVersions, projectDatasets } from '../../platform/db/schema/index.js';

export type AttachmentRow = Awaited<ReturnType<typeof listAttachments>>[number];

const mounted = alias(datasetVersions, 'mounted');
const current = alias(datasetVersions, 'current');

/** A project's attached datasets, oldest first, with the mounted and the current version's numbers. */
export function listAttachments(db: Db, projectId: string, datasetId?: string) {
  return db
    .select({
      attachment: projectDatasets,
      name: datasets.name,
      currentVersionId: datasets.currentVersionId,
      versionNumber: mounted.number,
      currentVersionNumber: current.number,
    })
    .from(projectDatasets)
    .innerJoin(datasets, eq(datasets.id, projectDatasets.datasetId))
    .leftJoin(mounted, eq(mounted.id, projectDatasets.versionId))
    .leftJoin(current, eq(current.id, datasets.currentVersionId))
    .where(
      and(eq(projectDatasets.projectId, projectId), datasetId ? eq(projectDatasets.datasetId, datasetId) : undefined),
    )
    .orderBy(asc(projectDatasets.createdAt), asc(projectDatasets.mountName));
}

/** The version when it is ready to be mounted. */
export async function readyVersion(db: Db, versionId: string | null) {
  if (!versionId) return null;
  const [version] = await db.select().from(datasetVersions).where(eq(datasetVersions.id, versionId)).limit(1);
  return version?.state === 'ready' ? version : null;
}

export function versionFiles(db: Db, versionId: string) {
  return db
    .select({ path: datasetFiles.path, size: datasetFiles.size })
    .from(datasetFiles)
    .where(eq(datasetFiles.versionId, versionId))
    .orderBy(asc(datasetFiles.path));
}

export async function mountNamesOf(db: Db, projectId: string): Promise<Set<string>> {
  const rows = await db
    .select({ mountName: projectDatasets.mountName })
    .from(projectDatasets)
    .where(eq(projectDatasets.projectId, projectId));
  return new Set(rows.map((r) => r.mountName));
}

export async function isAttached(db: Db, projectId: string, datasetId: string) {
  const [row] = await db
    .select({ projectId: projectDatasets.projectId })
    .from(projectDatasets)
    .where(and(eq(projectDatasets.projectId, projectId), eq(projectDatasets.datasetId, datasetId)))
    .limit(1);
  return !!row;
}

export function insertAttachment(db: Db, values: typeof projectDatasets.$inferInsert) {
  return db.insert(projectDatasets).values(values).onConflictDoNothing().returning();
}

export async function deleteAttachment(db: Db, projectId: string, datasetId: string) {
  const rows = await db
    .delete(projectDatasets)
    .where(and(eq(projectDatasets.projectId, projectId), eq(projectDatasets.datasetId, datasetId)))
    .returning({ projectId: projectDatasets.projectId });
  return rows.length > 0;
}

/** Sets an attachment's synchronisation state (and the version it moves to); answers whether it still exists. */
export async function setSyncState(
  db: Db,
  projectId: string,
  datasetId: string,
  state: { syncState: 'inProgress' | 'success' | 'failure'; syncError: DatasetSyncReason | null; versionId?: string },
) {
  const rows = await db
    .update(projectDatasets)
    .set({ ...state, updatedAt: new Date() })
    .where(and(eq(projectDatasets.projectId, projectId), eq(projectDatasets.datasetId, datasetId)))
    .returning({ projectId: projectDatasets.projectId });
  return rows.length > 0;
}

/** Every version some project mounts: the dataset copies to keep. */
export async function versionsInUse(db: Db): Promise<Set<string>> {
  const rows = await db
    .selectDistinct({ versionId: projectDatasets.versionId })
    .from(projectDatasets)
    .where(isNotNull(projectDatasets.versionId));
  return new Set(rows.map((r) => r.versionId!));
}
