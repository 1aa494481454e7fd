import {
  GROUP_API,
  GROUP_LIMITS,
  ZCreateGroupRequest,
  ZGroup,
  ZGroupDetail,
  ZGroupInvitation,
  ZGroupJoinRequest,
  ZGroupListQuery,
  ZGroupRequestQuery,
  ZJoinGroupRequest,
  ZJoinGroupResult,
  ZListQuery,
  ZMyGroupJoinRequest,
  ZPage,
  ZRefuseJoinRequest,
  ZSetInvitationRequest,
  ZUpdateGroupRequest,
} from '@aiedu/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/auth/auth-guard.js';
import type { AppContext } from '../../platform/context.js';
import { envelopeOf, ok } from '../../platform/envelope.js';
import { readUpload } from '../../platform/uploads.js';
import { allowCourseGroupMembers } from '../course/course-groups.js';
import { useGroupMembership } from '../dataset/dataset-access.js';
import { allowProjectGroupMembers } from '../project/project-groups.js';
import { groupContentRoutes } from './group-content.routes.js';
import { groupIdsOf, groupOf, isGroupMember, registerGroupGuard } from './group-access.js';
import {
  createGroup,
  decideRequest,
  dismissGroup,
  getGroupDetail,
  joinByCode,
  listJoinRequests,
  listMyGroups,
  listMyJoinRequests,
  resetInvitation,
  setGroupCover,
  setInvitation,
  updateGroup,
} from './group.service.js';

const ZParams = z.object({ id: z.uuid() });
const ZRequestParams = z.object({ id: z.uuid(), requestId: z.uuid() });

/** The group API: groups, members, invitation codes, join review, batch registration, shared projects and courses. */
export const groupRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  // Projects, courses and datasets shared with a group are open to its members: the group answers who they are.
  allowProjectGroupMembers(isGroupMember);
  allowCourseGroupMembers(isGroupMember);
  useGroupMembership({ isMember: isGroupMember, groupsOf: groupIdsOf });
  registerGroupGuard(app, ctx.db);

  const tags = ['group'];
  const auth = { auth: 'required' as const };
  const member = { ...auth, group: 'member' as const };
  const owner = { ...auth, group: 'owner' as const };
  const base = `${GROUP_API.base}/:id`;

  app.get(
    GROUP_API.base,
    {
      config: auth,
      schema: {
        tags,
        summary: 'Groups the caller owns (mine), joined (joined) or both (visible)',
        querystring: ZGroupListQuery,
        response: envelopeOf(ZPage(ZGroup)),
      },
    },
    async (request) => ok(await listMyGroups(ctx, requireAuth(request), request.query)),
  );

  app.post(
    GROUP_API.base,
    {
      config: auth,
      schema: { tags, summary: 'Create a group', body: ZCreateGroupRequest, response: envelopeOf(ZGroupDetail) },
    },
    async (request) => ok(await createGroup(ctx, request, requireAuth(request), request.body)),
  );

  app.post(
    GROUP_API.join,
    {
      config: auth,
      schema: {
        tags,
        summary: 'Join by invitation code, from any customer or the public space (6001–6004)',
        body: ZJoinGroupRequest,
        response: envelopeOf(ZJoinGroupResult),
      },
    },
    async (request) => ok(await joinByCode(ctx, requireAuth(request), request.body.code)),
  );

  app.get(
    GROUP_API.myRequests,
    {
      config: auth,
      schema: {
        tags,
        summary: "The caller's join requests and their outcome",
        querystring: ZListQuery,
        response: envelopeOf(ZPage(ZMyGroupJoinRequest)),
      },
    },
    async (request) => ok(await listMyJoinRequests(ctx, requireAuth(request).userId, request.query)),
  );

  app.get(
    base,
    {
      config: member,
      schema: { tags, summary: 'A group the caller belongs to', params: ZParams, response: envelopeOf(ZGroupDetail) },
    },
    async (request) => ok(await getGroupDetail(ctx, groupOf(request))),
  );

  app.put(
    base,
    {
      config: owner,
      schema: {
        tags,
        summary: 'Edit a group (owner)',
        params: ZParams,
        body: ZUpdateGroupRequest,
        response: envelopeOf(ZGroupDetail),
      },
    },
    async (request) => ok(await updateGroup(ctx, request, groupOf(request), request.body)),
  );

  app.put(
    `${base}/cover`,
    {
      config: owner,
      schema: {
        tags,
        summary: 'Upload the cover (multipart "file": JPG/PNG/GIF/JPEG, at most 2 MB)',
        params: ZParams,
        consumes: ['multipart/form-data'],
        response: envelopeOf(ZGroupDetail),
      },
    },
    async (request) => {
      const file = await readUpload(request, GROUP_LIMITS.coverBytes);
      return ok(await setGroupCover(ctx, groupOf(request), file.filename, file.bytes));
    },
  );

  app.delete(
    base,
    {
      config: owner,
      schema: {
        tags,
        summary: 'Dismiss a group (owner): its shared projects and courses go back to private',
        params: ZParams,
        response: envelopeOf(z.null()),
      },
    },
    async (request) => {
      await dismissGroup(ctx, request, groupOf(request));
      return ok(null);
    },
  );

  app.put(
    `${base}/invitation`,
    {
      config: owner,
      schema: {
        tags,
        summary: 'Enable or disable the invitation code (owner)',
        params: ZParams,
        body: ZSetInvitationRequest,
        response: envelopeOf(ZGroupInvitation),
      },
    },
    async (request) => ok(await setInvitation(ctx, groupOf(request), request.body.enabled)),
  );

  app.post(
    `${base}/invitation/reset`,
    {
      config: owner,
      schema: {
        tags,
        summary: 'A new invitation code (owner); the old one stops working at once',
        params: ZParams,
        response: envelopeOf(ZGroupInvitation),
      },
    },
    async (request) => ok(await resetInvitation(ctx, request, groupOf(request))),
  );

  app.get(
    `${base}/requests`,
    {
      config: owner,
      schema: {
        tags,
        summary: 'Join requests by state (owner)',
        params: ZParams,
        querystring: ZGroupRequestQuery,
        response: envelopeOf(ZPage(ZGroupJoinRequest)),
      },
    },
    async (request) => ok(await listJoinRequests(ctx, groupOf(request), request.query)),
  );

  app.post(
    `${base}/requests/:requestId/approve`,
    {
      config: owner,
      schema: {
        tags,
        summary: 'Approve a join request (owner; 6009 once decided)',
        params: ZRequestParams,
        response: envelopeOf(z.null()),
      },
    },
    async (request) => {
      await decideRequest(ctx, request, groupOf(request), request.params.requestId, { approve: true });
      return ok(null);
    },
  );

  app.post(
    `${base}/requests/:requestId/refuse`,
    {
      config: owner,
      schema: {
        tags,
        summary: 'Refuse a join request with a reason (owner; 6009 once decided)',
        params: ZRequestParams,
        body: ZRefuseJoinRequest,
        response: envelopeOf(z.null()),
      },
    },
    async (request) => {
      const { reason } = request.body;
      await decideRequest(ctx, request, groupOf(request), request.params.requestId, { approve: false, reason });
      return ok(null);
    },
  );

  await app.register(groupContentRoutes, { ctx });
};
