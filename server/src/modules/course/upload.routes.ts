import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { COURSE_API, LIMITS } from '@aiedu/contracts';
import { FileStore } from '@tus/file-store';
import { Server as TusServer } from '@tus/server';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { v7 as uuidv7 } from 'uuid';
import { requireAuth } from '../../platform/auth/auth-guard.js';
import type { AppContext } from '../../platform/context.js';
import { courseResources } from '../../platform/db/schema/index.js';
import { assertDiskRoom } from '../../platform/disk-space.js';
import { AppError } from '../../platform/errors.js';
import { forwardRequest, wasForwarded } from '../../platform/forwarding.js';
import type { ServerInstance } from '../../platform/server-instances.js';
import { errorMessage, languageOf } from '../../platform/i18n.js';
import { mediaTypeByContent } from '../files/media-types.js';
import { loadPartForAuthor } from './course-access.js';
import { countRows } from './course-content.repository.js';
import { addResource } from './content.service.js';

/** The tus Upload-Metadata header: comma-separated `key base64value` pairs. */
export function parseUploadMetadata(header: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of (header ?? '').split(',')) {
    const [key, value] = pair.trim().split(' ');
    if (key) out[key] = value ? Buffer.from(value, 'base64').toString('utf8') : '';
  }
  return out;
}

/** An upload not finished a week after it began is deleted (tus answers 410 for it meanwhile, then 404). */
export const UPLOAD_EXPIRY_MS = 7 * 86_400_000;
/** How often a process sweeps away expired uploads (and once when it starts). */
const SWEEP_MS = 3_600_000;

/** `<process id>_<32 hex>`: the process that holds the upload. Ids from before processes were named have none. */
const UPLOAD_HOLDER = /^([0-9a-f-]{36})_[0-9a-f]{32}$/;

const safeName = (name: string) => name.replace(/[\\/\0]/g, '_').slice(0, 200) || 'file';

/**
 * Resumable uploads of section resources (the tus protocol). Bytes stream to a file on disk, never into memory;
 * an interrupted upload continues from its offset. A file over 2 GB, an 11th file, or one that would leave the
 * disk below `MIN_FREE_DISK_MB`, is refused before any byte is stored. A finished upload is moved into storage and becomes a resource of its section.
 */
export const uploadRoutes: FastifyPluginAsync<{ ctx: AppContext; instance: ServerInstance }> = async (
  app,
  { ctx, instance },
) => {
  const directory = path.join(ctx.config.dataDir, 'uploads', 'course-resources');
  const datastore = new FileStore({ directory, expirationPeriodInMilliseconds: UPLOAD_EXPIRY_MS });
  const tus = new TusServer({
    path: COURSE_API.uploads,
    datastore,
    // An upload's id names the process whose disk holds its bytes so far: any other process passes its requests on.
    namingFunction: () => `${instance.id}_${randomUUID().replaceAll('-', '')}`,
    maxSize: LIMITS.resourceBytes,
    respectForwardedHeaders: ctx.config.trustProxy,
    onUploadFinish: async (req, upload) => {
      const meta = upload.metadata ?? {};
      const name = safeName(meta.filename ?? 'file');
      const file = upload.storage?.path ?? path.join(directory, upload.id);
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
        return {
          headers: { 'x-resource-id': row.id, 'access-control-expose-headers': 'x-resource-id' },
        };
      } catch (error) {
        await ctx.storage.delete(storageKey);
        if (!(error instanceof AppError)) throw error;
        const errorMsg = errorMessage(error.entry, languageOf(req.headers.get('language')));
        const body = JSON.stringify({ errorCode: error.code, errorMsg, data: error.details ?? null });
        throw { status_code: error.status, body };
      } finally {
        await rm(file, { force: true });
        await rm(`${file}.json`, { force: true });
      }
    },
  });

  /** The section of a new upload, or of an upload under way: the caller must be able to edit it. */
  async function authorise(request: FastifyRequest, uploadId: string | undefined) {
    const auth = requireAuth(request);
    if (!uploadId) {
      const meta = parseUploadMetadata(request.headers['upload-metadata'] as string | undefined);
      if (!meta.sectionId || !/^[0-9a-f-]{36}$/i.test(meta.sectionId)) throw new AppError('BAD_REQUEST');
      const length = Number(request.headers['upload-length']);
      if (!Number.isFinite(length) || length < 0) throw new AppError('BAD_REQUEST');
      if (length > LIMITS.resourceBytes) throw new AppError('FILE_TOO_LARGE');
      // The bytes land in the upload folder, then (without a bucket) are copied into the stored files beside it.
      await assertDiskRoom(directory, ctx.config.minFreeDiskMb, ctx.storage.localDir ? 2 * length : length);
      await loadPartForAuthor(ctx.db, auth, 'section', meta.sectionId);
      if ((await countRows(ctx.db, courseResources, 'sectionId', meta.sectionId)) >= LIMITS.resourcesPerSection) {
        throw new AppError('COURSE_RESOURCES_FULL');
      }
      return;
    }
    if (!/^[\w-]{1,100}$/.test(uploadId)) throw new AppError('NOT_FOUND');
    const upload = await datastore.getUpload(uploadId).catch(() => null);
    const sectionId = upload?.metadata?.sectionId;
    if (!sectionId) throw new AppError('NOT_FOUND');
    await loadPartForAuthor(ctx.db, auth, 'section', sectionId);
  }

  // Uploads never finished (a closed laptop, a process on another machine that stopped) are deleted once expired.
  const sweep = () =>
    tus.cleanUpExpiredUploads().catch((error: unknown) => app.log.warn({ err: error }, 'expired uploads not swept'));
  let sweeping: NodeJS.Timeout | undefined;
  app.addHook('onReady', async () => {
    void sweep();
    sweeping = setInterval(() => void sweep(), SWEEP_MS);
    sweeping.unref();
  });
  app.addHook('onClose', async () => clearInterval(sweeping));

  app.addContentTypeParser('application/offset+octet-stream', (_request, _payload, done) => done(null));
  const config = { permission: 'course.author' as const };
  const hand = async (request: FastifyRequest, reply: FastifyReply) => {
    const uploadId = (request.params as { '*'?: string })['*'];
    const holder = uploadId ? UPLOAD_HOLDER.exec(uploadId)?.[1] : undefined;
    if (holder && holder !== instance.id && !wasForwarded(request)) {
      // The holder checks the upload's section; this process only that the caller is signed in.
      requireAuth(request);
      const address = await instance.addressOf(holder);
      if (address) {
        return forwardRequest(
          request,
          reply,
          address,
          instance.id,
          request.method === 'PATCH' ? request.raw : undefined,
        );
      }
      // Its process has gone. A restart (or a process beside it on the same disk) goes on from the bytes on this
      // disk; anywhere else the upload is not found, and the client starts it again.
    }
    await authorise(request, uploadId);
    reply.hijack();
    await tus.handle(request.raw, reply.raw);
  };
  app.route({
    method: ['POST'],
    url: COURSE_API.uploads,
    config,
    schema: { tags: ['course'], summary: 'Start a resumable (tus) upload of a section resource' },
    handler: hand,
  });
  app.route({
    method: ['HEAD', 'PATCH', 'DELETE'],
    url: `${COURSE_API.uploads}/*`,
    config,
    schema: { tags: ['course'], summary: 'Resume (HEAD), continue (PATCH) or cancel (DELETE) a resumable upload' },
    handler: hand,
  });
};
