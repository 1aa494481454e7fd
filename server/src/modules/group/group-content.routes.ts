import {
  GROUP_API,
  ZAddGroupMembersRequest,
  ZAddGroupMembersResult,
  ZBatchRegisterRequest,
  ZBatchRegisterResult,
  ZBatchRegisterXlsxQuery,
  ZGroupCourse,
  ZGroupMember,
  ZGroupProject,
  ZListQuery,
  ZPage,
  ZShareCourseRequest,
  ZShareProjectRequest,
} from '@aiedu/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/auth/auth-guard.js';
import type { AppContext } from '../../platform/context.js';
import { envelopeOf, ok } from '../../platform/envelope.js';
import { requestLanguage } from '../../platform/i18n.js';
import { readUpload } from '../../platform/uploads.js';
import { groupOf } from './group-access.js';
import { batchRegister, batchTemplate, rowsOfSheet } from './batch.service.js';
import { addGroupMembers, listGroupMembers, quitGroup, removeGroupMember } from './member.service.js';
import {
  listSharedCourses,
  listSharedProjects,
  shareCourse,
  shareProject,
  unshareCourse,
  unshareProject,
} from './share.service.js';

const ZParams = z.object({ id: z.uuid() });
/** A batch file of 200 rows takes a few tens of KB; the limit leaves room for formatting. */
const BATCH_FILE_BYTES = 2 * 1024 * 1024;

/** A group's members, batch registration, and the projects and courses shared with it. */
export const groupContentRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const tags = ['group'];
  const auth = { auth: 'required' as const };
  const member = { ...auth, group: 'member' as const };
  const owner = { ...auth, group: 'owner' as const };
  const base = `${GROUP_API.base}/:id`;

  app.get(
    GROUP_API.batchTemplate,
    { config: auth, schema: { tags, summary: 'The batch registration template (xlsx) in the request language' } },
    async (request, reply) =>
      reply
        .type('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
        .header('content-disposition', 'attachment; filename="group-members-template.xlsx"')
        .send(await batchTemplate(requestLanguage(request))),
  );

  app.get(
    `${base}/members`,
    {
      config: member,
      schema: {
        tags,
        summary: "A group's members, the owner first",
        params: ZParams,
        querystring: ZListQuery,
        response: envelopeOf(ZPage(ZGroupMember)),
      },
    },
    async (request) => ok(await listGroupMembers(ctx, groupOf(request), request.query)),
  );

  app.post(
    `${base}/members`,
    {
      config: owner,
      schema: {
        tags,
        summary: "Add accounts of the owner's school directly (owner; 6006 for another school's)",
        params: ZParams,
        body: ZAddGroupMembersRequest,
        response: envelopeOf(ZAddGroupMembersResult),
      },
    },
    async (request) => ok(await addGroupMembers(ctx, request, groupOf(request), request.body.usernames)),
  );

  app.delete(
    `${base}/members/:userId`,
    {
      config: owner,
      schema: {
        tags,
        summary: 'Remove a member (owner)',
        params: z.object({ id: z.uuid(), userId: z.uuid() }),
        response: envelopeOf(z.null()),
      },
    },
    async (request) => {
      await removeGroupMember(ctx, request, groupOf(request), request.params.userId);
      return ok(null);
    },
  );

  app.post(
    `${base}/quit`,
    {
      config: member,
      schema: { tags, summary: 'Leave a group (6005 for its owner)', params: ZParams, response: envelopeOf(z.null()) },
    },
    async (request) => {
      await quitGroup(ctx, request, groupOf(request));
      return ok(null);
    },
  );

  app.post(
    `${base}/batch-register`,
    {
      config: owner,
      schema: {
        tags,
        summary: 'Register student accounts into the group (owner, a teacher): at most 200 rows, all or nothing',
        params: ZParams,
        body: ZBatchRegisterRequest,
        response: envelopeOf(ZBatchRegisterResult),
      },
    },
    async (request) => {
      const rows = request.body.rows.map((r, i) => ({ ...r, row: i + 1 }));
      return ok(await batchRegister(ctx, request, groupOf(request), { rows, dryRun: request.body.dryRun }));
    },
  );

  app.post(
    `${base}/batch-register/xlsx`,
    {
      config: owner,
      schema: {
        tags,
        summary: 'Batch registration from the xlsx template (multipart "file"); rows are the sheet row numbers',
        params: ZParams,
        querystring: ZBatchRegisterXlsxQuery,
        consumes: ['multipart/form-data'],
        response: envelopeOf(ZBatchRegisterResult),
      },
    },
    async (request) => {
      const file = await readUpload(request, BATCH_FILE_BYTES);
      const rows = await rowsOfSheet(request, file.bytes, file.filename);
      return ok(await batchRegister(ctx, request, groupOf(request), { rows, dryRun: request.query.dryRun }));
    },
  );

  for (const kind of ['projects', 'courses'] as const) {
    const list = kind === 'projects' ? listSharedProjects : listSharedCourses;
    app.get(
      `${base}/${kind}`,
      {
        config: member,
        schema: {
          tags,
          summary: `The ${kind} shared with a group`,
          params: ZParams,
          querystring: ZListQuery,
          response: envelopeOf(ZPage(kind === 'projects' ? ZGroupProject : ZGroupCourse)),
        },
      },
      async (request) => ok(await list(ctx, requireAuth(request), groupOf(request), request.query)),
    );
  }

  app.post(
    `${base}/projects`,
    {
      config: member,
      schema: {
        tags,
        summary: 'Share a project the caller owns with the group (3103 for a project that was public)',
        params: ZParams,
        body: ZShareProjectRequest,
        response: envelopeOf(z.null()),
      },
    },
    async (request) => {
      await shareProject(ctx, request, requireAuth(request), groupOf(request), request.body.projectId);
      return ok(null);
    },
  );

  app.delete(
    `${base}/projects/:projectId`,
    {
      config: member,
      schema: {
        tags,
        summary: "Take a project out of the group (its owner or the group's owner): it is private again",
        params: z.object({ id: z.uuid(), projectId: z.uuid() }),
        response: envelopeOf(z.null()),
      },
    },
    async (request) => {
      await unshareProject(ctx, request, requireAuth(request), groupOf(request), request.params.projectId);
      return ok(null);
    },
  );

  app.post(
    `${base}/courses`,
    {
      config: member,
      schema: {
        tags,
        summary: 'Share a course the caller owns with the group',
        params: ZParams,
        body: ZShareCourseRequest,
        response: envelopeOf(z.null()),
      },
    },
    async (request) => {
      await shareCourse(ctx, request, requireAuth(request), groupOf(request), request.body.courseId);
      return ok(null);
    },
  );

  app.delete(
    `${base}/courses/:courseId`,
    {
      config: member,
      schema: {
        tags,
        summary: "Take a course out of the group (its owner or the group's owner): it is private again",
        params: z.object({ id: z.uuid(), courseId: z.uuid() }),
        response: envelopeOf(z.null()),
      },
    },
    async (request) => {
      await unshareCourse(ctx, request, requireAuth(request), groupOf(request), request.params.courseId);
      return ok(null);
    },
  );
};
