import { and, asc, eq, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import { classes, schools, students, teachers, users } from '../../platform/db/schema/index.js';
import { likeText } from '../../platform/db/like.js';
import { userDisplayName } from '../../platform/db/user-name.js';

/*
 * Who teaches and learns where, read for teaching schedules: a teacher's school, its teachers, classes and
 * students, and the roster of classes. Reads only; people and classes are changed through their own services.
 */

/** The school a teacher teaches at (null for an account without a teacher row). */
export async function teacherSchool(db: Db, userId: string) {
  const [row] = await db
    .select({ schoolId: teachers.schoolId, customerId: teachers.customerId })
    .from(teachers)
    .where(eq(teachers.userId, userId));
  return row ?? null;
}

/** The switched-on teachers of a school, by name. */
export async function schoolTeachers(db: Db, schoolId: string) {
  return db
    .select({ id: users.id, name: userDisplayName })
    .from(teachers)
    .innerJoin(users, eq(users.id, teachers.userId))
    .where(and(eq(teachers.schoolId, schoolId), eq(users.enabled, true)))
    .orderBy(asc(userDisplayName), asc(users.id));
}

const stuCount = sql<number>`(select count(*) from ${students} where ${students.classId} = ${classes.id})`.mapWith(
  Number,
);

/** The current classes of a school with their number of students. */
export async function schoolClasses(db: Db, schoolId: string) {
  return db
    .select({ id: classes.id, name: classes.className, grade: classes.grade, eduStage: classes.eduStage, stuCount })
    .from(classes)
    .where(and(eq(classes.schoolId, schoolId), eq(classes.classStatus, 'current')))
    .orderBy(asc(classes.eduStage), asc(classes.grade), asc(classes.className), asc(classes.id));
}

/** Classes by id, whatever their state. */
export async function classesByIds(db: Db, ids: string[]) {
  if (ids.length === 0) return [];
  return db
    .select({
      id: classes.id,
      schoolId: classes.schoolId,
      customerId: classes.customerId,
      name: classes.className,
      classStatus: classes.classStatus,
    })
    .from(classes)
    .where(inArray(classes.id, ids));
}

/** Teachers by id, with their school. */
export async function teachersByIds(db: Db, ids: string[]) {
  if (ids.length === 0) return [];
  return db
    .select({ id: teachers.userId, schoolId: teachers.schoolId, name: userDisplayName })
    .from(teachers)
    .innerJoin(users, eq(users.id, teachers.userId))
    .where(inArray(teachers.userId, ids));
}

const ROSTER = {
  userId: students.userId,
  username: users.username,
  name: userDisplayName,
  customerId: students.customerId,
  schoolId: students.schoolId,
  classId: students.classId,
  className: classes.className,
  schoolNumber: students.schoolNumber,
};

/** Students with their account and class, those `where` names, by class and username. */
function selectRoster(db: Db, where: SQL | undefined) {
  return db
    .select(ROSTER)
    .from(students)
    .innerJoin(users, eq(users.id, students.userId))
    .leftJoin(classes, eq(classes.id, students.classId))
    .where(where)
    .orderBy(asc(classes.className), asc(users.username), asc(users.id));
}

/** Students by id, with their school and class. */
export async function studentsByIds(db: Db, ids: string[]) {
  if (ids.length === 0) return [];
  return selectRoster(db, inArray(students.userId, ids));
}

/** Up to 50 students of a school whose username or name holds `keyword`. */
export async function searchSchoolStudents(db: Db, schoolId: string, keyword: string) {
  const matches = keyword
    ? or(ilike(users.username, likeText(keyword)), ilike(users.realName, likeText(keyword)))
    : undefined;
  return selectRoster(db, and(eq(students.schoolId, schoolId), matches)).limit(50);
}

/** The students of some classes as they are now, and some students by id, each once, by class and name. */
export async function rosterOf(db: Db, classIds: string[], userIds: string[]) {
  if (classIds.length === 0 && userIds.length === 0) return [];
  return selectRoster(
    db,
    or(
      classIds.length ? inArray(students.classId, classIds) : undefined,
      userIds.length ? inArray(students.userId, userIds) : undefined,
    ),
  );
}

/** The class a student is in now (null: none, or not a student). */
export async function classOfStudent(db: Db, userId: string): Promise<string | null> {
  const [row] = await db.select({ classId: students.classId }).from(students).where(eq(students.userId, userId));
  return row?.classId ?? null;
}

/** The names people are shown by: their real name, else their username. */
export async function namesOf(db: Db, userIds: string[]): Promise<Map<string, string>> {
  if (userIds.length === 0) return new Map();
  const rows = await db.select({ id: users.id, name: userDisplayName }).from(users).where(inArray(users.id, userIds));
  return new Map(rows.map((r) => [r.id, r.name]));
}

export async function schoolNames(db: Db, schoolIds: string[]): Promise<Map<string, string>> {
  if (schoolIds.length === 0) return new Map();
  const rows = await db
    .select({ id: schools.id, name: schools.name })
    .from(schools)
    .where(inArray(schools.id, schoolIds));
  return new Map(rows.map((r) => [r.id, r.name]));
}
