import {
  API,
  ZCollaborator,
  ZCollaboratorsRequest,
  ZCreateProjectRequest,
  ZProject,
  ZProjectListQuery,
  ZUpdateProjectRequest,
} from '@aiedu/contracts';
import { ZPage } from '@aiedu/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/auth/auth-guard.js';
import type { AppContext } from '../../platform/context.js';
import { envelopeOf, ok } from '../../platform/envelope.js';
import type { RuntimeManager } from '../runtime/runtime-manager.js';
import { fileRoutes } from './file.routes.js';
import { packageRoutes } from './package.routes.js';
import { projectOf } from './project-access.js';
import { listProjects } from './project.repository.js';
import {
  createProject,
  deleteProject,
  forkProject,
  listCollaborators,
  presentProject,
  projectView,
  setCollaborators,
  updateProject,
} from './project.service.js';
import { versionRoutes } from './version.routes.js';

const ZParams = z.object({ id: z.uuid() });

/** Projects: the public channel, my projects, detail, create, edit, delete, fork and collaborators. */
export const projectRoutes: FastifyPluginAsyncZod<{ ctx: AppContext; manager: RuntimeManager }> = async (
  app,
  { ctx, manager },
) => {
  const tags = ['project'];
  const driver = manager.driver;
  const auth = { auth: 'required' as const };

  for (const [url, scope, summary] of [
    [API.projects, 'public', 'The public project channel of the caller’s institution, with filters and sort'],
    [API.myProjects, 'mine', 'Projects the caller owns or collaborates on'],
  ] as const) {
    app.get(
      url,
      {
        config: auth,
        schema: { tags, summary, querystring: ZProjectListQuery, response: envelopeOf(ZPage(ZProject)) },
      },
      async (request) => {
        const caller = requireAuth(request);
        const page = await listProjects(ctx.db, caller, scope, request.query);
        return ok({
          ...page,
          list: page.list.map((row) =>
            presentProject(row, caller, scope === 'mine' || row.project.ownerId === caller.userId),
          ),
        });
      },
    );
  }

  app.post(
    API.projects,
    {
      config: auth,
      schema: { tags, summary: 'Create a project', body: ZCreateProjectRequest, response: envelopeOf(ZProject) },
    },
    async (request) => {
      const caller = requireAuth(request);
      const project = await createProject(ctx, driver, request, caller, request.body);
      return ok(await projectView(ctx, caller, project, true));
    },
  );

  app.get(
    `${API.projects}/:id`,
    {
      config: { ...auth, project: 'view' },
      schema: { tags, summary: 'A project', params: ZParams, response: envelopeOf(ZProject) },
    },
    async (request) => {
      const { project, canEdit, reviewing } = projectOf(request);
      return ok(await projectView(ctx, requireAuth(request), project, canEdit, reviewing));
    },
  );

  app.put(
    `${API.projects}/:id`,
    {
      config: { ...auth, project: 'edit' },
      schema: {
        tags,
        summary: 'Edit a project (a public project cannot become private: 3103)',
        params: ZParams,
        body: ZUpdateProjectRequest,
        response: envelopeOf(ZProject),
      },
    },
    async (request) => {
      const row = await updateProject(ctx, request, projectOf(request).project, request.body);
      return ok(await projectView(ctx, requireAuth(request), row, true));
    },
  );

  app.delete(
    `${API.projects}/:id`,
    {
      config: { ...auth, project: 'own' },
      schema: { tags, summary: 'Delete a project and its files', params: ZParams, response: envelopeOf(z.null()) },
    },
    async (request) => {
      // Stopped through the manager, so its minutes are debited and its slot freed before the files go.
      await manager.stop(request.params.id, 'user');
      await deleteProject(ctx, driver, request, projectOf(request).project);
      return ok(null);
    },
  );

  app.post(
    `${API.projects}/:id/fork`,
    {
      config: { ...auth, project: 'view' },
      schema: { tags, summary: 'Copy a project the caller may see', params: ZParams, response: envelopeOf(ZProject) },
    },
    async (request) => {
      const caller = requireAuth(request);
      const copy = await forkProject(ctx, driver, request, caller, request.params.id);
      return ok(await projectView(ctx, caller, copy, true));
    },
  );

  app.get(
    `${API.projects}/:id/collaborators`,
    {
      config: { ...auth, project: 'view' },
      schema: { tags, summary: 'Who may edit', params: ZParams, response: envelopeOf(z.array(ZCollaborator)) },
    },
    async (request) => ok(await listCollaborators(ctx, request.params.id)),
  );

  app.put(
    `${API.projects}/:id/collaborators`,
    {
      config: { ...auth, project: 'own' },
      schema: {
        tags,
        summary: 'Set who may edit (usernames of the same institution)',
        params: ZParams,
        body: ZCollaboratorsRequest,
        response: envelopeOf(z.array(ZCollaborator)),
      },
    },
    async (request) => {
      await setCollaborators(ctx, request, projectOf(request).project, request.body.usernames);
      return ok(await listCollaborators(ctx, request.params.id));
    },
  );

  await app.register(versionRoutes, { ctx, driver });
  await app.register(fileRoutes, { ctx, driver });
  await app.register(packageRoutes, { queue: app.packages });
};
