import type { ZCreateScheduleRequest, ZUpdateScheduleRequest } from '@aiedu/contracts';
import { and, eq, inArray } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { writeAudit } from '../../platform/audit.js';
import type { AuthContext } from '../../platform/auth/tokens.js';
import type { AppContext } from '../../platform/context.js';
import type { Db } from '../../platform/db/client.js';
import { scheduleTasks, teachingSchedules } from '../../platform/db/schema/index.js';
import { AppError } from '../../platform/errors.js';
import { enrolForTeaching, teachableVersion } from '../course/teaching.service.js';
import { classesByIds, rosterOf, studentsByIds, teachersByIds } from '../institution/roster.service.js';
import { presentDetail, studentsOf } from './schedule.presenter.js';
import { findSchedule, membersOf, replaceMembers, type Members } from './schedule.repository.js';
import { assertChangeable, loadForTeacher } from './schedule-access.js';
import { schoolOfTeacher } from './schedule.service.js';

type CreateInput = z.output<typeof ZCreateScheduleRequest>;
type UpdateInput = z.output<typeof ZUpdateScheduleRequest>;

const unique = (ids: string[]) => [...new Set(ids)];

/**
 * Teachers, classes and students must be of the schedule's school: anything else answers `1004` naming what was
 * not found, as if it did not exist. Classes added must be current; one already in the schedule may stay after it
 * graduated. The caller always stays one of the teachers.
 */
async function checkPeople(
  db: Db,
  auth: AuthContext,
  schoolId: string,
  input: { teacherIds?: string[] | undefined; classIds?: string[] | undefined; studentIds?: string[] | undefined },
  kept: Members | null,
) {
  const teacherIds = input.teacherIds ? unique([auth.userId, ...input.teacherIds]) : undefined;
  const classIds = input.classIds ? unique(input.classIds) : undefined;
  const studentIds = input.studentIds ? unique(input.studentIds) : undefined;
  if (teacherIds) {
    const found = await teachersByIds(db, teacherIds);
    const missing = teacherIds.filter((id) => !found.some((t) => t.id === id && t.schoolId === schoolId));
    if (missing.length) throw new AppError('NOT_FOUND', { teacherIds: missing });
  }
  if (classIds) {
    const found = await classesByIds(db, classIds);
    const missing = classIds.filter(
      (id) =>
        !found.some(
          (c) => c.id === id && c.schoolId === schoolId && (c.classStatus === 'current' || kept?.classIds.includes(id)),
        ),
    );
    if (missing.length) throw new AppError('NOT_FOUND', { classIds: missing });
  }
  if (studentIds) {
    const found = await studentsByIds(db, studentIds);
    const missing = studentIds.filter((id) => !found.some((s) => s.userId === id && s.schoolId === schoolId));
    if (missing.length) throw new AppError('NOT_FOUND', { studentIds: missing });
  }
  return { teacherIds, classIds, studentIds };
}

/** Every student of the schedule joins its pinned versions; those on another version of a course move to it. */
async function enrolStudents(tx: Db, members: Members) {
  const roster = studentsOf(members, await rosterOf(tx, members.classIds, members.studentIds));
  const learners = roster.map((s) => ({ userId: s.userId, customerId: s.customerId }));
  for (const course of members.courses) await enrolForTeaching(tx, course, learners, 'pin');
}

