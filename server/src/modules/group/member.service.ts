import type { TAddGroupMembersResult, TGroupMember } from '@aiedu/contracts';
import { and, eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { writeAudit } from '../../platform/audit.js';
import type { AppContext } from '../../platform/context.js';
import type { Db } from '../../platform/db/client.js';
import { groupMembers } from '../../platform/db/schema/index.js';
import { AppError } from '../../platform/errors.js';
import { releaseGroupCourses } from '../course/course-groups.js';
import { releaseGroupDatasets } from '../dataset/dataset-groups.js';
import { releaseGroupProjects } from '../project/project-groups.js';
import type { GroupAccess } from './group-access.js';
import { accountOf, accountsByUsername, listMembers, membersAmong } from './group.repository.js';

export async function listGroupMembers(
  ctx: AppContext,
  access: GroupAccess,
  query: { page: number; size: number; keyword?: string | undefined },
) {
  const { rows, total } = await listMembers(ctx.db, access.group.id, query);
  const list: TGroupMember[] = rows.map((r) => ({ ...r, joinedAt: r.joinedAt.toISOString() }));
  return { list, total, page: query.page, size: query.size };
}

/**
 * Adds accounts of the owner's own school (of the owner's customer, or the public space, when the owner has no
 * school) directly; everyone else joins by code. All or nothing: an unknown username answers 1004 and an account
 * of another school 6006, naming them. Accounts already in the group are left as they are.
 */
export async function addGroupMembers(
  ctx: AppContext,
  request: FastifyRequest,
  access: GroupAccess,
  usernames: string[],
): Promise<TAddGroupMembersResult> {
  const owner = await accountOf(ctx.db, access.group.ownerId);
  if (!owner) throw new AppError('NOT_FOUND');
  const wanted = [...new Set(usernames)];
  const found = await accountsByUsername(ctx.db, owner.customerId, wanted);
  const unknown = wanted.filter((name) => !found.some((a) => a.username === name));
  if (unknown.length) throw new AppError('NOT_FOUND', { usernames: unknown });
  const otherSchool = found.filter((a) => owner.schoolId !== null && a.schoolId !== owner.schoolId);
  if (otherSchool.length) throw new AppError('GROUP_OTHER_SCHOOL', { usernames: otherSchool.map((a) => a.username) });
  return ctx.db.transaction(async (tx) => {
    const already = await membersAmong(
      tx as unknown as Db,
      access.group.id,
      found.map((a) => a.id),
    );
    const adding = found.filter((a) => !already.has(a.id));
    if (adding.length) {
      await tx
        .insert(groupMembers)
        .values(
          adding.map((a) => ({
            groupId: access.group.id,
            userId: a.id,
            customerId: a.customerId,
            joinedVia: 'added' as const,
          })),
        )
        .onConflictDoNothing();
    }
    await writeAudit(tx, request, {
      module: 'group',
      operation: 'addMembers',
      params: { id: access.group.id, usernames: adding.map((a) => a.username) },
    });
    return {
      added: adding.map((a) => a.username),
      alreadyMembers: found.filter((a) => already.has(a.id)).map((a) => a.username),
    };
  });
}

/**
 * Takes a member out of the group (the owner removing them, or they quitting). What they shared with the group
 * goes back to private for them; nothing of theirs is deleted, and their access to what others shared ends at once.
 */
async function leave(ctx: AppContext, request: FastifyRequest, groupId: string, userId: string, operation: string) {
  await ctx.db.transaction(async (tx) => {
    const [gone] = await tx
      .delete(groupMembers)
      .where(and(eq(groupMembers.groupId, groupId), eq(groupMembers.userId, userId), eq(groupMembers.role, 'member')))
      .returning({ userId: groupMembers.userId });
    if (!gone) throw new AppError('NOT_FOUND');
    await releaseGroupProjects(tx as unknown as Db, groupId, { ownerId: userId });
    await releaseGroupCourses(tx as unknown as Db, groupId, { ownerId: userId });
    await releaseGroupDatasets(tx as unknown as Db, groupId, { ownerId: userId });
    await writeAudit(tx, request, { module: 'group', operation, params: { id: groupId, userId } });
  });
}

/** The owner removes a member; the owner cannot be removed (the group is dismissed instead). */
export async function removeGroupMember(ctx: AppContext, request: FastifyRequest, access: GroupAccess, userId: string) {
  if (userId === access.group.ownerId) throw new AppError('GROUP_OWNER_CANNOT_QUIT');
  await leave(ctx, request, access.group.id, userId, 'removeMember');
}

/** A member leaves; the owner cannot (6005): they dismiss the group instead. */
export async function quitGroup(ctx: AppContext, request: FastifyRequest, access: GroupAccess) {
  if (access.role === 'owner') throw new AppError('GROUP_OWNER_CANNOT_QUIT');
  await leave(ctx, request, access.group.id, request.auth!.userId, 'quit');
}
