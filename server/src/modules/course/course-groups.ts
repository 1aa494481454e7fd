import { and, count, desc, eq, ilike, inArray, sql } from 'drizzle-orm';
import type { AuthContext } from '../../platform/auth/tokens.js';
import type { Db } from '../../platform/db/client.js';
import { likeText } from '../../platform/db/like.js';
import { courses, courseVersions, users } from '../../platform/db/schema/index.js';
import type { FileStorage } from '../../platform/storage/storage.js';
import { loadForAuthor } from './course-access.js';
import { userDisplayName } from '../../platform/db/user-name.js';

/*
 * Courses shared with a group, for the group module: a course names at most one group, and its public scope is
 * then "group". Sharing is the only way to that scope (the course form sets public, customer or private).
 */

export { allowCourseGroupMembers } from './course-access.js';

const URL_TTL = 24 * 3600;
/** Members see the published version's information, else the draft's (a course not yet published). */
const infoVersionId = sql`coalesce(${courses.publishedVersionId}, ${courses.draftVersionId})`;

/** Shares the caller's own course with a group (moving it from another group it was shared with). */
export async function shareCourseWithGroup(db: Db, auth: AuthContext, courseId: string, groupId: string) {
  const { course } = await loadForAuthor(db, auth, courseId, 'owner');
  await db.update(courses).set({ publicScope: 'group', groupId }).where(eq(courses.id, course.id));
}

/** The owner of a course shared with the group, or null when the group does not hold it. */
export async function groupCourseOwner(db: Db, courseId: string, groupId: string): Promise<string | null> {
  const [row] = await db
    .select({ ownerId: courses.ownerId })
    .from(courses)
    .where(and(eq(courses.id, courseId), eq(courses.groupId, groupId), eq(courses.publicScope, 'group')));
  return row?.ownerId ?? null;
}

/**
 * Takes courses out of a group, back to private: found by their code, as before they were shared (all of the
 * group's, or only the one named, or only those of `ownerId`). Learners who joined keep their records.
 */
export async function releaseGroupCourses(db: Db, groupId: string, options: { courseId?: string; ownerId?: string }) {
  await db
    .update(courses)
    .set({ publicScope: 'private', groupId: null })
    .where(
      and(
        eq(courses.groupId, groupId),
        options.courseId ? eq(courses.id, options.courseId) : undefined,
        options.ownerId ? eq(courses.ownerId, options.ownerId) : undefined,
      ),
    );
}

/** How many courses each group holds. */
export async function countGroupCourses(db: Db, groupIds: string[]): Promise<Map<string, number>> {
  if (groupIds.length === 0) return new Map();
  const rows = await db
    .select({ groupId: courses.groupId, n: count() })
    .from(courses)
    .where(and(inArray(courses.groupId, groupIds), eq(courses.publicScope, 'group')))
    .groupBy(courses.groupId);
  return new Map(rows.map((r) => [r.groupId!, r.n]));
}

/** A page of the courses a group holds, with the information of their published version (else the draft). */
export async function listGroupCourses(
  db: Db,
  storage: FileStorage,
  groupId: string,
  query: { page: number; size: number; keyword?: string | undefined },
) {
  const where = and(
    eq(courses.groupId, groupId),
    eq(courses.publicScope, 'group'),
    query.keyword ? ilike(courseVersions.name, likeText(query.keyword)) : undefined,
  );
  const rows = await db
    .select({
      id: courses.id,
      name: courseVersions.name,
      description: courseVersions.description,
      thumbKey: courseVersions.thumbKey,
      ownerId: courses.ownerId,
      ownerName: userDisplayName,
      published: sql<boolean>`${courses.publishedVersionId} is not null and ${courses.status} = 'published'`,
      updatedAt: courses.updatedAt,
      total: sql<number>`count(*) over ()`.mapWith(Number),
    })
    .from(courses)
    .innerJoin(users, eq(users.id, courses.ownerId))
    .innerJoin(courseVersions, eq(courseVersions.id, infoVersionId))
    .where(where)
    .orderBy(desc(courses.updatedAt), desc(courses.id))
    .limit(query.size)
    .offset((query.page - 1) * query.size);
  let total = rows[0]?.total;
  if (total === undefined) {
    const [counted] = await db
      .select({ n: count() })
      .from(courses)
      .innerJoin(courseVersions, eq(courseVersions.id, infoVersionId))
      .where(where);
    total = counted?.n ?? 0;
  }
  return {
    total,
    rows: rows.map(({ thumbKey, total: _total, ...row }) => ({
      ...row,
      coverUrl: thumbKey ? storage.signedUrl(thumbKey, { expiresInSeconds: URL_TTL }) : null,
    })),
  };
}