/** A teacher makes a schedule in their school; its students join the pinned course versions. */
export async function createSchedule(ctx: AppContext, request: FastifyRequest, auth: AuthContext, input: CreateInput) {
  const school = await schoolOfTeacher(ctx, auth);
  const courseIds = unique(input.courses.map((c) => c.courseId));
  if (courseIds.length !== input.courses.length) throw new AppError('BAD_REQUEST', { field: 'courses' });
  const courses: Awaited<ReturnType<typeof teachableVersion>>[] = [];
  for (const c of input.courses) courses.push(await teachableVersion(ctx.db, auth, c.courseId, c.versionId));
  const people = await checkPeople(ctx.db, auth, school.schoolId, input, null);
  const row = await ctx.db.transaction(async (tx) => {
    const [created] = await tx
      .insert(teachingSchedules)
      .values({
        customerId: school.customerId,
        schoolId: school.schoolId,
        name: input.name,
        startAt: new Date(input.startAt),
        createdBy: auth.userId,
      })
      .returning();
    const members: Members = {
      teacherIds: people.teacherIds!,
      classIds: people.classIds!,
      studentIds: people.studentIds!,
      courses: courses.map(({ courseId, versionId }) => ({ courseId, versionId })),
    };
    await replaceMembers(tx, created!.id, members);
    await enrolStudents(tx, members);
    await writeAudit(tx, request, {
      module: 'schedule',
      operation: 'create',
      params: { id: created!.id, ...input },
      customerId: school.customerId,
    });
    return created!;
  });
  return presentDetail(ctx.db, row, 'teacher');
}

/**
 * Changes only what is sent, while the schedule is not finished (`4201`). A course sent with another version moves
 * the schedule and its students to that version (tasks given from the old one stay with their answers); a course
 * left out is taken out, unless tasks were given from it (`1009`, `data.courses`). Students who come in (new classes
 * or picks) join the pinned versions; those who leave keep their records.
 */
export async function updateSchedule(
  ctx: AppContext,
  request: FastifyRequest,
  auth: AuthContext,
  scheduleId: string,
  input: UpdateInput,
) {
  const schedule = await loadForTeacher(ctx.db, auth, scheduleId, 'change');
  const kept = (await membersOf(ctx.db, [scheduleId])).get(scheduleId)!;
  const people = await checkPeople(ctx.db, auth, schedule.schoolId, input, kept);
  let courses: Members['courses'] | undefined;
  if (input.courses) {
    const courseIds = unique(input.courses.map((c) => c.courseId));
    if (courseIds.length !== input.courses.length) throw new AppError('BAD_REQUEST', { field: 'courses' });
    courses = [];
    for (const c of input.courses) {
      const pinned = kept.courses.find((k) => k.courseId === c.courseId);
      courses.push(
        pinned && (!c.versionId || c.versionId === pinned.versionId)
          ? pinned
          : await teachableVersion(ctx.db, auth, c.courseId, c.versionId).then(({ courseId, versionId }) => ({
              courseId,
              versionId,
            })),
      );
    }
    const dropped = kept.courses.filter((k) => !courseIds.includes(k.courseId)).map((k) => k.courseId);
    if (dropped.length) {
      const used = await ctx.db
        .selectDistinct({ courseId: scheduleTasks.courseId })
        .from(scheduleTasks)
        .where(and(eq(scheduleTasks.scheduleId, scheduleId), inArray(scheduleTasks.courseId, dropped)));
      if (used.length) throw new AppError('OPERATION_FAILED', { courses: used.map((u) => u.courseId) });
    }
  }
  await ctx.db.transaction(async (tx) => {
    // A finish that came meanwhile wins: the schedule is read-only from then on.
    const [locked] = await tx
      .select()
      .from(teachingSchedules)
      .where(eq(teachingSchedules.id, scheduleId))
      .for('update');
    assertChangeable(locked!);
    const changed = {
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.startAt !== undefined ? { startAt: new Date(input.startAt) } : {}),
    };
    if (Object.keys(changed).length) {
      await tx.update(teachingSchedules).set(changed).where(eq(teachingSchedules.id, scheduleId));
    }
    await replaceMembers(tx, scheduleId, { ...people, courses });
    if (people.classIds || people.studentIds || courses) {
      await enrolStudents(tx, {
        teacherIds: [],
        classIds: people.classIds ?? kept.classIds,
        studentIds: people.studentIds ?? kept.studentIds,
        courses: courses ?? kept.courses,
      });
    }
    await writeAudit(tx, request, {
      module: 'schedule',
      operation: 'update',
      params: { id: scheduleId, ...input },
      customerId: schedule.customerId,
    });
  });
  return presentDetail(ctx.db, (await findSchedule(ctx.db, scheduleId))!, 'teacher');
}
