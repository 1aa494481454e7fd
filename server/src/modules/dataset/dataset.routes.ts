import {
  DATASET_API,
  DATASET_LIMITS,
  datasetApi,
  ZAnnotationSummary,
  ZAnnotationUploadQuery,
  ZCreateDatasetRequest,
  ZDataset,
  ZDatasetDetail,
  ZDatasetFiles,
  ZDatasetFilesQuery,
  ZDatasetListQuery,
  ZDatasetPathQuery,
  ZDatasetPreview,
  ZDatasetRawQuery,
  ZDatasetVersion,
  ZImageAnnotation,
  ZPage,
  ZUpdateDatasetRequest,
} from '@aiedu/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/auth/auth-guard.js';
import type { AppContext } from '../../platform/context.js';
import { envelopeOf, ok } from '../../platform/envelope.js';
import { AppError } from '../../platform/errors.js';
import { readUpload } from '../../platform/uploads.js';
import type { RuntimeManager } from '../runtime/runtime-manager.js';
import { imageBoxes, setAnnotation } from './annotation.service.js';
import { datasetOf, groupsOfUser, registerDatasetGuard } from './dataset-access.js';
import { listFolder, previewFile, rawFile, readyVersion } from './dataset-files.service.js';
import { datasetUploadRoutes } from './dataset-upload.routes.js';
import { listDatasets, versionOf } from './dataset.repository.js';
import {
  createDataset,
  datasetDetail,
  deleteDataset,
  presentDataset,
  presentVersion,
  publishDataset,
  updateDataset,
} from './dataset.service.js';

const ZParams = z.object({ id: z.uuid() });
const ZVersionParams = z.object({ id: z.uuid(), versionId: z.uuid() });
const paths = datasetApi(':id');

