import type { GroupRequestState, GroupScope } from '@aiedu/contracts';
import { and, asc, count, desc, eq, ilike, inArray, isNull, ne, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import { likeText } from '../../platform/db/like.js';
import { groupJoinRequests, groupMembers, groups, schools, users } from '../../platform/db/schema/index.js';
import { userDisplayName } from '../../platform/db/user-name.js';

/** The name people are shown by: their real name, else their username. */

const memberCount = sql<number>`(select count(*)::int from ${groupMembers} m where m.group_id = ${groups.id})`;

const SORTS = { createdAt: groups.createdAt, name: groups.name, members: memberCount } as const;

export interface GroupListRow {
  group: typeof groups.$inferSelect;
  ownerName: string;
  myRole: 'owner' | 'member';
  memberCount: number;
}

/** A page of the groups the caller owns (`mine`), joined without owning (`joined`), or both (`visible`). */
export async function listGroups(
  db: Db,
  userId: string,
  query: { scope: GroupScope; page: number; size: number; keyword?: string | undefined; sort?: string | undefined },
) {
  const role =
    query.scope === 'mine'
      ? eq(groupMembers.role, 'owner')
      : query.scope === 'joined'
        ? eq(groupMembers.role, 'member')
        : undefined;
  const where = and(
    isNull(groups.dismissedAt),
    role,
    query.keyword
      ? or(ilike(groups.name, likeText(query.keyword)), ilike(groups.description, likeText(query.keyword)))
      : undefined,
  );
  const [field, direction] = (query.sort ?? 'createdAt,desc').split(',') as [keyof typeof SORTS, string];
  const rows = await db
    .select({
      group: groups,
      ownerName: userDisplayName,
      myRole: groupMembers.role,
      memberCount,
      total: sql<number>`count(*) over ()`.mapWith(Number),
    })
    .from(groupMembers)
    .innerJoin(groups, and(eq(groups.id, groupMembers.groupId), eq(groupMembers.userId, userId)))
    .innerJoin(users, eq(users.id, groups.ownerId))
    .where(where)
    .orderBy(direction === 'asc' ? asc(SORTS[field]) : desc(SORTS[field]), desc(groups.id))
    .limit(query.size)
    .offset((query.page - 1) * query.size);
  let total = rows[0]?.total;
  if (total === undefined) {
    const [counted] = await db
      .select({ n: count() })
      .from(groupMembers)
      .innerJoin(groups, and(eq(groups.id, groupMembers.groupId), eq(groupMembers.userId, userId)))
      .where(where);
    total = counted?.n ?? 0;
  }
  return { rows: rows as (GroupListRow & { total: number })[], total };
}

/** One group as a list row for the caller of role `myRole`. */
export async function groupRow(db: Db, groupId: string): Promise<Omit<GroupListRow, 'myRole'> | null> {
  const [row] = await db
    .select({ group: groups, ownerName: userDisplayName, memberCount })
    .from(groups)
    .innerJoin(users, eq(users.id, groups.ownerId))
    .where(eq(groups.id, groupId));
  return row ?? null;
}

export async function countPendingRequests(db: Db, groupId: string) {
  const [row] = await db
    .select({ n: count() })
    .from(groupJoinRequests)
    .where(and(eq(groupJoinRequests.groupId, groupId), eq(groupJoinRequests.state, 'pending')));
  return row?.n ?? 0;
}

const personColumns = {
  userId: users.id,
  username: users.username,
  realName: users.realName,
  schoolName: sql<string>`coalesce(${schools.name}, ${users.schoolName}, '')`,
};

const keywordOn = (keyword: string | undefined): SQL | undefined =>
  keyword ? or(ilike(users.username, likeText(keyword)), ilike(users.realName, likeText(keyword))) : undefined;

/** A page of a group's members, the owner first, then by joining time. */
export async function listMembers(
  db: Db,
  groupId: string,
  query: { page: number; size: number; keyword?: string | undefined },
) {
  const where = and(eq(groupMembers.groupId, groupId), keywordOn(query.keyword));
  const rows = await db
    .select({
      ...personColumns,
      role: groupMembers.role,
      joinedVia: groupMembers.joinedVia,
      joinedAt: groupMembers.createdAt,
    })
    .from(groupMembers)
    .innerJoin(users, eq(users.id, groupMembers.userId))
    .leftJoin(schools, eq(schools.id, users.schoolId))
    .where(where)
    .orderBy(desc(sql`${groupMembers.role} = 'owner'`), asc(groupMembers.createdAt), asc(users.id))
    .limit(query.size)
    .offset((query.page - 1) * query.size);
  const [total] = await db
    .select({ n: count() })
    .from(groupMembers)
    .innerJoin(users, eq(users.id, groupMembers.userId))
    .where(where);
  return { rows, total: total?.n ?? 0 };
}

/** A page of a group's join requests in one state, oldest first while pending, newest decision first otherwise. */
export async function listRequests(
  db: Db,
  groupId: string,
  query: { state: GroupRequestState; page: number; size: number; keyword?: string | undefined },
) {
  const where = and(
    eq(groupJoinRequests.groupId, groupId),
    eq(groupJoinRequests.state, query.state),
    keywordOn(query.keyword),
  );
  const rows = await db
    .select({
      id: groupJoinRequests.id,
      ...personColumns,
      state: groupJoinRequests.state,
      reason: groupJoinRequests.reason,
      createdAt: groupJoinRequests.createdAt,
      decidedAt: groupJoinRequests.decidedAt,
    })
    .from(groupJoinRequests)
    .innerJoin(users, eq(users.id, groupJoinRequests.userId))
    .leftJoin(schools, eq(schools.id, users.schoolId))
    .where(where)
    .orderBy(
      query.state === 'pending' ? asc(groupJoinRequests.createdAt) : desc(groupJoinRequests.decidedAt),
      asc(groupJoinRequests.id),
    )
    .limit(query.size)
    .offset((query.page - 1) * query.size);
  const [total] = await db
    .select({ n: count() })
    .from(groupJoinRequests)
    .innerJoin(users, eq(users.id, groupJoinRequests.userId))
    .where(where);
  return { rows, total: total?.n ?? 0 };
}

/** The caller's own join requests, newest first, with the group's name. */
export async function listMyRequests(db: Db, userId: string, query: { page: number; size: number }) {
  const where = eq(groupJoinRequests.userId, userId);
  const rows = await db
    .select({
      id: groupJoinRequests.id,
      groupId: groups.id,
      groupName: groups.name,
      state: groupJoinRequests.state,
      reason: groupJoinRequests.reason,
      createdAt: groupJoinRequests.createdAt,
      decidedAt: groupJoinRequests.decidedAt,
    })
    .from(groupJoinRequests)
    .innerJoin(groups, eq(groups.id, groupJoinRequests.groupId))
    .where(where)
    .orderBy(desc(groupJoinRequests.createdAt), desc(groupJoinRequests.id))
    .limit(query.size)
    .offset((query.page - 1) * query.size);
  const [total] = await db.select({ n: count() }).from(groupJoinRequests).where(where);
  return { rows, total: total?.n ?? 0 };
}

/** Accounts by username in one account space (a customer, or the public space), with their school. */
export async function accountsByUsername(db: Db, customerId: string | null, usernames: string[]) {
  if (usernames.length === 0) return [];
  return db
    .select({ id: users.id, username: users.username, customerId: users.customerId, schoolId: users.schoolId })
    .from(users)
    .where(
      and(customerId ? eq(users.customerId, customerId) : isNull(users.customerId), inArray(users.username, usernames)),
    );
}

/** The members among these users. */
export async function membersAmong(db: Db, groupId: string, userIds: string[]) {
  if (userIds.length === 0) return new Set<string>();
  const rows = await db
    .select({ userId: groupMembers.userId })
    .from(groupMembers)
    .where(and(eq(groupMembers.groupId, groupId), inArray(groupMembers.userId, userIds)));
  return new Set(rows.map((r) => r.userId));
}

/** A user's account space and school, for the direct-add rule. */
export async function accountOf(db: Db, userId: string) {
  const [row] = await db
    .select({ customerId: users.customerId, schoolId: users.schoolId })
    .from(users)
    .where(eq(users.id, userId));
  return row ?? null;
}

/** Whether another group already uses the code. */
export async function codeInUse(db: Db, code: string, exceptGroupId?: string) {
  const [row] = await db
    .select({ id: groups.id })
    .from(groups)
    .where(and(eq(groups.inviteCode, code), exceptGroupId ? ne(groups.id, exceptGroupId) : undefined))
    .limit(1);
  return Boolean(row);
}
