import { and, count, desc, eq, ilike, inArray, or, sql } from 'drizzle-orm';
import type { AuthContext } from '../../platform/auth/tokens.js';
import type { Db } from '../../platform/db/client.js';
import { likeText } from '../../platform/db/like.js';
import { projects, users } from '../../platform/db/schema/index.js';
import { AppError } from '../../platform/errors.js';
import { loadProjectFor } from './project-access.js';
import { userDisplayName } from '../../platform/db/user-name.js';

/*
 * Projects shared with a group, for the group module: a project names at most one group, and its access is then
 * "group". Sharing is the only way to that access (the project form sets public or private).
 */

export { allowProjectGroupMembers } from './project-access.js';

/**
 * Shares the caller's own project with a group (moving it from another group it was shared with). A project that
 * was ever public stays public (3103).
 */
export async function shareProjectWithGroup(db: Db, auth: AuthContext, projectId: string, groupId: string) {
  const { project } = await loadProjectFor(db, auth, projectId, 'own');
  if (project.access === 'public' || project.publishedAt) throw new AppError('PROJECT_PUBLIC_FINAL');
  await db.update(projects).set({ access: 'group', groupId }).where(eq(projects.id, project.id));
}

/** The owner of a project shared with the group, or null when the group does not hold it. */
export async function groupProjectOwner(db: Db, projectId: string, groupId: string): Promise<string | null> {
  const [row] = await db
    .select({ ownerId: projects.ownerId })
    .from(projects)
    .where(and(eq(projects.id, projectId), eq(projects.groupId, groupId), eq(projects.access, 'group')));
  return row?.ownerId ?? null;
}

/** Takes projects out of a group, back to private (all of the group's, or only those of `ownerId`). */
export async function releaseGroupProjects(db: Db, groupId: string, options: { projectId?: string; ownerId?: string }) {
  await db
    .update(projects)
    .set({ access: 'private', groupId: null })
    .where(
      and(
        eq(projects.groupId, groupId),
        options.projectId ? eq(projects.id, options.projectId) : undefined,
        options.ownerId ? eq(projects.ownerId, options.ownerId) : undefined,
      ),
    );
}

/** How many projects each group holds. */
export async function countGroupProjects(db: Db, groupIds: string[]): Promise<Map<string, number>> {
  if (groupIds.length === 0) return new Map();
  const rows = await db
    .select({ groupId: projects.groupId, n: count() })
    .from(projects)
    .where(and(inArray(projects.groupId, groupIds), eq(projects.access, 'group')))
    .groupBy(projects.groupId);
  return new Map(rows.map((r) => [r.groupId!, r.n]));
}

/** A page of the projects a group holds, most recently changed first. */
export async function listGroupProjects(
  db: Db,
  groupId: string,
  query: { page: number; size: number; keyword?: string | undefined },
) {
  const where = and(
    eq(projects.groupId, groupId),
    eq(projects.access, 'group'),
    query.keyword
      ? or(ilike(projects.name, likeText(query.keyword)), ilike(projects.description, likeText(query.keyword)))
      : undefined,
  );
  const rows = await db
    .select({
      id: projects.id,
      name: projects.name,
      description: projects.description,
      ownerId: projects.ownerId,
      ownerName: userDisplayName,
      updatedAt: projects.updatedAt,
      total: sql<number>`count(*) over ()`.mapWith(Number),
    })
    .from(projects)
    .innerJoin(users, eq(users.id, projects.ownerId))
    .where(where)
    .orderBy(desc(projects.updatedAt), desc(projects.id))
    .limit(query.size)
    .offset((query.page - 1) * query.size);
  let total = rows[0]?.total;
  if (total === undefined) {
    const [counted] = await db.select({ n: count() }).from(projects).where(where);
    total = counted?.n ?? 0;
  }
  return { rows, total };
}
