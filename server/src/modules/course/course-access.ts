import { hasPermission, ROLES } from '@aiedu/contracts';
import { and, eq, sql } from 'drizzle-orm';
import type { AuthContext } from '../../platform/auth/tokens.js';
import type { Db } from '../../platform/db/client.js';
import {
  courseChapters,
  courseCollaborators,
  courseEnrolments,
  coursePackages,
  courseResources,
  courses,
  courseSections,
  courseTasks,
  users,
} from '../../platform/db/schema/index.js';
import { AppError } from '../../platform/errors.js';
import { publishedVersion } from './course-summary.repository.js';
import { userDisplayName } from '../../platform/db/user-name.js';

export type CourseRow = typeof courses.$inferSelect;

/** Whether the caller owns the course or collaborates on it. */
export async function authorRole(db: Db, course: CourseRow, auth: AuthContext): Promise<'owner' | 'editor' | null> {
  if (course.ownerId === auth.userId) return 'owner';
  const [row] = await db
    .select({ userId: courseCollaborators.userId })
    .from(courseCollaborators)
    .where(and(eq(courseCollaborators.courseId, course.id), eq(courseCollaborators.userId, auth.userId)));
  return row ? 'editor' : null;
}

/**
 * The course an author works on. Someone who is neither its owner nor a collaborator gets NO_EDIT_PERMISSION
 * when they may see the published course (it is found by them, or they joined it), and NOT_FOUND otherwise, so
 * drafts and the courses other customers keep to themselves are not even confirmed to exist. Authors are
 * teachers, or institution administrators writing the starter courses they imported: an account that lost the
 * role keeps its rows but writes no more.
 */
export async function loadForAuthor(db: Db, auth: AuthContext, courseId: string, need: 'edit' | 'owner' = 'edit') {
  const [course] = await db.select().from(courses).where(eq(courses.id, courseId));
  if (!course) throw new AppError('NOT_FOUND');
  const role = await authorRole(db, course, auth);
  if (!role) throw new AppError((await seenByLearner(db, course, auth)) ? 'NO_EDIT_PERMISSION' : 'NOT_FOUND');
  if (!hasPermission(auth.roles, 'course.author')) throw new AppError('NO_EDIT_PERMISSION');
  if (need === 'owner' && role !== 'owner') throw new AppError('NO_EDIT_PERMISSION');
  return { course, role };
}

/** Whether a caller who does not write the course sees it as a learner: published, and found by them or joined. */
async function seenByLearner(db: Db, course: CourseRow, auth: AuthContext): Promise<boolean> {
  if (!course.publishedVersionId) return false;
  return (await mayDiscover(db, course, auth)) || Boolean(await findEnrolment(db, course.id, auth.userId));
}

/** The draft (first draft or revision) an author may change; a published or closed course without one may not. */
export function editableVersion(course: CourseRow): string {
  if (course.status === 'closed' || !course.draftVersionId) throw new AppError('COURSE_STATE_INVALID');
  return course.draftVersionId;
}

const PARTS = {
  chapter: courseChapters,
  section: courseSections,
  task: courseTasks,
  resource: courseResources,
} as const;

/** A chapter, section, task or resource an author may change: it must belong to the draft of a course they edit. */
export async function loadPartForAuthor(db: Db, auth: AuthContext, part: keyof typeof PARTS, id: string) {
  const table = PARTS[part];
  const [row] = await db
    .select({ courseId: table.courseId, versionId: table.versionId })
    .from(table)
    .where(eq(table.id, id));
  if (!row) throw new AppError('NOT_FOUND');
  const { course } = await loadForAuthor(db, auth, row.courseId);
  if (editableVersion(course) !== row.versionId) throw new AppError('COURSE_STATE_INVALID');
  return { course, versionId: row.versionId };
}

/** Customers given the course through a course package. */
async function packagedFor(db: Db, courseId: string, customerId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: coursePackages.id })
    .from(coursePackages)
    .where(
      and(
        sql`${courseId}::uuid = any(${coursePackages.courseIds})`,
        sql`${customerId}::uuid = any(${coursePackages.customerIds})`,
      ),
    )
    .limit(1);
  return Boolean(row);
}

/**
 * Whether a user belongs to a group (one that is not dismissed): the members of the group a course is shared with
 * find, join and learn it, in any tenant, and only while they are members. The group module registers its check
 * here, so this module never reads the group tables.
 */
export type GroupMembershipCheck = (db: Db, userId: string, groupId: string) => Promise<boolean>;
let groupMembership: GroupMembershipCheck = async () => false;

export function allowCourseGroupMembers(check: GroupMembershipCheck) {
  groupMembership = check;
}

