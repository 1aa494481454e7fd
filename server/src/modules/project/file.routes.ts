import {
  API,
  PROJECT_LIMITS,
  ZCopyRequest,
  ZStorageUsage,
  openKindOf,
  ZCreateEntryRequest,
  ZFileContent,
  ZFileNode,
  ZFilePathQuery,
  ZMoveRequest,
  ZRenameRequest,
  ZSaveFileRequest,
  projectApi,
} from '@aiedu/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../platform/context.js';
import { envelopeOf, ok } from '../../platform/envelope.js';
import type { RuntimeDriver } from '../runtime/runtime-driver.js';
import { ownerUsage, ProjectFiles } from './file.service.js';
import { requireAuth } from '../../platform/auth/auth-guard.js';
import { projectOf } from './project-access.js';
import { fileTree } from './workspace-files.js';
import { openUpload } from '../../platform/uploads.js';

const ZParams = z.object({ id: z.uuid() });
const paths = projectApi(':id');

/** The editor's file tree: list, create, rename, move, delete, open, save, upload and download. */
export const fileRoutes: FastifyPluginAsyncZod<{ ctx: AppContext; driver: RuntimeDriver }> = async (
  app,
  { ctx, driver },
) => {
  const tags = ['project files'];
  const view = { auth: 'required' as const, project: 'view' as const };
  const edit = { auth: 'required' as const, project: 'edit' as const };
  const files = (request: Parameters<typeof projectOf>[0]) => new ProjectFiles(ctx, driver, projectOf(request).project);

  app.get(
    paths.files,
    {
      config: view,
      schema: { tags, summary: 'The file tree', params: ZParams, response: envelopeOf(z.array(ZFileNode)) },
    },
    async (request) => ok(await fileTree(files(request).root)),
  );

  app.post(
    paths.files,
    {
      config: edit,
      schema: {
        tags,
        summary: 'Create a file or folder (name ≤ 30, no special characters: 3106; existing: 2002)',
        params: ZParams,
        body: ZCreateEntryRequest,
        response: envelopeOf(z.object({ path: z.string() })),
      },
    },
    async (request) => {
      const { folder, name, kind } = request.body;
      return ok({ path: await files(request).create(folder, name, kind) });
    },
  );

  app.put(
    paths.fileRename,
    {
      config: edit,
      schema: { tags, summary: 'Rename', params: ZParams, body: ZRenameRequest, response: envelopeOf(z.null()) },
    },
    async (request) => {
      await files(request).rename(request.body.path, request.body.name);
      return ok(null);
    },
  );

  app.put(
    paths.fileMove,
    {
      config: edit,
      schema: {
        tags,
        summary: 'Move into another folder (never into itself: 2001)',
        params: ZParams,
        body: ZMoveRequest,
        response: envelopeOf(z.null()),
      },
    },
    async (request) => {
      await files(request).move(request.body.path, request.body.toFolder);
      return ok(null);
    },
  );

  app.post(
    paths.fileCopy,
    {
      config: edit,
      schema: {
        tags,
        summary:
          'Copy a file or folder (by default beside it, as name_copy.ext); a folder never into itself (2001), within the owner quota and the disk floor (2003)',
        params: ZParams,
        body: ZCopyRequest,
        response: envelopeOf(z.object({ path: z.string() })),
      },
    },
    async (request) => {
      const { path, toFolder, name } = request.body;
      return ok({ path: await files(request).copy(path, toFolder, name) });
    },
  );

  app.get(
    paths.storage,
    {
      config: edit,
      schema: {
        tags,
        summary: "The storage the project owner's projects take, against the owner's quota",
        params: ZParams,
        response: envelopeOf(ZStorageUsage),
      },
    },
    async (request) =>
      ok({ usedBytes: await files(request).ownerUsage(), quotaBytes: ctx.config.userStorageQuotaBytes }),
  );

  app.get(
    API.accountStorage,
    {
      config: { auth: 'required' },
      schema: {
        tags,
        summary: "The storage the caller's projects take (workspaces and kept versions), against their quota",
        response: envelopeOf(ZStorageUsage),
      },
    },
    async (request) =>
      ok({
        usedBytes: await ownerUsage(ctx, driver, requireAuth(request).userId),
        quotaBytes: ctx.config.userStorageQuotaBytes,
      }),
  );

  app.delete(
    paths.files,
    {
      config: edit,
      schema: {
        tags,
        summary: 'Delete a file or folder',
        params: ZParams,
        querystring: ZFilePathQuery,
        response: envelopeOf(z.null()),
      },
    },
    async (request) => {
      await files(request).remove(request.query.path);
      return ok(null);
    },
  );

  app.get(
    paths.fileContent,
    {
      config: view,
      schema: {
        tags,
        summary: 'A text file or notebook (over the open limit of its kind: 3107)',
        params: ZParams,
        querystring: ZFilePathQuery,
        response: envelopeOf(ZFileContent),
      },
    },
    async (request) => ok(await files(request).read(request.query.path)),
  );

  app.put(
    paths.fileContent,
    {
      config: edit,
      bodyLimit: 20 * 1024 * 1024,
      schema: {
        tags,
        summary: 'Save a text file or notebook',
        params: ZParams,
        body: ZSaveFileRequest,
        response: envelopeOf(z.null()),
      },
    },
    async (request) => {
      await files(request).save(request.body.path, request.body.content);
      return ok(null);
    },
  );

  app.post(
    paths.fileUpload,
    {
      config: edit,
      schema: {
        tags,
        summary: 'Upload one file (multipart "file", ≤ 100 MB) into `folder`',
        consumes: ['multipart/form-data'],
        params: ZParams,
        querystring: z.object({ folder: z.string().max(1000).default('') }),
        response: envelopeOf(z.object({ path: z.string(), size: z.number().int() })),
      },
    },
    async (request) => {
      const file = await openUpload(request, PROJECT_LIMITS.uploadBytes);
      return ok(await files(request).upload(request.query.folder, file.filename, file.stream));
    },
  );

  app.get(
    paths.fileDownload,
    {
      config: view,
      schema: {
        tags,
        summary: 'Download a file (also images, PDF, audio, video for the editor tabs)',
        params: ZParams,
        querystring: ZFilePathQuery,
      },
    },
    async (request, reply) => {
      const { stream, size, name } = await files(request).download(request.query.path);
      const inline = ['image', 'pdf', 'video', 'audio'].includes(openKindOf(name));
      // Served from our origin, a file must never run as a page (an SVG or HTML with script).
      reply.header('content-security-policy', "sandbox; default-src 'none'; img-src 'self' data:; media-src 'self'");
      reply.header('content-length', size);
      reply.header('content-type', contentType(name));
      reply.header(
        'content-disposition',
        `${inline ? 'inline' : 'attachment'}; filename*=UTF-8''${encodeURIComponent(name)}`,
      );
      return reply.send(stream);
    },
  );
};

const TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  svg: 'image/svg+xml',
  bmp: 'image/bmp',
  webp: 'image/webp',
  pdf: 'application/pdf',
  mp4: 'video/mp4',
  webm: 'video/webm',
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  ogg: 'audio/ogg',
};
function contentType(name: string): string {
  const ext = name.toLowerCase().split('.').pop() ?? '';
  return TYPES[ext] ?? 'application/octet-stream';
}
