import type { TScheduleCourse, TScheduleDetail, TScheduleSummary } from '@aiedu/contracts';
import type { Db } from '../../platform/db/client.js';
import { courseStates, versionLabels, versionOutlines } from '../course/teaching.service.js';
import { classesByIds, namesOf, rosterOf, schoolNames } from '../institution/roster.service.js';
import { membersOf, type Members, type ScheduleRow } from './schedule.repository.js';
import type { ScheduleRole } from './schedule-access.js';

type Roster = Awaited<ReturnType<typeof rosterOf>>;

/** The students of a schedule among a roster read for several: its classes' students and those picked. */
export function studentsOf(members: Members, roster: Roster): Roster {
  return roster.filter(
    (s) => (s.classId !== null && members.classIds.includes(s.classId)) || members.studentIds.includes(s.userId),
  );
}

/** Schedules as lists show them, read together: names of teachers, classes, courses and school, student counts. */
export async function presentSummaries(db: Db, rows: ScheduleRow[]): Promise<TScheduleSummary[]> {
  const members = await membersOf(
    db,
    rows.map((r) => r.id),
  );
  const all = [...members.values()];
  const [teacherNames, classes, versions, schools, roster] = await Promise.all([
    namesOf(db, [...new Set(all.flatMap((m) => m.teacherIds))]),
    classesByIds(db, [...new Set(all.flatMap((m) => m.classIds))]),
    versionLabels(db, [...new Set(all.flatMap((m) => m.courses.map((c) => c.versionId)))]),
    schoolNames(db, [...new Set(rows.map((r) => r.schoolId))]),
    rosterOf(db, [...new Set(all.flatMap((m) => m.classIds))], [...new Set(all.flatMap((m) => m.studentIds))]),
  ]);
  return rows.map((row) => {
    const m = members.get(row.id)!;
    return {
      id: row.id,
      name: row.name,
      status: row.status,
      startAt: row.startAt.toISOString(),
      startedAt: row.startedAt?.toISOString() ?? null,
      finishedAt: row.finishedAt?.toISOString() ?? null,
      schoolId: row.schoolId,
      schoolName: schools.get(row.schoolId) ?? '',
      teachers: m.teacherIds.map((id) => ({ id, name: teacherNames.get(id) ?? '' })),
      classes: m.classIds.map((id) => ({ id, name: classes.find((c) => c.id === id)?.name ?? '' })),
      courses: m.courses.map((c) => ({
        courseId: c.courseId,
        name: versions.get(c.versionId)?.name ?? '',
        versionNumber: versions.get(c.versionId)?.number ?? null,
      })),
      studentCount: studentsOf(m, roster).length,
      createdAt: row.createdAt.toISOString(),
    };
  });
}

/** The pinned versions of a schedule in its order, each with its sections and tasks and the course's state now. */
export async function presentCourses(db: Db, courses: Members['courses']): Promise<TScheduleCourse[]> {
  const [outlines, states] = await Promise.all([
    versionOutlines(
      db,
      courses.map((c) => c.versionId),
    ),
    courseStates(
      db,
      courses.map((c) => c.courseId),
    ),
  ]);
  return courses.map((c) => {
    const outline = outlines.get(c.versionId)!;
    const state = states.get(c.courseId)!;
    return {
      courseId: c.courseId,
      versionId: c.versionId,
      versionNumber: outline.number,
      name: outline.name,
      state: state.state,
      latestVersionId: state.publishedVersionId,
      latestVersionNumber: state.publishedNumber,
      sections: outline.sections,
    };
  });
}

/** The whole schedule for its teachers, or for a student (who is not shown the students picked one by one). */
export async function presentDetail(db: Db, row: ScheduleRow, role: ScheduleRole): Promise<TScheduleDetail> {
  const [[summary], members] = await Promise.all([presentSummaries(db, [row]), membersOf(db, [row.id])]);
  const m = members.get(row.id)!;
  const [courses, studentNames] = await Promise.all([
    presentCourses(db, m.courses),
    role === 'teacher' ? namesOf(db, m.studentIds) : Promise.resolve(new Map<string, string>()),
  ]);
  return {
    ...summary!,
    role,
    students: role === 'teacher' ? m.studentIds.map((id) => ({ id, name: studentNames.get(id) ?? '' })) : [],
    courses,
  };
}
