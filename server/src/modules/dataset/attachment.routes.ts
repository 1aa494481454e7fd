import { projectDatasetApi, ZAttachDatasetRequest, ZProjectDataset } from '@aiedu/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/auth/auth-guard.js';
import type { AppContext } from '../../platform/context.js';
import { envelopeOf, ok } from '../../platform/envelope.js';
import { requestLanguage } from '../../platform/i18n.js';
import { projectOf } from '../project/project-access.js';
import type { RuntimeManager } from '../runtime/runtime-manager.js';
import { attachDataset, DatasetSync, detachDataset, listProjectDatasets, resyncDataset } from './attachment.service.js';

const paths = projectDatasetApi(':id');
const ZParams = z.object({ id: z.uuid() });
const ZOneParams = z.object({ id: z.uuid(), datasetId: z.uuid() });

/**
 * Datasets attached to a project: list, attach (its current version), detach, synchronise again. Each is mounted
 * read-only in the project's runtime at `datasets/<mountName>` of the workspace; runtimes' starts mount them too.
 */
export const attachmentRoutes: FastifyPluginAsyncZod<{ ctx: AppContext; manager: RuntimeManager }> = async (
  app,
  { ctx, manager },
) => {
  const tags = ['dataset'];
  const view = { auth: 'required' as const, project: 'view' as const };
  const edit = { auth: 'required' as const, project: 'edit' as const };
  const sync = new DatasetSync(ctx, manager.driver, app.log);
  manager.useDatasets((project, user) => sync.mountsAtStart(project, user));
  app.addHook('onReady', async () => {
    // Copies of versions no project mounts any more (detached while this process was down, projects deleted).
    void sync.prune().catch((error: unknown) => app.log.warn({ err: error }, 'dataset copies not pruned'));
  });
  app.addHook('onClose', () => sync.idle());

  app.get(
    paths.base,
    {
      config: view,
      schema: {
        tags,
        summary: 'The datasets attached to a project, with where code finds them and their synchronisation',
        params: ZParams,
        response: envelopeOf(z.array(ZProjectDataset)),
      },
    },
    async (request) => ok(await listProjectDatasets(ctx, request.params.id, requestLanguage(request))),
  );

  app.post(
    paths.base,
    {
      config: edit,
      schema: {
        tags,
        summary:
          'Attach a dataset the caller may see, at its current version (none ready: 3204; attached already: 3205)',
        params: ZParams,
        body: ZAttachDatasetRequest,
        response: envelopeOf(ZProjectDataset),
      },
    },
    async (request) =>
      ok(
        await attachDataset(
          ctx,
          sync,
          requireAuth(request),
          projectOf(request).project,
          request.body.datasetId,
          requestLanguage(request),
        ),
      ),
  );

  app.delete(
    paths.one(':datasetId'),
    {
      config: edit,
      schema: { tags, summary: 'Detach a dataset', params: ZOneParams, response: envelopeOf(z.null()) },
    },
    async (request) => {
      await detachDataset(ctx, sync, projectOf(request).project, request.params.datasetId);
      return ok(null);
    },
  );

  app.post(
    paths.sync(':datasetId'),
    {
      config: edit,
      schema: {
        tags,
        summary: "Synchronise a dataset again: a retry, or a move to the dataset's current version",
        params: ZOneParams,
        response: envelopeOf(ZProjectDataset),
      },
    },
    async (request) =>
      ok(
        await resyncDataset(
          ctx,
          sync,
          requireAuth(request),
          projectOf(request).project,
          request.params.datasetId,
          requestLanguage(request),
        ),
      ),
  );
};
