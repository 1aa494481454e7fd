import { ZPackage, ZPackageOperation, ZPackageRequest, projectApi } from '@aiedu/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/auth/auth-guard.js';
import { envelopeOf, ok } from '../../platform/envelope.js';
import type { PackageQueue } from './package.service.js';
import { projectOf } from './project-access.js';

const ZParams = z.object({ id: z.uuid() });
const paths = projectApi(':id');

/** Package management of a project: installed list, install, uninstall, operations and their states. */
export const packageRoutes: FastifyPluginAsyncZod<{ queue: PackageQueue }> = async (app, { queue }) => {
  const tags = ['project packages'];
  const edit = { auth: 'required' as const, project: 'edit' as const };

  app.get(
    paths.packages,
    {
      config: edit,
      schema: { tags, summary: 'Installed Python packages', params: ZParams, response: envelopeOf(z.array(ZPackage)) },
    },
    async (request) => ok(await queue.installed(projectOf(request).project)),
  );

  app.get(
    paths.packageOperations,
    {
      config: edit,
      schema: {
        tags,
        summary: 'Recent installs and uninstalls with their states',
        params: ZParams,
        response: envelopeOf(z.array(ZPackageOperation)),
      },
    },
    async (request) => ok(await queue.list(request.params.id)),
  );

  for (const kind of ['install', 'uninstall'] as const) {
    app.post(
      `${paths.packages}/${kind}`,
      {
        config: edit,
        schema: {
          tags,
          summary: `Queue a package ${kind} (one operation at a time per project)`,
          params: ZParams,
          body: ZPackageRequest,
          response: envelopeOf(ZPackageOperation),
        },
      },
      async (request) =>
        ok(await queue.enqueue(projectOf(request).project, requireAuth(request).userId, kind, request.body.name)),
    );
  }

  app.post(
    `${paths.packageOperations}/cancel`,
    {
      config: edit,
      schema: {
        tags,
        summary: 'Cancel a waiting operation',
        params: ZParams,
        body: z.object({ operationId: z.uuid() }),
        response: envelopeOf(ZPackageOperation),
      },
    },
    async (request) => ok(await queue.cancel(request.params.id, request.body.operationId)),
  );
};
