import path from 'node:path';
import {
  DATASET_MOUNT_FOLDER,
  datasetMountName,
  ERRORS,
  type DatasetSyncReason,
  type Language,
  type TProjectDataset,
} from '@aiedu/contracts';
import type { AuthContext } from '../../platform/auth/tokens.js';
import type { AppContext } from '../../platform/context.js';
import { assertDiskRoom } from '../../platform/disk-space.js';
import { AppError } from '../../platform/errors.js';
import { errorMessage } from '../../platform/i18n.js';
import type { DatasetMount } from '../runtime/dataset-mounts.js';
import type { RuntimeDriver, RuntimeProject } from '../runtime/runtime-driver.js';
import {
  deleteAttachment,
  insertAttachment,
  isAttached,
  listAttachments,
  mountNamesOf,
  readyVersion,
  setSyncState,
  versionFiles,
  versionsInUse,
  type AttachmentRow,
} from './attachment.repository.js';
import { loadDatasetFor } from './dataset-access.js';
import { datasetFileKey } from './dataset-storage.js';

type Log = { info(o: object, m: string): void; warn(o: object, m: string): void };

export function presentAttachment(row: AttachmentRow, language: Language): TProjectDataset {
  const { attachment } = row;
  const reason = attachment.syncState === 'failure' ? ((attachment.syncError ?? 'failed') as DatasetSyncReason) : null;
  return {
    datasetId: attachment.datasetId,
    name: row.name,
    versionNumber: row.versionNumber,
    currentVersionNumber: row.currentVersionNumber,
    mountName: attachment.mountName,
    path: `${DATASET_MOUNT_FOLDER}/${attachment.mountName}`,
    syncState: attachment.syncState,
    syncError: reason
      ? {
          errorCode: ERRORS.DATASET_SYNC_FAILED.code,
          errorMsg: errorMessage(ERRORS.DATASET_SYNC_FAILED, language),
          reason,
        }
      : null,
    attachedAt: attachment.createdAt.toISOString(),
  };
}

/** Whether the caller may still see the dataset (its owner, its tenant when public, its group). */
function maySee(ctx: AppContext, caller: AuthContext, datasetId: string) {
  return loadDatasetFor(ctx.db, caller, datasetId, 'view').then(
    () => true,
    (error: unknown) => {
      if (error instanceof AppError) return false;
      throw error;
    },
  );
}

/**
 * Synchronisation of attached datasets: the version's read-only copy on the runtimes' disk, filled from storage,
 * then the workspace's `datasets/<mountName>` pointing at it. Runs in the background after an attach, a sync and
 * a runtime's start; the editor's panel polls the states (inProgress → success | failure with its reason).
 */
export class DatasetSync {
  private readonly running = new Map<string, Promise<void>>();
  /** Link placements of one project, one after the other, each from the states as they then are. */
  private readonly linking = new Map<string, Promise<unknown>>();

  constructor(
    private readonly ctx: AppContext,
    private readonly driver: RuntimeDriver,
    private readonly log: Log,
  ) {}

  /** Synchronises one attachment in the background; `move` takes the dataset's current version. */
  schedule(project: RuntimeProject, datasetId: string, caller: AuthContext, move: boolean): void {
    const key = `${project.id}:${datasetId}`;
    if (this.running.has(key)) return;
    const run = this.run(project, datasetId, caller, move)
      .catch(async (error: unknown) => {
        this.log.warn({ projectId: project.id, datasetId, err: error }, 'dataset synchronisation failed');
        await this.fail(project, datasetId, 'failed').catch(() => undefined);
      })
      .finally(() => this.running.delete(key));
    this.running.set(key, run);
  }

  /** Waits until every synchronisation under way has ended (tests; closing). */
  async idle(): Promise<void> {
    while (this.running.size > 0 || this.linking.size > 0) {
      await Promise.allSettled([...this.running.values(), ...this.linking.values()]);
    }
  }

  private async fail(project: RuntimeProject, datasetId: string, reason: DatasetSyncReason) {
    await setSyncState(this.ctx.db, project.id, datasetId, { syncState: 'failure', syncError: reason });
    await this.relink(project);
  }

