import { rm } from 'node:fs/promises';
import { DATASET_API } from '@aiedu/contracts';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { requireAuth } from '../../platform/auth/auth-guard.js';
import type { AppContext } from '../../platform/context.js';
import { assertDiskRoom } from '../../platform/disk-space.js';
import { AppError } from '../../platform/errors.js';
import { parseUploadMetadata, registerResumableUploads, safeFileName } from '../../platform/tus-uploads.js';
import { ownerUsage } from '../project/file.service.js';
import type { RuntimeManager } from '../runtime/runtime-manager.js';
import { datasetById, loadDatasetFor } from './dataset-access.js';
import {
  checkDatasetZip,
  createVersion,
  extractionsRunning,
  extractInBackground,
  failStaleVersions,
  holdZip,
} from './dataset-extract.js';
import { isUuid } from '../../platform/ids.js';

/**
 * Resumable uploads of a dataset's zip (tus, `platform/tus-uploads.ts`), by its owner, even once published (new data
 * is a new version). The finished file is checked from its central directory before anything is extracted, and a
 * refused zip answers its archive code and leaves nothing (no version, no file, no stored object). An accepted one
 * becomes the next version, `processing`, extracted in the background (`x-version-id` names it).
 */
export const datasetUploadRoutes: FastifyPluginAsync<{ ctx: AppContext; manager: RuntimeManager }> = async (
  app,
  { ctx, manager },
) => {
  const { instance, driver } = manager;
  const uploads = registerResumableUploads(app, ctx, instance, {
    folder: 'datasets',
    url: DATASET_API.uploads,
    maxSize: ctx.config.datasets.maxZipBytes,
    config: { auth: 'required' },
    tag: 'dataset',
    summary: "Start a resumable (tus) upload of a dataset's zip",
    authorise,
    finish: async (upload, file) => {
      const meta = upload.metadata ?? {};
      let held: string | null = null;
      try {
        // The request was authorised as the dataset's owner's before tus saw it.
        const dataset = await datasetById(ctx.db, meta.datasetId ?? '');
        if (!dataset) throw new AppError('NOT_FOUND');
        // Out of the upload folder first: the checked file is the one extracted, whenever that happens.
        held = await holdZip(ctx, file, upload.id);
        const zip = await checkDatasetZip(ctx, held, await ownerUsage(ctx, driver, dataset.ownerId));
        const version = await createVersion(ctx, dataset, {
          name: safeFileName(meta.filename ?? '', 'data.zip'),
          bytes: upload.size ?? upload.offset,
          totalBytes: zip.totalBytes,
        });
        extractInBackground(ctx, version, zip, held);
        held = null;
        return { headers: { 'x-version-id': version.id, 'access-control-expose-headers': 'x-version-id' } };
      } finally {
        if (held) await rm(held, { force: true });
      }
    },
    sweep: () =>
      failStaleVersions(ctx).catch((error: unknown) => app.log.warn({ err: error }, 'stale versions not failed')),
  });
  app.addHook('onClose', () => extractionsRunning().then(() => undefined));

  /** The dataset of a new upload, or of an upload under way: the caller must own it. */
  async function authorise(request: FastifyRequest, uploadId: string | undefined) {
    const auth = requireAuth(request);
    if (!uploadId) {
      const meta = parseUploadMetadata(request.headers['upload-metadata'] as string | undefined);
      if (!meta.datasetId || !isUuid(meta.datasetId)) throw new AppError('BAD_REQUEST');
      const length = Number(request.headers['upload-length']);
      if (!Number.isFinite(length) || length < 0) throw new AppError('BAD_REQUEST');
      if (length === 0) throw new AppError('ARCHIVE_EMPTY');
      if (length > ctx.config.datasets.maxZipBytes) throw new AppError('FILE_TOO_LARGE');
      await loadDatasetFor(ctx.db, auth, meta.datasetId, 'own');
      // The zip on disk, then its files unpacked at least as large: both must fit.
      await assertDiskRoom(uploads.directory, ctx.config.minFreeDiskMb, ctx.storage.localDir ? 2 * length : length);
      if ((await ownerUsage(ctx, driver, auth.userId)) + length > ctx.config.userStorageQuotaBytes) {
        throw new AppError('NO_SPACE');
      }
      return auth;
    }
    const datasetId = (await uploads.metadataOf(uploadId))?.datasetId;
    if (!datasetId) throw new AppError('NOT_FOUND');
    await loadDatasetFor(ctx.db, auth, datasetId, 'own');
    return auth;
  }
};
