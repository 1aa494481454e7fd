import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { FileStore } from '@tus/file-store';
import { Server as TusServer, type Upload } from '@tus/server';
import type { FastifyContextConfig, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { requireAuth } from './auth/auth-guard.js';
import type { AppContext } from './context.js';
import { AppError } from './errors.js';
import { forwardRequest, wasForwarded } from './forwarding.js';
import { errorMessage, languageOf } from './i18n.js';
import type { ServerInstance } from './server-instances.js';

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

/**
 * The tus file store for a folder made beforehand. The store's own constructor makes the folder too, with a callback
 * that throws out of band when it cannot: an app closed and its data directory removed before that callback ran
 * crashed the process. The folder is made at once instead (`mkdirSync` below), and the store's step is skipped.
 */
export class MadeDirectoryFileStore extends FileStore {}
(MadeDirectoryFileStore.prototype as unknown as { checkOrCreateDirectory(): void }).checkOrCreateDirectory = () => {};

/** `<process id>_<32 hex>`: the process that holds the upload. Ids from before processes were named have none. */
const UPLOAD_HOLDER = /^([0-9a-f-]{36})_[0-9a-f]{32}$/;

/** A client's file name made safe to keep: no folders, no NUL, at most 200 characters. */
export const safeFileName = (name: string, fallback: string) => name.replace(/[\\/\0]/g, '_').slice(0, 200) || fallback;

export interface ResumableUploadOptions {
  /** the folder under `DATA_DIR/uploads` that holds the bytes so far */
  folder: string;
  url: string;
  maxSize: number;
  /** the routes' config: who may call them at all (the auth guard's part) */
  config: FastifyContextConfig;
  tag: string;
  summary: string;
  /**
   * Checks the caller before tus sees the request: for a new upload (`uploadId` undefined) from its headers
   * (`parseUploadMetadata`), for one under way from the metadata it was started with (`metadataOf`).
   */
  authorise(request: FastifyRequest, uploadId: string | undefined): Promise<unknown>;
  /**
   * Makes what the finished file is for, and answers the headers of the last response. An `AppError` is answered
   * as the envelope with its status; the file is removed either way.
   */
  finish(upload: Upload, file: string, language: string | null): Promise<{ headers?: Record<string, string> }>;
  /** more work for the hourly sweep */
  sweep?: () => Promise<unknown>;
}

/**
 * Resumable uploads (the tus protocol) on `url`: bytes stream to a file on disk, never into memory, and an
 * interrupted upload continues from its offset. An upload's id names the process whose disk holds its bytes, and any
 * other process passes its requests on; uploads never finished are swept away once expired.
 */
export function registerResumableUploads(
  app: FastifyInstance,
  ctx: AppContext,
  instance: ServerInstance,
  options: ResumableUploadOptions,
) {
  const directory = path.join(ctx.config.dataDir, 'uploads', options.folder);
  mkdirSync(directory, { recursive: true });
  const datastore = new MadeDirectoryFileStore({ directory, expirationPeriodInMilliseconds: UPLOAD_EXPIRY_MS });
  const tus = new TusServer({
    path: options.url,
    datastore,
    namingFunction: () => `${instance.id}_${randomUUID().replaceAll('-', '')}`,
    maxSize: options.maxSize,
    respectForwardedHeaders: ctx.config.trustProxy,
    onUploadFinish: async (req, upload) => {
      const file = upload.storage?.path ?? path.join(directory, upload.id);
      try {
        return await options.finish(upload, file, req.headers.get('language'));
      } catch (error) {
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

  // Uploads never finished (a closed laptop, a process on another machine that stopped) are deleted once expired.
  const sweep = () =>
    Promise.all([
      tus.cleanUpExpiredUploads().catch((error: unknown) => app.log.warn({ err: error }, 'expired uploads not swept')),
      options.sweep?.(),
    ]);
  let sweeping: NodeJS.Timeout | undefined;
  app.addHook('onReady', async () => {
    void sweep();
    sweeping = setInterval(() => void sweep(), SWEEP_MS);
    sweeping.unref();
  });
  app.addHook('onClose', async () => clearInterval(sweeping));

  app.addContentTypeParser('application/offset+octet-stream', (_request, _payload, done) => done(null));
  const hand = async (request: FastifyRequest, reply: FastifyReply) => {
    const uploadId = (request.params as { '*'?: string })['*'];
    const holder = uploadId ? UPLOAD_HOLDER.exec(uploadId)?.[1] : undefined;
    if (holder && holder !== instance.id && !wasForwarded(request)) {
      // The holder checks the caller's right; this process only that the caller is signed in.
      requireAuth(request);
      const address = await instance.addressOf(holder);
      if (address) {
        const body = request.method === 'PATCH' ? request.raw : undefined;
        return forwardRequest(request, reply, address, instance.id, body);
      }
      // Its process has gone. A restart (or a process beside it on the same disk) goes on from the bytes on this
      // disk; anywhere else the upload is not found, and the client starts it again.
    }
    await options.authorise(request, uploadId);
    reply.hijack();
    await tus.handle(request.raw, reply.raw);
  };
  app.route({
    method: ['POST'],
    url: options.url,
    config: options.config,
    schema: { tags: [options.tag], summary: options.summary },
    handler: hand,
  });
  app.route({
    method: ['HEAD', 'PATCH', 'DELETE'],
    url: `${options.url}/*`,
    config: options.config,
    schema: { tags: [options.tag], summary: 'Resume (HEAD), continue (PATCH) or cancel (DELETE) a resumable upload' },
    handler: hand,
  });

  return {
    directory,
    /** The metadata an upload under way was started with, or null for an unknown or malformed id. */
    async metadataOf(uploadId: string): Promise<Record<string, string> | null> {
      if (!/^[\w-]{1,100}$/.test(uploadId)) return null;
      const upload = await datastore.getUpload(uploadId).catch(() => null);
      return (upload?.metadata as Record<string, string> | undefined) ?? null;
    },
  };
}