  private async run(project: RuntimeProject, datasetId: string, caller: AuthContext, move: boolean) {
    const [row] = await listAttachments(this.ctx.db, project.id, datasetId);
    if (!row) return;
    if (!(await maySee(this.ctx, caller, datasetId))) return this.fail(project, datasetId, 'noPermission');
    const wanted = move
      ? (row.currentVersionId ?? row.attachment.versionId)
      : (row.attachment.versionId ?? row.currentVersionId);
    const version = await readyVersion(this.ctx.db, wanted);
    const cache = this.driver.datasets;
    if (!version || !cache) return this.fail(project, datasetId, version ? 'failed' : 'notReady');
    const moved = version.id !== row.attachment.versionId;
    await setSyncState(this.ctx.db, project.id, datasetId, {
      syncState: 'inProgress',
      syncError: null,
      versionId: version.id,
    });
    if (!(await cache.has(version.id))) {
      try {
        await assertDiskRoom(path.dirname(cache.dir), this.ctx.config.minFreeDiskMb, version.totalBytes);
      } catch {
        return this.fail(project, datasetId, 'noSpace');
      }
      const files = await versionFiles(this.ctx.db, version.id);
      await cache.ensure(
        version.id,
        files,
        async (file) => (await this.ctx.storage.get(datasetFileKey(version, file))).stream,
      );
    }
    // In place before it says success, so a notebook run on the word finds it.
    const { blocked } = await this.relink(project, { mountName: row.attachment.mountName, versionId: version.id });
    const inTheWay = blocked.includes(row.attachment.mountName);
    const stillAttached = await setSyncState(this.ctx.db, project.id, datasetId, {
      syncState: inTheWay ? 'failure' : 'success',
      syncError: inTheWay ? 'inTheWay' : null,
    });
    // Detached meanwhile: its link goes again.
    if (!stillAttached) await this.relink(project);
    if (moved || !stillAttached) await this.prune();
  }

  /** The mounts of the project's attachments that synchronised and whose copies are there. */
  private async readyMounts(projectId: string, also?: DatasetMount): Promise<DatasetMount[]> {
    const cache = this.driver.datasets;
    if (!cache) return [];
    const mounts: DatasetMount[] = also ? [also] : [];
    for (const { attachment } of await listAttachments(this.ctx.db, projectId)) {
      if (attachment.mountName === also?.mountName) continue;
      if (attachment.syncState !== 'success' || !attachment.versionId) continue;
      if (await cache.has(attachment.versionId)) {
        mounts.push({ mountName: attachment.mountName, versionId: attachment.versionId });
      }
    }
    return mounts;
  }

  /**
   * Puts the workspace's dataset links in line with the attachments that synchronised, and `also` (one being
   * synchronised); one placement of a project at a time.
   */
  relink(project: RuntimeProject, also?: DatasetMount): Promise<{ blocked: string[] }> {
    const previous = this.linking.get(project.id) ?? Promise.resolve();
    const next = previous
      .catch(() => undefined)
      .then(async () => {
        const mounts = await this.readyMounts(project.id, also);
        return (await this.driver.mountDatasets?.(project, mounts)) ?? { blocked: [] };
      });
    this.linking.set(project.id, next);
    void next
      .finally(() => {
        if (this.linking.get(project.id) === next) this.linking.delete(project.id);
      })
      .catch(() => undefined);
    return next;
  }

  /**
   * At a runtime's start: datasets the starting user may no longer see fail with `noPermission` and are not
   * mounted; the others whose copies are ready are mounted now, and those not yet synchronised are synchronised in
   * the background (a local runtime sees them as soon as they are; a pod at its next start).
   */
  async mountsAtStart(project: RuntimeProject, user: { userId: string; customerId: string | null }) {
    const caller: AuthContext = { ...user, roles: [], sessionId: '', mustChangePassword: false };
    const cache = this.driver.datasets;
    const attachments = await listAttachments(this.ctx.db, project.id);
    // Most projects have none: their start spends nothing on datasets (a detach already removed its link).
    if (attachments.length === 0) return [];
    for (const { attachment } of attachments) {
      if (!(await maySee(this.ctx, caller, attachment.datasetId))) {
        await setSyncState(this.ctx.db, project.id, attachment.datasetId, {
          syncState: 'failure',
          syncError: 'noPermission',
        });
        continue;
      }
      const ready =
        attachment.syncState === 'success' && attachment.versionId && (await cache?.has(attachment.versionId));
      if (!ready) this.schedule(project, attachment.datasetId, caller, false);
    }
    await this.relink(project);
    return this.readyMounts(project.id);
  }

