import type { TScheduleCourse, TScheduleOptions, TScheduleStatus, ZScheduleListQuery } from '@aiedu/contracts';
import type { z } from 'zod';
import type { AuthContext } from '../../platform/auth/tokens.js';
import type { AppContext } from '../../platform/context.js';
import { AppError } from '../../platform/errors.js';
import { enrolForTeaching, listTeachableCourses } from '../course/teaching.service.js';
import {
  rosterOf,
  schoolClasses,
  schoolTeachers,
  searchSchoolStudents,
  teacherSchool,
} from '../institution/roster.service.js';
import { presentCourses, presentDetail, presentSummaries, studentsOf } from './schedule.presenter.js';
import { membersOf, pageOfSchedules } from './schedule.repository.js';
import { loadWithRole, type ScheduleRole } from './schedule-access.js';

/*
 * What other modules (the live classroom) use of teaching schedules: a schedule with the caller's role in it, its
 * pinned course versions with their sections in order, its students, and whether it is in progress. Call
 * `loadScheduleFor` first: the others take a schedule id the caller has been checked against.
 */

export type ScheduleListQuery = z.output<typeof ZScheduleListQuery>;

/** A schedule as other modules see it. */
export interface TeachingSchedule {
  id: string;
  customerId: string;
  schoolId: string;
  name: string;
  status: TScheduleStatus;
  startAt: Date;
}

/**
 * The schedule with the caller's role in it: `teacher` (one of its teachers) or `student` (picked, or in one of its
 * classes now). Anyone else, and everyone once it is deleted, gets `1004` (AppError NOT_FOUND).
 */
export async function loadScheduleFor(
  ctx: AppContext,
  auth: AuthContext,
  scheduleId: string,
): Promise<{ schedule: TeachingSchedule; role: ScheduleRole }> {
  const { schedule, role } = await loadWithRole(ctx.db, auth, scheduleId);
  const { id, customerId, schoolId, name, status, startAt } = schedule;
  return { schedule: { id, customerId, schoolId, name, status, startAt }, role };
}

/** Students may learn and answer, and teachers teach, only while a schedule is in progress. */
export function isInProgress(schedule: Pick<TeachingSchedule, 'status'>): boolean {
  return schedule.status === 'inProgress';
}

/**
 * The course versions a schedule pins, in the schedule's order, each with its sections in reading order (chapter
 * by chapter, with the chapter's title and the section's tasks) and the course's state now (`open`, `closed`,
 * `takenDown`) beside the version published now.
 */
export async function scheduleCourseOutlines(ctx: AppContext, scheduleId: string): Promise<TScheduleCourse[]> {
  const members = (await membersOf(ctx.db, [scheduleId])).get(scheduleId)!;
  return presentCourses(ctx.db, members.courses);
}

/** A schedule's students as they are now (its classes' and those picked), with their class, by class and name. */
export async function scheduleStudents(ctx: AppContext, scheduleId: string) {
  const members = (await membersOf(ctx.db, [scheduleId])).get(scheduleId)!;
  const roster = studentsOf(members, await rosterOf(ctx.db, members.classIds, members.studentIds));
  return roster.map((s) => ({
    userId: s.userId,
    username: s.username,
    name: s.name,
    customerId: s.customerId,
    classId: s.classId,
    className: s.className,
    schoolNumber: s.schoolNumber,
  }));
}

/**
 * The schedule for one of its teachers or students. A student opening it joins the pinned versions of the courses
 * they have not joined yet (a student who came into one of its classes after it was made).
 */
export async function getScheduleDetail(ctx: AppContext, auth: AuthContext, scheduleId: string) {
  const { schedule, role } = await loadWithRole(ctx.db, auth, scheduleId);
  if (role === 'student') {
    const members = (await membersOf(ctx.db, [scheduleId])).get(scheduleId)!;
    for (const course of members.courses) {
      await enrolForTeaching(ctx.db, course, [{ userId: auth.userId, customerId: auth.customerId }], 'missing');
    }
  }
  return presentDetail(ctx.db, schedule, role);
}

/** One page of the schedules the caller teaches, searched by name and filtered by state. */
export async function listTeaching(ctx: AppContext, auth: AuthContext, query: ScheduleListQuery) {
  const { rows, total } = await pageOfSchedules(ctx.db, query, { teacherId: auth.userId });
  return { list: await presentSummaries(ctx.db, rows), total, page: query.page, size: query.size };
}

/** The school a teacher makes schedules in; an account without a school may not (`1006`). */
export async function schoolOfTeacher(ctx: AppContext, auth: AuthContext) {
  const school = await teacherSchool(ctx.db, auth.userId);
  if (!school) throw new AppError('NO_PERMISSION_PAGE');
  return school;
}

/** The teachers and current classes of the caller's school, for the schedule form. */
export async function getScheduleOptions(ctx: AppContext, auth: AuthContext): Promise<TScheduleOptions> {
  const school = await schoolOfTeacher(ctx, auth);
  const [teachers, classes] = await Promise.all([
    schoolTeachers(ctx.db, school.schoolId),
    schoolClasses(ctx.db, school.schoolId),
  ]);
  return { teachers, classes };
}

export async function listCourseOptions(ctx: AppContext, auth: AuthContext, keyword: string) {
  return listTeachableCourses(ctx.db, auth, keyword);
}

export async function listStudentOptions(ctx: AppContext, auth: AuthContext, keyword: string) {
  const school = await schoolOfTeacher(ctx, auth);
  const rows = await searchSchoolStudents(ctx.db, school.schoolId, keyword);
  return rows.map((r) => ({ id: r.userId, name: r.name, username: r.username, className: r.className }));
}
