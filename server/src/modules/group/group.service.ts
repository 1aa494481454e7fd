import { randomInt } from 'node:crypto';
import { Readable } from 'node:stream';
import {
  GROUP_INVITE_CODE_ALPHABET,
  GROUP_LIMITS,
  IMAGE_TYPES,
  hasExtension,
  type TCreateGroupRequest,
  type ZGroupListQuery,
  type ZGroupRequestQuery,
  type TJoinGroupResult,
  type TUpdateGroupRequest,
} from '@aiedu/contracts';
import { and, eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { v7 as uuidv7 } from 'uuid';
import { writeAudit } from '../../platform/audit.js';
import type { AuthContext } from '../../platform/auth/tokens.js';
import type { AppContext } from '../../platform/context.js';
import type { Db } from '../../platform/db/client.js';
import { groupJoinRequests, groupMembers, groups } from '../../platform/db/schema/index.js';
import { AppError } from '../../platform/errors.js';
import { reencodeImage } from '../../platform/images.js';
import { countGroupCourses, releaseGroupCourses } from '../course/course-groups.js';
import { countGroupDatasets, releaseGroupDatasets } from '../dataset/dataset-groups.js';
import { teacherSchool } from '../institution/roster.service.js';
import { countGroupProjects, releaseGroupProjects } from '../project/project-groups.js';
import type { GroupAccess } from './group-access.js';
import { presentGroup, presentGroupDetail, presentJoinRequest } from './group.presenter.js';
import {
  codeInUse,
  countPendingRequests,
  groupRow,
  listGroups,
  listMyRequests,
  listRequests,
} from './group.repository.js';

export const COVER_SIZE = { width: 800, height: 450 };

/** A fresh invitation code no group uses: 8 characters of an alphabet without look-alikes. */
async function newInviteCode(db: Db): Promise<string> {
  for (;;) {
    const code = Array.from(
      { length: GROUP_LIMITS.inviteCode },
      () => GROUP_INVITE_CODE_ALPHABET[randomInt(GROUP_INVITE_CODE_ALPHABET.length)],
    ).join('');
    if (!(await codeInUse(db, code))) return code;
  }
}

async function countsOf(db: Db, groupIds: string[]) {
  const [projects, courses, datasets] = await Promise.all([
    countGroupProjects(db, groupIds),
    countGroupCourses(db, groupIds),
    countGroupDatasets(db, groupIds),
  ]);
  return (id: string) => ({
    projects: projects.get(id) ?? 0,
    courses: courses.get(id) ?? 0,
    datasets: datasets.get(id) ?? 0,
  });
}

export async function listMyGroups(ctx: AppContext, auth: AuthContext, query: z.infer<typeof ZGroupListQuery>) {
  const { page, size } = query;
  const { rows, total } = await listGroups(ctx.db, auth.userId, query);
  const counts = await countsOf(
    ctx.db,
    rows.map((r) => r.group.id),
  );
  return { list: rows.map((r) => presentGroup(ctx.storage, r, counts(r.group.id))), total, page, size };
}

/** The group's detail as the caller sees it: the owner also gets the invitation and the requests waiting. */
export async function getGroupDetail(ctx: AppContext, access: GroupAccess) {
  const row = await groupRow(ctx.db, access.group.id);
  if (!row) throw new AppError('NOT_FOUND');
  const counts = await countsOf(ctx.db, [access.group.id]);
  const owner =
    access.role === 'owner'
      ? {
          pendingRequests: await countPendingRequests(ctx.db, access.group.id),
          canBatchRegister: (await teacherSchool(ctx.db, access.group.ownerId)) !== null,
        }
      : null;
  return presentGroupDetail(ctx.storage, { ...row, myRole: access.role }, counts(access.group.id), owner);
}

/** Creates a group owned by the caller, who becomes its first member. */
export async function createGroup(
  ctx: AppContext,
  request: FastifyRequest,
  auth: AuthContext,
  input: Required<TCreateGroupRequest>,
) {
  const inviteCode = await newInviteCode(ctx.db);
  const group = await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(groups)
      .values({
        customerId: auth.customerId,
        ownerId: auth.userId,
        name: input.name,
        description: input.description,
        joinReview: input.joinReview,
        inviteCode,
      })
      .returning();
    await tx.insert(groupMembers).values({
      groupId: row!.id,
      userId: auth.userId,
      customerId: auth.customerId,
      role: 'owner',
      joinedVia: 'created',
    });
    await writeAudit(tx, request, { module: 'group', operation: 'create', params: { id: row!.id, ...input } });
    return row!;
  });
  return getGroupDetail(ctx, { group, role: 'owner' });
}

