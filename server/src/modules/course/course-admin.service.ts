import type { TAdminCourse, ZAdminCourseQuery } from '@aiedu/contracts';
import { and, asc, count, desc, eq, ilike, isNotNull, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { AuthContext } from '../../platform/auth/tokens.js';
import type { AppContext } from '../../platform/context.js';
import { likeText } from '../../platform/db/like.js';
import { courses, customers, users } from '../../platform/db/schema/index.js';
import { callerScope, scopeWhere } from '../../platform/tenancy.js';
import { courseStatus } from './course.presenter.js';
import { infoVersion } from './course-summary.repository.js';
import { userDisplayName } from '../../platform/db/user-name.js';

type Query = z.output<typeof ZAdminCourseQuery>;

/** The states of spec section 4 as the list filters them: a revision makes a published course `modifying`. */
const STATUS_WHERE: Record<NonNullable<Query['status']>, SQL> = {
  draft: eq(courses.status, 'draft'),
  published: and(eq(courses.status, 'published'), isNull(courses.draftVersionId))!,
  modifying: and(eq(courses.status, 'published'), isNotNull(courses.draftVersionId))!,
  closed: eq(courses.status, 'closed'),
};

const OWNER = eq(users.id, courses.ownerId);
/** The version a course is named by: the published one, else the draft. */
const NAMING_VERSION = eq(infoVersion.id, sql`coalesce(${courses.publishedVersionId}, ${courses.draftVersionId})`);

const SORT_COLUMNS = {
  updatedAt: courses.updatedAt,
  createdAt: courses.createdAt,
  name: infoVersion.name,
  learners: courses.learnerCount,
} as const;

/**
 * Courses in every state for administrators: super administrators see all of them, customer and sub-customer
 * administrators those of their customer and the customers below it (the public space's courses are the super
 * administrators' only). A course is named as learners know it: by its published version, else by its draft.
 */
export async function listCoursesForAdmin(ctx: AppContext, auth: AuthContext, query: Query) {
  const pattern = query.keyword ? likeText(query.keyword) : null;
  const where = and(
    scopeWhere(await callerScope(ctx.db, auth), courses),
    query.status ? STATUS_WHERE[query.status] : undefined,
    pattern
      ? or(
          ilike(infoVersion.name, pattern),
          ilike(courses.code, pattern),
          ilike(users.username, pattern),
          ilike(users.realName, pattern),
        )
      : undefined,
  );
  const [field, direction] = query.sort.split(',') as [keyof typeof SORT_COLUMNS, 'asc' | 'desc'];
  const column = SORT_COLUMNS[field];
  const [rows, [total]] = await Promise.all([
    ctx.db
      .select({
        course: courses,
        name: infoVersion.name,
        number: infoVersion.number,
        ownerName: userDisplayName,
        customerName: customers.name,
      })
      .from(courses)
      .innerJoin(users, OWNER)
      .innerJoin(infoVersion, NAMING_VERSION)
      .leftJoin(customers, eq(customers.id, courses.customerId))
      .where(where)
      .orderBy(direction === 'asc' ? asc(column) : desc(column), asc(courses.id))
      .limit(query.size)
      .offset((query.page - 1) * query.size),
    ctx.db
      .select({ n: count() })
      .from(courses)
      .innerJoin(users, OWNER)
      .innerJoin(infoVersion, NAMING_VERSION)
      .where(where),
  ]);
  const list: TAdminCourse[] = rows.map((r) => ({
    id: r.course.id,
    code: r.course.code,
    name: r.name,
    status: courseStatus(r.course),
    takenDown: r.course.takenDown,
    publicScope: r.course.publicScope,
    ownerName: r.ownerName,
    customerName: r.customerName,
    versionNumber: r.number,
    learners: r.course.learnerCount,
    createdAt: r.course.createdAt.toISOString(),
    updatedAt: r.course.updatedAt.toISOString(),
  }));
  return { list, total: total?.n ?? 0, page: query.page, size: query.size };
}
