import { ROLES, type TCourseCollaborator } from '@aiedu/contracts';
import { and, arrayContains, asc, eq, ilike, inArray, ne, notInArray, or, sql, type SQL } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { writeAudit } from '../../platform/audit.js';
import type { AuthContext } from '../../platform/auth/tokens.js';
import type { AppContext } from '../../platform/context.js';
import type { Db } from '../../platform/db/client.js';
import { likeText } from '../../platform/db/like.js';
import { courseCollaborators, users } from '../../platform/db/schema/index.js';
import { AppError } from '../../platform/errors.js';
import { getEditableCourse } from './authoring.service.js';
import { loadForAuthor, type CourseRow } from './course-access.js';

const SEARCH_LIMIT = 20;

/**
 * Who may collaborate on a course: teachers of the owner's customer (of the public space for a course of the
 * public space), the owner aside.
 */
function candidateWhere(course: CourseRow): SQL {
  return and(
    course.customerId ? eq(users.customerId, course.customerId) : sql`${users.customerId} is null`,
    arrayContains(users.roles, [ROLES.teacher]),
    ne(users.id, course.ownerId),
  )!;
}

const collaboratorColumns = { id: users.id, username: users.username, name: users.realName };

/** A course's collaborators, by username. */
export function listCollaborators(db: Db, courseId: string): Promise<TCourseCollaborator[]> {
  return db
    .select(collaboratorColumns)
    .from(courseCollaborators)
    .innerJoin(users, eq(users.id, courseCollaborators.userId))
    .where(eq(courseCollaborators.courseId, courseId))
    .orderBy(asc(users.username));
}

/**
 * Teachers the owner may add, found by part of their username or name: at most 20 switched-on accounts, those
 * already collaborating left out. Only the owner chooses collaborators, so only the owner searches.
 */
export async function searchCollaborators(ctx: AppContext, auth: AuthContext, courseId: string, keyword: string) {
  const { course } = await loadForAuthor(ctx.db, auth, courseId, 'owner');
  const already = ctx.db
    .select({ id: courseCollaborators.userId })
    .from(courseCollaborators)
    .where(eq(courseCollaborators.courseId, course.id));
  const pattern = likeText(keyword);
  return ctx.db
    .select(collaboratorColumns)
    .from(users)
    .where(
      and(
        candidateWhere(course),
        eq(users.enabled, true),
        notInArray(users.id, already),
        keyword ? or(ilike(users.username, pattern), ilike(users.realName, pattern)) : undefined,
      ),
    )
    .orderBy(asc(users.username))
    .limit(SEARCH_LIMIT);
}

/** Collaborators are teachers of the owner's customer; only the owner chooses them. */
export async function setCollaborators(
  ctx: AppContext,
  request: FastifyRequest,
  auth: AuthContext,
  courseId: string,
  usernames: string[],
) {
  const { course } = await loadForAuthor(ctx.db, auth, courseId, 'owner');
  const found = usernames.length
    ? await ctx.db
        .select({ id: users.id, username: users.username })
        .from(users)
        .where(and(inArray(users.username, usernames), candidateWhere(course)))
    : [];
  const missing = usernames.filter((name) => !found.some((u) => u.username === name));
  if (missing.length > 0) throw new AppError('NOT_FOUND', { usernames: missing });
  await ctx.db.transaction(async (tx) => {
    await tx.delete(courseCollaborators).where(eq(courseCollaborators.courseId, course.id));
    if (found.length > 0) {
      await tx.insert(courseCollaborators).values(found.map((u) => ({ courseId: course.id, userId: u.id })));
    }
    await writeAudit(tx, request, {
      module: 'course',
      operation: 'collaborators',
      params: { id: courseId, usernames },
    });
  });
  return getEditableCourse(ctx, auth, courseId);
}
