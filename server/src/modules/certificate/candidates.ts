import type { TCertCandidate } from '@aiedu/contracts';
import { and, asc, eq, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { AuthContext } from '../../platform/auth/tokens.js';
import type { Db } from '../../platform/db/client.js';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import {
  classes,
  courseCollaborators,
  courseEnrolments,
  courses,
  scheduleClasses,
  scheduleStudents,
  scheduleTeachers,
  schools,
  students,
  teachingSchedules,
  users,
} from '../../platform/db/schema/index.js';
import { AppError } from '../../platform/errors.js';
import { callerScope, scopeWhere } from '../../platform/tenancy.js';
import { customerOf, isManager } from './cert-access.js';

/**
 * The students a caller may give certificates to. Administrators: the students of their scope (their customer
 * with its sub-customers, or their school). Teachers: the students of the classes they head, the learners of the
 * courses they own or help write, and the students of the schedules they teach (picked or through a class).
 */
export async function studentScope(db: Db, auth: AuthContext): Promise<SQL> {
  const customerId = customerOf(auth);
  if (isManager(auth)) {
    return scopeWhere(await callerScope(db, auth), students) ?? eq(students.customerId, customerId);
  }
  const me = auth.userId;
  const taught = db
    .select({ id: scheduleTeachers.scheduleId })
    .from(scheduleTeachers)
    .innerJoin(teachingSchedules, eq(teachingSchedules.id, scheduleTeachers.scheduleId))
    .where(and(eq(scheduleTeachers.userId, me), isNull(teachingSchedules.deletedAt)));
  const written = db
    .select({ id: courses.id })
    .from(courses)
    .where(
      or(
        eq(courses.ownerId, me),
        inArray(
          courses.id,
          db
            .select({ id: courseCollaborators.courseId })
            .from(courseCollaborators)
            .where(eq(courseCollaborators.userId, me)),
        ),
      ),
    );
  return and(
    eq(students.customerId, customerId),
    or(
      inArray(students.classId, db.select({ id: classes.id }).from(classes).where(eq(classes.teacherId, me))),
      ofSchedules(db, (scheduleId) => inArray(scheduleId, taught)),
      inArray(
        students.userId,
        db
          .select({ id: courseEnrolments.userId })
          .from(courseEnrolments)
          .where(inArray(courseEnrolments.courseId, written)),
      ),
    ),
  )!;
}

/** The students of schedules (`which` picks them by their id column): those picked one by one and their classes'. */
function ofSchedules(db: Db, which: (scheduleId: AnyPgColumn) => SQL): SQL {
  return or(
    inArray(
      students.classId,
      db.select({ id: scheduleClasses.classId }).from(scheduleClasses).where(which(scheduleClasses.scheduleId)),
    ),
    inArray(
      students.userId,
      db.select({ id: scheduleStudents.userId }).from(scheduleStudents).where(which(scheduleStudents.scheduleId)),
    ),
  )!;
}

function selectCandidates(db: Db, where: SQL | undefined) {
  return db
    .select({
      userId: users.id,
      username: users.username,
      realName: users.realName,
      schoolName: sql<string>`coalesce(${schools.name}, '')`,
      className: sql<string>`coalesce(${classes.className}, '')`,
    })
    .from(students)
    .innerJoin(users, eq(users.id, students.userId))
    .leftJoin(schools, eq(schools.id, students.schoolId))
    .leftJoin(classes, eq(classes.id, students.classId))
    .where(where)
    .orderBy(asc(classes.className), asc(users.username));
}

/** Those of `userIds` the caller may give certificates to, by id. */
export async function studentsInScope(
  db: Db,
  auth: AuthContext,
  userIds: string[],
): Promise<Map<string, TCertCandidate>> {
  if (userIds.length === 0) return new Map();
  const rows = await selectCandidates(db, and(inArray(students.userId, userIds), await studentScope(db, auth)));
  return new Map(rows.map((r) => [r.userId, r]));
}

/** The caller's students found by username (an uploaded list), by username. */
export async function studentsByUsername(
  db: Db,
  auth: AuthContext,
  usernames: string[],
): Promise<{ inScope: Map<string, TCertCandidate>; known: Set<string> }> {
  if (usernames.length === 0) return { inScope: new Map(), known: new Set() };
  const customerId = customerOf(auth);
  const [inScope, known] = await Promise.all([
    selectCandidates(db, and(inArray(users.username, usernames), await studentScope(db, auth))),
    db
      .select({ username: users.username })
      .from(users)
      .where(and(eq(users.customerId, customerId), inArray(users.username, usernames))),
  ]);
  return { inScope: new Map(inScope.map((r) => [r.username, r])), known: new Set(known.map((k) => k.username)) };
}

/** Whether the caller reaches a class, course or schedule: one of their customer's (or scope's) or their own. */
async function sourceReached(db: Db, auth: AuthContext, source: 'class' | 'course' | 'schedule', id: string) {
  const scope = await callerScope(db, auth);
  const manager = isManager(auth);
  if (source === 'class') {
    const [row] = await db
      .select({ id: classes.id })
      .from(classes)
      .where(and(eq(classes.id, id), scopeWhere(scope, classes) ?? eq(classes.customerId, customerOf(auth))));
    return Boolean(row);
  }
  if (source === 'schedule') {
    const [row] = await db
      .select({ id: teachingSchedules.id })
      .from(teachingSchedules)
      .where(
        and(
          eq(teachingSchedules.id, id),
          isNull(teachingSchedules.deletedAt),
          scopeWhere(scope, teachingSchedules) ?? eq(teachingSchedules.customerId, customerOf(auth)),
        ),
      );
    return Boolean(row);
  }
  const [row] = await db
    .select({ id: courses.id, customerId: courses.customerId, ownerId: courses.ownerId })
    .from(courses)
    .where(eq(courses.id, id));
  if (!row) return false;
  if (manager)
    return row.customerId !== null && scope.kind === 'customers'
      ? scope.customerIds.includes(row.customerId)
      : row.customerId === auth.customerId;
  return row.customerId === auth.customerId || row.ownerId === auth.userId;
}

/** The students of a class, a course's learners or a schedule's students, within the caller's scope. */
export async function candidatesOf(
  db: Db,
  auth: AuthContext,
  source: 'class' | 'course' | 'schedule',
  sourceId: string,
): Promise<TCertCandidate[]> {
  if (!(await sourceReached(db, auth, source, sourceId))) throw new AppError('NOT_FOUND');
  const scope = await studentScope(db, auth);
  let from: SQL;
  if (source === 'class') from = eq(students.classId, sourceId);
  else if (source === 'course') {
    from = inArray(
      students.userId,
      db.select({ id: courseEnrolments.userId }).from(courseEnrolments).where(eq(courseEnrolments.courseId, sourceId)),
    );
  } else {
    from = ofSchedules(db, (scheduleId) => eq(scheduleId, sourceId));
  }
  return selectCandidates(db, and(from, scope));
}