/** Whether the caller is a member of the group the course is shared with. */
async function inCourseGroup(db: Db, course: CourseRow, auth: AuthContext | null): Promise<boolean> {
  if (course.publicScope !== 'group' || !course.groupId || !auth) return false;
  return groupMembership(db, auth.userId, course.groupId);
}

/**
 * Whether a caller outside the course's authors may find it, given whether a package gives it to their customer.
 * A group's course is found by its members only (see `inCourseGroup`).
 */
function discoverable(course: CourseRow, auth: AuthContext | null, packaged: boolean): boolean {
  if (course.publicScope === 'public') return true;
  if (!auth) return false;
  if (auth.roles.includes(ROLES.super)) return true;
  if (!auth.customerId || course.publicScope === 'private' || course.publicScope === 'group') return false;
  return course.customerId === auth.customerId || packaged;
}

/**
 * Whether a caller outside the course's authors may find it: by scope, by customer, or by a course package.
 * A private course is found only by its code (or by being given to a class).
 */
export async function mayDiscover(db: Db, course: CourseRow, auth: AuthContext | null): Promise<boolean> {
  if (discoverable(course, auth, false)) return true;
  if (course.publicScope === 'group') return inCourseGroup(db, course, auth);
  if (!auth?.customerId || course.publicScope !== 'customer') return false;
  return packagedFor(db, course.id, auth.customerId);
}

export async function findEnrolment(db: Db, courseId: string, userId: string) {
  const [row] = await db
    .select()
    .from(courseEnrolments)
    .where(and(eq(courseEnrolments.courseId, courseId), eq(courseEnrolments.userId, userId)));
  return row ?? null;
}

/** Spec section 8: a closed course and a course taken down answer their own messages, never the content. */
export function assertOpen(course: CourseRow) {
  if (course.status === 'closed') throw new AppError('COURSE_CLOSED');
  if (course.takenDown) throw new AppError('COURSE_TAKEN_DOWN');
}

/**
 * The course with the caller's part in it (author, enrolment, a package of their customer), the owner's name and
 * the published version's number, as one prepared statement: the course detail and every learner call start
 * with it. A visitor is a caller without a user or customer id: the comparisons with null match nothing.
 */
function prepareLearnerAccess(db: Db) {
  const userId = sql.placeholder('userId');
  const customerId = sql.placeholder('customerId');
  return db
    .select({
      course: courses,
      enrolment: courseEnrolments,
      ownerName: userDisplayName,
      publishedNumber: publishedVersion.number,
      collaborator: sql<boolean>`exists (select 1 from ${courseCollaborators} where ${courseCollaborators.courseId} = ${courses.id} and ${courseCollaborators.userId} = ${userId}::uuid)`,
      packaged: sql<boolean>`exists (select 1 from ${coursePackages} where ${courses.id} = any(${coursePackages.courseIds}) and ${customerId}::uuid = any(${coursePackages.customerIds}))`,
    })
    .from(courses)
    .innerJoin(users, eq(users.id, courses.ownerId))
    .leftJoin(publishedVersion, eq(publishedVersion.id, courses.publishedVersionId))
    .leftJoin(
      courseEnrolments,
      and(eq(courseEnrolments.courseId, courses.id), sql`${courseEnrolments.userId} = ${userId}::uuid`),
    )
    .where(eq(courses.id, sql.placeholder('courseId')))
    .prepare('course_learner_access');
}

const learnerAccess = new WeakMap<Db, ReturnType<typeof prepareLearnerAccess>>();

/**
 * The course as a learner may see it: published, open, and visible to them (or already joined). Authors see
 * their own course in any state.
 */
export async function loadForLearner(db: Db, auth: AuthContext | null, courseId: string) {
  let access = learnerAccess.get(db);
  if (!access) {
    access = prepareLearnerAccess(db);
    learnerAccess.set(db, access);
  }
  const [row] = await access.execute({
    courseId,
    userId: auth?.userId ?? null,
    customerId: auth?.customerId ?? null,
  });
  if (!row) throw new AppError('NOT_FOUND');
  const { course, enrolment } = row;
  const role = auth?.userId === course.ownerId ? 'owner' : row.collaborator ? 'editor' : null;
  // A group's course is learnt while one is a member: joining it earlier gives no access after leaving.
  const joined = enrolment !== null && course.publicScope !== 'group';
  const visible = discoverable(course, auth, row.packaged) || (await inCourseGroup(db, course, auth));
  if (!role && !joined && !visible) throw new AppError('NOT_FOUND');
  if (!role) {
    if (!course.publishedVersionId) throw new AppError('NOT_FOUND');
    assertOpen(course);
  }
  return { course, role, enrolment, ownerName: row.ownerName, publishedNumber: row.publishedNumber };
}