  /** Removes the copies of versions no project mounts any more. */
  async prune(): Promise<void> {
    const cache = this.driver.datasets;
    if (!cache) return;
    const removed = await cache.prune(await versionsInUse(this.ctx.db));
    if (removed.length > 0) this.log.info({ removed }, 'dataset copies no project uses removed');
  }
}

export async function listProjectDatasets(ctx: AppContext, projectId: string, language: Language) {
  return (await listAttachments(ctx.db, projectId)).map((row) => presentAttachment(row, language));
}

async function attachmentOf(ctx: AppContext, projectId: string, datasetId: string, language: Language) {
  const [row] = await listAttachments(ctx.db, projectId, datasetId);
  if (!row) throw new AppError('NOT_FOUND');
  return presentAttachment(row, language);
}

/**
 * Attaches a dataset the caller may see to the project, at its current version, under a folder name made from its
 * name and unique in the project; the copy is made in the background.
 */
export async function attachDataset(
  ctx: AppContext,
  sync: DatasetSync,
  caller: AuthContext,
  project: RuntimeProject & { customerId: string | null },
  datasetId: string,
  language: Language,
) {
  const { dataset } = await loadDatasetFor(ctx.db, caller, datasetId, 'view');
  const version = await readyVersion(ctx.db, dataset.currentVersionId);
  if (!version) throw new AppError('DATASET_NOT_READY');
  // Two attaches at once may pick the same folder name: the one that loses picks again.
  for (let attempt = 0; ; attempt++) {
    const inserted = await ctx.db.transaction(async (tx) => {
      if (await isAttached(tx, project.id, datasetId)) throw new AppError('DATASET_ALREADY_ATTACHED');
      const mountName = datasetMountName(dataset.name, await mountNamesOf(tx, project.id));
      return insertAttachment(tx, {
        projectId: project.id,
        datasetId,
        customerId: project.customerId,
        versionId: version.id,
        mountName,
        syncState: 'inProgress',
        attachedBy: caller.userId,
      });
    });
    if (inserted.length > 0) break;
    if (attempt >= 3 || (await isAttached(ctx.db, project.id, datasetId))) {
      throw new AppError('DATASET_ALREADY_ATTACHED');
    }
  }
  sync.schedule(project, datasetId, caller, false);
  return attachmentOf(ctx, project.id, datasetId, language);
}

/** Detaches a dataset: its folder leaves the workspace, and its copy the disk once no project mounts it. */
export async function detachDataset(ctx: AppContext, sync: DatasetSync, project: RuntimeProject, datasetId: string) {
  if (!(await deleteAttachment(ctx.db, project.id, datasetId))) throw new AppError('NOT_FOUND');
  await sync.relink(project);
  await sync.prune();
}

/**
 * Synchronises an attachment again: a retry after a failure, or a move to the dataset's current version. A
 * dataset the caller can no longer see is not synchronised: it fails with `noPermission` at once.
 */
export async function resyncDataset(
  ctx: AppContext,
  sync: DatasetSync,
  caller: AuthContext,
  project: RuntimeProject,
  datasetId: string,
  language: Language,
) {
  if (!(await isAttached(ctx.db, project.id, datasetId))) throw new AppError('NOT_FOUND');
  if (await maySee(ctx, caller, datasetId)) {
    await setSyncState(ctx.db, project.id, datasetId, { syncState: 'inProgress', syncError: null });
    sync.schedule(project, datasetId, caller, true);
  } else {
    await setSyncState(ctx.db, project.id, datasetId, { syncState: 'failure', syncError: 'noPermission' });
    await sync.relink(project);
  }
  return attachmentOf(ctx, project.id, datasetId, language);
}