export async function updateGroup(
  ctx: AppContext,
  request: FastifyRequest,
  access: GroupAccess,
  input: TUpdateGroupRequest,
) {
  const group = await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .update(groups)
      .set({ ...input, updatedAt: ctx.now() })
      .where(eq(groups.id, access.group.id))
      .returning();
    await writeAudit(tx, request, { module: 'group', operation: 'update', params: { id: access.group.id, ...input } });
    return row!;
  });
  return getGroupDetail(ctx, { ...access, group });
}

/** A cover: under 2 MB, JPG/PNG/GIF/JPEG by name and by magic bytes, stored re-encoded. */
export async function setGroupCover(ctx: AppContext, access: GroupAccess, fileName: string, bytes: Buffer) {
  if (bytes.length > GROUP_LIMITS.coverBytes) throw new AppError('FILE_TOO_LARGE');
  if (!hasExtension(fileName, IMAGE_TYPES)) throw new AppError('BAD_REQUEST', { reason: 'image type' });
  const cover = await reencodeImage(bytes, ['jpeg', 'png', 'gif'], { ...COVER_SIZE, fit: 'cover' });
  const key = `groups/${access.group.id}/cover-${uuidv7()}.png`;
  await ctx.storage.put(key, Readable.from([cover]), { maxBytes: GROUP_LIMITS.coverBytes * 4 });
  const [group] = await ctx.db
    .update(groups)
    .set({ coverKey: key, updatedAt: ctx.now() })
    .where(eq(groups.id, access.group.id))
    .returning();
  if (access.group.coverKey) await ctx.storage.delete(access.group.coverKey);
  return getGroupDetail(ctx, { ...access, group: group! });
}

/**
 * Dismisses the group: it keeps its rows (nothing of its members is deleted), stops giving access, and the projects,
 * courses and datasets shared with it go back to private for their owners.
 */
export async function dismissGroup(ctx: AppContext, request: FastifyRequest, access: GroupAccess) {
  await ctx.db.transaction(async (tx) => {
    await tx.update(groups).set({ dismissedAt: ctx.now() }).where(eq(groups.id, access.group.id));
    await releaseGroupProjects(tx as unknown as Db, access.group.id, {});
    await releaseGroupCourses(tx as unknown as Db, access.group.id, {});
    await releaseGroupDatasets(tx as unknown as Db, access.group.id, {});
    await tx
      .update(groupJoinRequests)
      .set({ state: 'refused', decidedAt: ctx.now(), decidedBy: request.auth!.userId })
      .where(and(eq(groupJoinRequests.groupId, access.group.id), eq(groupJoinRequests.state, 'pending')));
    await writeAudit(tx, request, { module: 'group', operation: 'dismiss', params: { id: access.group.id } });
  });
}

export async function setInvitation(ctx: AppContext, access: GroupAccess, enabled: boolean) {
  const [row] = await ctx.db
    .update(groups)
    .set({ inviteEnabled: enabled, updatedAt: ctx.now() })
    .where(eq(groups.id, access.group.id))
    .returning({ code: groups.inviteCode, enabled: groups.inviteEnabled });
  return row!;
}

