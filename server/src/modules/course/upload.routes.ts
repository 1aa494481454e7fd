import { createReadStream } from 'node:fs';
import { COURSE_API, LIMITS } from '@aiedu/contracts';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { v7 as uuidv7 } from 'uuid';
import { requireAuth } from '../../platform/auth/auth-guard.js';
import type { AppContext } from '../../platform/context.js';
import { courseResources } from '../../platform/db/schema/index.js';
import { assertDiskRoom } from '../../platform/disk-space.js';
import { AppError } from '../../platform/errors.js';
import type { ServerInstance } from '../../platform/server-instances.js';
import { parseUploadMetadata, registerResumableUploads, safeFileName } from '../../platform/tus-uploads.js';
import { mediaTypeByContent } from '../files/media-types.js';
import { loadPartForAuthor } from './course-access.js';
import { countRows } from './course-content.repository.js';
import { addResource } from './content.service.js';
import { isUuid } from '../../platform/ids.js';

/**
 * Resumable uploads of section resources (the tus protocol, `platform/tus-uploads.ts`). A file over 2 GB, an 11th
 * file, or one that would leave the disk below `MIN_FREE_DISK_MB`, is refused before any byte is stored. A finished
 * upload is moved into storage and becomes a resource of its section.
 */
export const uploadRoutes: FastifyPluginAsync<{ ctx: AppContext; instance: ServerInstance }> = async (
  app,
  { ctx, instance },
) => {
  const uploads = registerResumableUploads(app, ctx, instance, {
    folder: 'course-resources',
    url: COURSE_API.uploads,
    maxSize: LIMITS.resourceBytes,
    config: { permission: 'course.author' },
    tag: 'course',
    summary: 'Start a resumable (tus) upload of a section resource',
    authorise,
    finish: async (upload, file) => {
      const meta = upload.metadata ?? {};
      const name = safeFileName(meta.filename ?? 'file', 'file');
      const storageKey = `courses/resources/${uuidv7()}`;
      try {
        const mime = await mediaTypeByContent(file, name);
        await ctx.storage.put(storageKey, createReadStream(file), { maxBytes: LIMITS.resourceBytes });
        const row = await addResource(ctx, meta.sectionId ?? '', {
          name,
          storageKey,
          size: upload.size ?? upload.offset,
          mime,
        });
        return { headers: { 'x-resource-id': row.id, 'access-control-expose-headers': 'x-resource-id' } };
      } catch (error) {
        await ctx.storage.delete(storageKey);
        throw error;
      }
    },
  });

  /** The section of a new upload, or of an upload under way: the caller must be able to edit it. */
  async function authorise(request: FastifyRequest, uploadId: string | undefined) {
    const auth = requireAuth(request);
    if (!uploadId) {
      const meta = parseUploadMetadata(request.headers['upload-metadata'] as string | undefined);
      if (!meta.sectionId || !isUuid(meta.sectionId)) throw new AppError('BAD_REQUEST');
      const length = Number(request.headers['upload-length']);
      if (!Number.isFinite(length) || length < 0) throw new AppError('BAD_REQUEST');
      if (length > LIMITS.resourceBytes) throw new AppError('FILE_TOO_LARGE');
      // The bytes land in the upload folder, then (without a bucket) are copied into the stored files beside it.
      await assertDiskRoom(uploads.directory, ctx.config.minFreeDiskMb, ctx.storage.localDir ? 2 * length : length);
      await loadPartForAuthor(ctx.db, auth, 'section', meta.sectionId);
      if ((await countRows(ctx.db, courseResources, 'sectionId', meta.sectionId)) >= LIMITS.resourcesPerSection) {
        throw new AppError('COURSE_RESOURCES_FULL');
      }
      return;
    }
    const sectionId = (await uploads.metadataOf(uploadId))?.sectionId;
    if (!sectionId) throw new AppError('NOT_FOUND');
    await loadPartForAuthor(ctx.db, auth, 'section', sectionId);
  }
};