/** The dataset API: lists, the form, uploads of a zip (resumable), the file tree and previews, annotations. */
export const datasetRoutes: FastifyPluginAsyncZod<{ ctx: AppContext; manager: RuntimeManager }> = async (
  app,
  { ctx, manager },
) => {
  const tags = ['dataset'];
  const config = { auth: 'required' as const };
  const view = { auth: 'required' as const, dataset: 'view' as const };
  const own = { auth: 'required' as const, dataset: 'own' as const };
  registerDatasetGuard(app, ctx.db);

  await app.register(datasetUploadRoutes, { ctx, manager });

  app.get(
    DATASET_API.base,
    {
      config,
      schema: {
        tags,
        summary: 'Datasets the caller may see (all) or owns (mine), with filters and sort',
        querystring: ZDatasetListQuery,
        response: envelopeOf(ZPage(ZDataset)),
      },
    },
    async (request) => {
      const caller = requireAuth(request);
      const groups = request.query.scope === 'mine' ? [] : await groupsOfUser(ctx.db, caller.userId);
      const page = await listDatasets(ctx.db, caller, groups, request.query);
      return ok({ ...page, list: page.list.map((row) => presentDataset(row, caller)) });
    },
  );

  app.post(
    DATASET_API.base,
    {
      config,
      schema: { tags, summary: 'Create a dataset', body: ZCreateDatasetRequest, response: envelopeOf(ZDatasetDetail) },
    },
    async (request) => {
      const caller = requireAuth(request);
      const dataset = await createDataset(ctx, request, caller, request.body);
      return ok(await datasetDetail(ctx, request, caller, dataset));
    },
  );

  app.get(
    paths.base,
    {
      config: view,
      schema: { tags, summary: 'A dataset and its versions', params: ZParams, response: envelopeOf(ZDatasetDetail) },
    },
    async (request) => {
      const caller = requireAuth(request);
      const { dataset } = datasetOf(request);
      return ok(await datasetDetail(ctx, request, caller, dataset));
    },
  );

  app.put(
    paths.base,
    {
      config: own,
      schema: {
        tags,
        summary:
          'Edit a dataset (not once published: 3201; public stays public: 3206; with a group never private: 3203)',
        params: ZParams,
        body: ZUpdateDatasetRequest,
        response: envelopeOf(ZDatasetDetail),
      },
    },
    async (request) => {
      const caller = requireAuth(request);
      const { dataset } = datasetOf(request);
      const row = await updateDataset(ctx, request, dataset, request.body);
      return ok(await datasetDetail(ctx, request, caller, row));
    },
  );

  app.delete(
    paths.base,
    {
      config: own,
      schema: {
        tags,
        summary: 'Delete a dataset and its data (never a public one: 3202, nor a published one: 3201)',
        params: ZParams,
        response: envelopeOf(z.null()),
      },
    },
    async (request) => {
      const { dataset } = datasetOf(request);
      await deleteDataset(ctx, request, dataset);
      return ok(null);
    },
  );

  app.post(
    paths.publish,
    {
      config: own,
      schema: {
        tags,
        summary: 'Publish a dataset: final, it needs a ready version (3204)',
        params: ZParams,
        response: envelopeOf(ZDatasetDetail),
      },
    },
    async (request) => {
      const caller = requireAuth(request);
      const { dataset } = datasetOf(request);
      const row = await publishDataset(ctx, request, dataset);
      return ok(await datasetDetail(ctx, request, caller, row));
    },
  );

  app.get(
    paths.version(':versionId'),
    {
      config: view,
      schema: {
        tags,
        summary: 'A version and its state (processing, ready or failed with the reason)',
        params: ZVersionParams,
        response: envelopeOf(ZDatasetVersion),
      },
    },
    async (request) => {
      const { dataset } = datasetOf(request);
      const version = await versionOf(ctx.db, dataset.id, request.params.versionId);
      if (!version) throw new AppError('NOT_FOUND');
      return ok(presentVersion(version, request));
    },
  );

  app.get(
    paths.files,
    {
      config: view,
      schema: {
        tags,
        summary: "One folder level of a version's files",
        params: ZParams,
        querystring: ZDatasetFilesQuery,
        response: envelopeOf(ZDatasetFiles),
      },
    },
    async (request) => {
      const { dataset } = datasetOf(request);
      const version = await readyVersion(ctx, dataset, request.query.versionId);
      return ok(await listFolder(ctx, version, request.query.dir));
    },
  );

  app.get(
    paths.preview,
    {
      config: view,
      schema: {
        tags,
        summary: 'What a file shows: image, table (50 rows), text (64 KB) or its size only',
        params: ZParams,
        querystring: ZDatasetPathQuery,
        response: envelopeOf(ZDatasetPreview),
      },
    },
    async (request) => {
      const { dataset } = datasetOf(request);
      const version = await readyVersion(ctx, dataset, request.query.versionId);
      return ok(await previewFile(ctx, dataset, version, request.query.path));
    },
  );

  app.get(
    paths.raw,
    {
      config: view,
      schema: {
        tags,
        summary: "A file's bytes, or an image's thumbnail (thumb=1, PNG, at most 320 px)",
        params: ZParams,
        querystring: ZDatasetRawQuery,
      },
    },
    async (request, reply) => {
      const { dataset } = datasetOf(request);
      const version = await readyVersion(ctx, dataset, request.query.versionId);
      const file = await rawFile(ctx, version, request.query.path, request.query.thumb === '1');
      // The bytes are the uploader's: never rendered as a page of this site.
      reply
        .header('content-type', file.thumbnail ? 'image/png' : 'application/octet-stream')
        .header('content-length', file.size)
        .header('x-content-type-options', 'nosniff')
        .header('content-disposition', `attachment; filename*=UTF-8''${encodeURIComponent(file.name)}`)
        .header('cache-control', 'private, max-age=3600');
      return reply.send(file.stream);
    },
  );

  app.put(
    paths.annotation,
    {
      config: own,
      schema: {
        tags,
        summary: 'Set a ready version’s annotation (multipart "file": COCO JSON, at most 100 MB)',
        consumes: ['multipart/form-data'],
        params: ZParams,
        querystring: ZAnnotationUploadQuery,
        response: envelopeOf(ZAnnotationSummary),
      },
    },
    async (request) => {
      const { dataset } = datasetOf(request);
      const version = await readyVersion(ctx, dataset, request.query.versionId);
      const file = await readUpload(request, DATASET_LIMITS.annotationBytes);
      return ok(await setAnnotation(ctx, dataset, version, file));
    },
  );

  app.get(
    paths.annotation,
    {
      config: view,
      schema: {
        tags,
        summary: "One image's boxes from its version's annotation",
        params: ZParams,
        querystring: ZDatasetPathQuery,
        response: envelopeOf(ZImageAnnotation),
      },
    },
    async (request) => {
      const { dataset } = datasetOf(request);
      const version = await readyVersion(ctx, dataset, request.query.versionId);
      return ok(await imageBoxes(ctx, version, request.query.path));
    },
  );
};
