import { createReadStream } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { EVENT_API, EVENT_LIMITS } from '@aiedu/contracts';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { fileTypeFromFile } from 'file-type';
import { requireAuth } from '../../platform/auth/auth-guard.js';
import type { AppContext } from '../../platform/context.js';
import { eventWorks } from '../../platform/db/schema/index.js';
import { assertDiskRoom } from '../../platform/disk-space.js';
import { AppError } from '../../platform/errors.js';
import { reencodeImage } from '../../platform/images.js';
import type { ServerInstance } from '../../platform/server-instances.js';
import { parseUploadMetadata, registerResumableUploads } from '../../platform/tus-uploads.js';
import { readUpload } from '../../platform/uploads.js';
import { parseRange } from '../files/media-types.js';
import { findEvent } from './event-access.js';
import { assertSubmissionOpen, COVER_FOLDER, readableWork, teamWork, VIDEO_FOLDER } from './work.service.js';
import { fileUrl } from './work.repository.js';
import { isUuid } from '../../platform/ids.js';

/** A work's cover: JPG or PNG up to 10 MB, checked by its bytes and re-encoded. */
export async function uploadCover(ctx: AppContext, request: FastifyRequest) {
  const upload = await readUpload(request, EVENT_LIMITS.imageBytes);
  const png = await reencodeImage(upload.bytes, ['jpeg', 'png'], { width: 1920, height: 1920, fit: 'inside' });
  const key = `${COVER_FOLDER}/${randomUUID()}.png`;
  await ctx.storage.put(key, Readable.from([png]), { maxBytes: EVENT_LIMITS.imageBytes });
  return { key, url: fileUrl(ctx, key)! };
}

/** A draft the caller's team may still change: submission open, state DRAFT. */
async function changeableDraft(ctx: AppContext, request: FastifyRequest, workId: string) {
  const { work, event } = await teamWork(ctx, requireAuth(request), workId);
  assertSubmissionOpen(ctx, event);
  if (work.state !== 'DRAFT') throw new AppError('EVENT_STATE_INVALID', { state: work.state });
  return work;
}

/**
 * Resumable uploads of a work's video (tus): MP4 up to 500 MB, by the work's team while it is a draft and
 * submission is open. The finished file is checked by its bytes, stored, and becomes the work's video.
 */
export function registerVideoUploads(app: FastifyInstance, ctx: AppContext, instance: ServerInstance) {
  const uploads = registerResumableUploads(app, ctx, instance, {
    folder: 'event-videos',
    url: EVENT_API.workVideoUploads,
    maxSize: EVENT_LIMITS.videoBytes,
    config: { permission: 'event.take' },
    tag: 'event',
    summary: "Start a resumable (tus) upload of a work's video (MP4 ≤ 500 MB; workId in the metadata)",
    authorise,
    finish: async (upload, file) => {
      const workId = upload.metadata?.workId ?? '';
      const type = await fileTypeFromFile(file);
      if (!type || type.mime !== 'video/mp4') throw new AppError('BAD_REQUEST', { reason: 'MP4 only' });
      const work = await ctx.db.select().from(eventWorks).where(eq(eventWorks.id, workId));
      if (!work[0]) throw new AppError('NOT_FOUND');
      const event = await findEvent(ctx.db, work[0].eventId);
      assertSubmissionOpen(ctx, event);
      const key = `${VIDEO_FOLDER}/${randomUUID()}.mp4`;
      await ctx.storage.put(key, createReadStream(file), { maxBytes: EVENT_LIMITS.videoBytes });
      const [row] = await ctx.db
        .update(eventWorks)
        .set({ videoKey: key, updatedAt: ctx.now() })
        .where(and(eq(eventWorks.id, workId), eq(eventWorks.state, 'DRAFT')))
        .returning({ old: eventWorks.videoKey });
      if (!row) {
        await ctx.storage.delete(key);
        throw new AppError('EVENT_STATE_INVALID');
      }
      if (work[0].videoKey) await ctx.storage.delete(work[0].videoKey);
      return { headers: { 'x-video-key': key, 'access-control-expose-headers': 'x-video-key' } };
    },
  });

  async function authorise(request: FastifyRequest, uploadId: string | undefined) {
    if (!uploadId) {
      const meta = parseUploadMetadata(request.headers['upload-metadata'] as string | undefined);
      if (!meta.workId || !isUuid(meta.workId)) throw new AppError('BAD_REQUEST');
      const length = Number(request.headers['upload-length']);
      if (!Number.isFinite(length) || length < 0) throw new AppError('BAD_REQUEST');
      if (length > EVENT_LIMITS.videoBytes) throw new AppError('FILE_TOO_LARGE');
      await assertDiskRoom(uploads.directory, ctx.config.minFreeDiskMb, ctx.storage.localDir ? 2 * length : length);
      await changeableDraft(ctx, request, meta.workId);
      return;
    }
    const workId = (await uploads.metadataOf(uploadId))?.workId;
    if (!workId) throw new AppError('NOT_FOUND');
    await changeableDraft(ctx, request, workId);
  }
}

/** A work's video to whoever may read the work, with byte ranges so a browser's player can seek. */
export async function sendVideo(ctx: AppContext, request: FastifyRequest, reply: FastifyReply, workId: string) {
  const { work } = await readableWork(ctx, request.auth, workId);
  if (!work.videoKey) throw new AppError('NOT_FOUND');
  const total = await ctx.storage.size(work.videoKey);
  const range = parseRange(request.headers.range, total);
  if (range === 'invalid') return reply.code(416).header('content-range', `bytes */${total}`).send();
  const { stream } = await ctx.storage.get(work.videoKey, range ?? undefined);
  reply.header('accept-ranges', 'bytes').header('cache-control', 'private, no-store').type('video/mp4');
  if (range) {
    reply
      .code(206)
      .header('content-range', `bytes ${range.start}-${range.end}/${total}`)
      .header('content-length', range.end - range.start + 1);
  } else {
    reply.header('content-length', total);
  }
  return reply.send(stream);
}
