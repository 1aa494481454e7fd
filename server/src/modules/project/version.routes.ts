import {
  ZCompareVersionsQuery,
  ZCreateVersionRequest,
  ZFileChange,
  ZProjectVersion,
  ZVersionRefRequest,
  projectApi,
} from '@aiedu/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../platform/context.js';
import { envelopeOf, ok } from '../../platform/envelope.js';
import type { RuntimeDriver } from '../runtime/runtime-driver.js';
import { projectOf } from './project-access.js';
import { compareFileLists, createVersion, listVersions, restoreVersion } from './version.service.js';

const ZParams = z.object({ id: z.uuid() });
const paths = projectApi(':id');

/** Versions: list, save the draft as a version, restore one into the draft, compare file lists. */
export const versionRoutes: FastifyPluginAsyncZod<{ ctx: AppContext; driver: RuntimeDriver }> = async (
  app,
  { ctx, driver },
) => {
  const tags = ['project'];
  const view = { auth: 'required' as const, project: 'view' as const };
  const edit = { auth: 'required' as const, project: 'edit' as const };

  app.get(
    paths.versions,
    {
      config: view,
      schema: {
        tags,
        summary: 'Versions, newest first',
        params: ZParams,
        response: envelopeOf(z.array(ZProjectVersion)),
      },
    },
    async (request) => ok(await listVersions(ctx, request.params.id)),
  );

  app.post(
    paths.versions,
    {
      config: edit,
      schema: {
        tags,
        summary: 'Save the draft as a new version (each part 0–100, larger than the newest: 3104)',
        params: ZParams,
        body: ZCreateVersionRequest,
        response: envelopeOf(ZProjectVersion),
      },
    },
    async (request) => ok(await createVersion(ctx, driver, request, projectOf(request).project, request.body)),
  );

  app.post(
    paths.restore,
    {
      config: edit,
      schema: {
        tags,
        summary: "Replace the draft's files with a version's",
        params: ZParams,
        body: ZVersionRefRequest,
        response: envelopeOf(z.null()),
      },
    },
    async (request) => {
      await restoreVersion(ctx, driver, request, projectOf(request).project, request.body.versionId);
      return ok(null);
    },
  );

  app.get(
    paths.compare,
    {
      config: view,
      schema: {
        tags,
        summary: 'Compare the file lists of two versions ("draft" for the working files)',
        params: ZParams,
        querystring: ZCompareVersionsQuery,
        response: envelopeOf(z.array(ZFileChange)),
      },
    },
    async (request) =>
      ok(await compareFileLists(ctx, driver, projectOf(request).project, request.query.from, request.query.to)),
  );
};