/** A new code replaces the old one, which stops working at once. */
export async function resetInvitation(ctx: AppContext, request: FastifyRequest, access: GroupAccess) {
  const code = await newInviteCode(ctx.db);
  return ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .update(groups)
      .set({ inviteCode: code, updatedAt: ctx.now() })
      .where(eq(groups.id, access.group.id))
      .returning({ code: groups.inviteCode, enabled: groups.inviteEnabled });
    await writeAudit(tx, request, { module: 'group', operation: 'resetCode', params: { id: access.group.id } });
    return row!;
  });
}

/**
 * Joins by invitation code, from any customer or the public space: at once, or as a request the owner reviews when
 * the group asks for review.
 */
export async function joinByCode(ctx: AppContext, auth: AuthContext, code: string): Promise<TJoinGroupResult> {
  const [group] = await ctx.db.select().from(groups).where(eq(groups.inviteCode, code));
  if (!group) throw new AppError('GROUP_CODE_INVALID');
  if (group.dismissedAt) throw new AppError('GROUP_DISMISSED');
  if (!group.inviteEnabled) throw new AppError('GROUP_CODE_INVALID');
  return ctx.db.transaction(async (tx) => {
    const [member] = await tx
      .select({ userId: groupMembers.userId })
      .from(groupMembers)
      .where(and(eq(groupMembers.groupId, group.id), eq(groupMembers.userId, auth.userId)));
    if (member) throw new AppError('GROUP_ALREADY_MEMBER');
    if (group.joinReview) {
      const [request] = await tx
        .insert(groupJoinRequests)
        .values({ groupId: group.id, userId: auth.userId, customerId: auth.customerId })
        .onConflictDoNothing()
        .returning({ id: groupJoinRequests.id });
      if (!request) throw new AppError('GROUP_JOIN_PENDING');
      return { state: 'pending' as const, groupId: group.id };
    }
    const [added] = await tx
      .insert(groupMembers)
      .values({ groupId: group.id, userId: auth.userId, customerId: auth.customerId, joinedVia: 'code' })
      .onConflictDoNothing()
      .returning({ userId: groupMembers.userId });
    if (!added) throw new AppError('GROUP_ALREADY_MEMBER');
    return { state: 'joined' as const, groupId: group.id };
  });
}

/** The group's join requests in one state, for its owner. */
export async function listJoinRequests(
  ctx: AppContext,
  access: GroupAccess,
  query: z.infer<typeof ZGroupRequestQuery>,
) {
  const { rows, total } = await listRequests(ctx.db, access.group.id, query);
  return { list: rows.map(presentJoinRequest), total, page: query.page, size: query.size };
}

/** The caller's own join requests and their outcome. */
export async function listMyJoinRequests(ctx: AppContext, userId: string, query: { page: number; size: number }) {
  const { rows, total } = await listMyRequests(ctx.db, userId, query);
  return { list: rows.map(presentJoinRequest), total, page: query.page, size: query.size };
}

/** Approves or refuses a pending request once; a request already decided answers 6009. */
export async function decideRequest(
  ctx: AppContext,
  request: FastifyRequest,
  access: GroupAccess,
  requestId: string,
  decision: { approve: true } | { approve: false; reason: string },
) {
  await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(groupJoinRequests)
      .where(and(eq(groupJoinRequests.id, requestId), eq(groupJoinRequests.groupId, access.group.id)))
      .for('update');
    if (!row) throw new AppError('NOT_FOUND');
    if (row.state !== 'pending') throw new AppError('GROUP_REQUEST_DECIDED');
    await tx
      .update(groupJoinRequests)
      .set({
        state: decision.approve ? 'approved' : 'refused',
        reason: decision.approve ? '' : decision.reason,
        decidedBy: request.auth!.userId,
        decidedAt: ctx.now(),
      })
      .where(eq(groupJoinRequests.id, row.id));
    if (decision.approve) {
      await tx
        .insert(groupMembers)
        .values({ groupId: row.groupId, userId: row.userId, customerId: row.customerId, joinedVia: 'code' })
        .onConflictDoNothing();
    }
    await writeAudit(tx, request, {
      module: 'group',
      operation: decision.approve ? 'approveRequest' : 'refuseRequest',
      params: { id: access.group.id, requestId },
    });
  });
}
