import { and, eq, isNull } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { requireAuth } from '../../platform/auth/auth-guard.js';
import type { AuthContext } from '../../platform/auth/tokens.js';
import type { Db } from '../../platform/db/client.js';
import { groupMembers, groups } from '../../platform/db/schema/index.js';
import { AppError } from '../../platform/errors.js';
import { isUuid } from '../../platform/ids.js';

export type GroupRow = typeof groups.$inferSelect;
export type GroupNeed = 'member' | 'owner';
export interface GroupAccess {
  group: GroupRow;
  role: 'owner' | 'member';
}

/**
 * Whether a user is a member (or the owner) of a group that is not dismissed. Projects and courses shared with a
 * group ask this on every request, so leaving, removal and dismissal take their access away at once.
 */
export async function isGroupMember(db: Db, userId: string, groupId: string): Promise<boolean> {
  const [row] = await db
    .select({ userId: groupMembers.userId })
    .from(groupMembers)
    .innerJoin(groups, eq(groups.id, groupMembers.groupId))
    .where(and(eq(groupMembers.groupId, groupId), eq(groupMembers.userId, userId), isNull(groups.dismissedAt)))
    .limit(1);
  return Boolean(row);
}

/** The groups (not dismissed) a user belongs to, owned or joined. */
export async function groupIdsOf(db: Db, userId: string): Promise<string[]> {
  const rows = await db
    .select({ id: groupMembers.groupId })
    .from(groupMembers)
    .innerJoin(groups, eq(groups.id, groupMembers.groupId))
    .where(and(eq(groupMembers.userId, userId), isNull(groups.dismissedAt)));
  return rows.map((row) => row.id);
}

/**
 * The group when the caller belongs to it. Groups cross schools and customers, so membership alone decides: a
 * group the caller is not in, or a dismissed one, answers 404 so its existence never leaks; a member asking for
 * what only the owner may do gets 1007.
 */
export async function loadGroupFor(db: Db, auth: AuthContext, groupId: string, need: GroupNeed): Promise<GroupAccess> {
  if (!isUuid(groupId)) throw new AppError('NOT_FOUND');
  const [row] = await db
    .select({ group: groups, role: groupMembers.role })
    .from(groups)
    .innerJoin(groupMembers, and(eq(groupMembers.groupId, groups.id), eq(groupMembers.userId, auth.userId)))
    .where(and(eq(groups.id, groupId), isNull(groups.dismissedAt)));
  if (!row) throw new AppError('NOT_FOUND');
  if (need === 'owner' && row.role !== 'owner') throw new AppError('NO_EDIT_PERMISSION');
  return row;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** What the caller must be in the group named by `:id`; checked before the request is validated. */
    group?: GroupNeed;
  }
  interface FastifyRequest {
    /** The group of a route declared with `config.group`, once the caller's membership is checked. */
    groupAccess: GroupAccess | null;
  }
}

/** Routes declare `config: { auth: 'required', group: 'member' | 'owner' }`; the group is checked here, first. */
export function registerGroupGuard(app: FastifyInstance, db: Db) {
  app.decorateRequest('groupAccess', null);
  app.addHook('preValidation', async (request) => {
    const need = request.routeOptions.config.group;
    if (!need) return;
    const { id } = request.params as { id?: string };
    request.groupAccess = await loadGroupFor(db, requireAuth(request), id ?? '', need);
  });
}

/** The checked group of a route declared with `config.group`. */
export function groupOf(request: FastifyRequest): GroupAccess {
  if (!request.groupAccess) throw new AppError('NOT_FOUND');
  return request.groupAccess;
}
