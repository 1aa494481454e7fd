import type { TScheduleListQuery, TScheduleStatus } from '@aiedu/contracts';
import { and, asc, count, desc, eq, exists, ilike, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../../platform/db/client.js';
import { likeText } from '../../platform/db/like.js';
import {
  scheduleClasses,
  scheduleCourses,
  scheduleStudents,
  scheduleTeachers,
  teachingSchedules,
} from '../../platform/db/schema/index.js';

export type ScheduleRow = typeof teachingSchedules.$inferSelect;

/** The members of schedules: teachers, classes, single students and pinned courses (in their order). */
export interface Members {
  teacherIds: string[];
  classIds: string[];
  studentIds: string[];
  courses: { courseId: string; versionId: string }[];
}

/** A schedule that has not been deleted. */
export async function findSchedule(db: Db, id: string): Promise<ScheduleRow | null> {
  const [row] = await db
    .select()
    .from(teachingSchedules)
    .where(and(eq(teachingSchedules.id, id), isNull(teachingSchedules.deletedAt)));
  return row ?? null;
}

export async function membersOf(db: Db, scheduleIds: string[]): Promise<Map<string, Members>> {
  const result = new Map<string, Members>(
    scheduleIds.map((id) => [id, { teacherIds: [], classIds: [], studentIds: [], courses: [] }]),
  );
  if (scheduleIds.length === 0) return result;
  const [teachers, classes, students, courses] = await Promise.all([
    db.select().from(scheduleTeachers).where(inArray(scheduleTeachers.scheduleId, scheduleIds)),
    db.select().from(scheduleClasses).where(inArray(scheduleClasses.scheduleId, scheduleIds)),
    db.select().from(scheduleStudents).where(inArray(scheduleStudents.scheduleId, scheduleIds)),
    db
      .select()
      .from(scheduleCourses)
      .where(inArray(scheduleCourses.scheduleId, scheduleIds))
      .orderBy(asc(scheduleCourses.position)),
  ]);
  for (const t of teachers) result.get(t.scheduleId)!.teacherIds.push(t.userId);
  for (const c of classes) result.get(c.scheduleId)!.classIds.push(c.classId);
  for (const s of students) result.get(s.scheduleId)!.studentIds.push(s.userId);
  for (const c of courses) result.get(c.scheduleId)!.courses.push({ courseId: c.courseId, versionId: c.versionId });
  return result;
}

export async function isTeacherOf(db: Db, scheduleId: string, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ userId: scheduleTeachers.userId })
    .from(scheduleTeachers)
    .where(and(eq(scheduleTeachers.scheduleId, scheduleId), eq(scheduleTeachers.userId, userId)));
  return Boolean(row);
}

/** Schedules (not deleted) that hold a student: picked one by one, or through their class. */
export function studentIn(userId: string, classId: string | null): SQL {
  return or(
    exists(
      sqlSelectOne(
        scheduleStudents,
        and(eq(scheduleStudents.scheduleId, teachingSchedules.id), eq(scheduleStudents.userId, userId))!,
      ),
    ),
    classId
      ? exists(
          sqlSelectOne(
            scheduleClasses,
            and(eq(scheduleClasses.scheduleId, teachingSchedules.id), eq(scheduleClasses.classId, classId))!,
          ),
        )
      : undefined,
  )!;
}

function sqlSelectOne(table: PgTable, where: SQL) {
  return sql`(select 1 from ${table} where ${where})`;
}

const teaches = (userId: string) =>
  exists(
    sqlSelectOne(
      scheduleTeachers,
      and(eq(scheduleTeachers.scheduleId, teachingSchedules.id), eq(scheduleTeachers.userId, userId))!,
    ),
  );

/** Whether a student (with their class) is in a schedule. */
export async function holdsStudent(db: Db, scheduleId: string, userId: string, classId: string | null) {
  const [row] = await db
    .select({ id: teachingSchedules.id })
    .from(teachingSchedules)
    .where(and(eq(teachingSchedules.id, scheduleId), studentIn(userId, classId)));
  return Boolean(row);
}

function listWhere(query: Pick<TScheduleListQuery, 'keyword' | 'status'>, ...more: (SQL | undefined)[]) {
  return and(
    isNull(teachingSchedules.deletedAt),
    query.status ? eq(teachingSchedules.status, query.status) : undefined,
    query.keyword ? ilike(teachingSchedules.name, likeText(query.keyword)) : undefined,
    ...more,
  );
}

/** One page of schedules, newest first: those a teacher teaches, or those of an administrator's scope. */
export async function pageOfSchedules(
  db: Db,
  query: Pick<TScheduleListQuery, 'keyword' | 'status'> & { page: number; size: number },
  who: { teacherId: string } | { scope: SQL | undefined },
) {
  const where = listWhere(query, 'teacherId' in who ? teaches(who.teacherId) : who.scope);
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(teachingSchedules)
      .where(where)
      .orderBy(desc(teachingSchedules.createdAt), desc(teachingSchedules.id))
      .limit(query.size)
      .offset((query.page - 1) * query.size),
    db.select({ n: count() }).from(teachingSchedules).where(where),
  ]);
  return { rows, total: total?.n ?? 0 };
}

/** Every schedule a student is in, the newest start first. */
export async function schedulesOfStudent(db: Db, userId: string, classId: string | null) {
  return db
    .select()
    .from(teachingSchedules)
    .where(and(isNull(teachingSchedules.deletedAt), studentIn(userId, classId)))
    .orderBy(desc(teachingSchedules.startAt), desc(teachingSchedules.id));
}

/** Replaces a schedule's teachers, classes, single students or courses with the ones given. */
export async function replaceMembers(
  tx: Db,
  scheduleId: string,
  members: Partial<Pick<Members, 'teacherIds' | 'classIds' | 'studentIds' | 'courses'>>,
) {
  if (members.teacherIds) {
    await tx.delete(scheduleTeachers).where(eq(scheduleTeachers.scheduleId, scheduleId));
    await tx.insert(scheduleTeachers).values(members.teacherIds.map((userId) => ({ scheduleId, userId })));
  }
  if (members.classIds) {
    await tx.delete(scheduleClasses).where(eq(scheduleClasses.scheduleId, scheduleId));
    await tx.insert(scheduleClasses).values(members.classIds.map((classId) => ({ scheduleId, classId })));
  }
  if (members.studentIds) {
    await tx.delete(scheduleStudents).where(eq(scheduleStudents.scheduleId, scheduleId));
    if (members.studentIds.length) {
      await tx.insert(scheduleStudents).values(members.studentIds.map((userId) => ({ scheduleId, userId })));
    }
  }
  if (members.courses) {
    await tx.delete(scheduleCourses).where(eq(scheduleCourses.scheduleId, scheduleId));
    await tx.insert(scheduleCourses).values(members.courses.map((c, position) => ({ scheduleId, ...c, position })));
  }
}

/** Moves a schedule to a state, only from the state it must be in: answers the row, or null when it was not. */
export async function moveState(
  tx: Db,
  scheduleId: string,
  from: TScheduleStatus,
  to: { status: TScheduleStatus; startedAt?: Date; finishedAt?: Date },
) {
  const [row] = await tx
    .update(teachingSchedules)
    .set(to)
    .where(
      and(
        eq(teachingSchedules.id, scheduleId),
        eq(teachingSchedules.status, from),
        isNull(teachingSchedules.deletedAt),
      ),
    )
    .returning();
  return row ?? null;
}
