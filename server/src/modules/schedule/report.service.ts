import { SCORE_BANDS, type TScheduleStatistics, type TScheduleStudent } from '@aiedu/contracts';
import type { AuthContext } from '../../platform/auth/tokens.js';
import type { AppContext } from '../../platform/context.js';
import { attemptsOfTasks, sectionRecords, taskOutlines } from '../course/teaching.service.js';
import { presentCourses } from './schedule.presenter.js';
import { membersOf } from './schedule.repository.js';
import { loadForTeacher } from './schedule-access.js';
import { scheduleStudents } from './schedule.service.js';
import { tasksOfSchedules } from './task.repository.js';
import { latestByUser } from './task.service.js';

const percent = (part: number, whole: number) => (whole ? Math.round((1000 * part) / whole) / 10 : 0);

/**
 * How a schedule's students stand, for its teachers: each student's progress over every section of the pinned
 * versions, time spent there, last activity (a section opened or a task answered) and the status and score of their
 * latest answer to each given task, with the given tasks' titles.
 */
export async function readReport(ctx: AppContext, auth: AuthContext, scheduleId: string) {
  await loadForTeacher(ctx.db, auth, scheduleId, 'read');
  const members = (await membersOf(ctx.db, [scheduleId])).get(scheduleId)!;
  const [students, courses, given] = await Promise.all([
    scheduleStudents(ctx, scheduleId),
    presentCourses(ctx.db, members.courses),
    tasksOfSchedules(ctx.db, [scheduleId]),
  ]);
  const userIds = students.map((s) => s.userId);
  const sectionIds = courses.flatMap((c) => c.sections.map((s) => s.id));
  const taskIds = given.map((t) => t.taskId);
  const [records, attempts, outlines] = await Promise.all([
    sectionRecords(ctx.db, sectionIds, userIds),
    attemptsOfTasks(ctx.db, taskIds, userIds),
    taskOutlines(ctx.db, taskIds),
  ]);
  const latest = new Map(given.map((t) => [t.id, latestByUser(attempts, t.taskId)]));
  const rows = students.map((s): TScheduleStudent => {
    const own = records.filter((r) => r.userId === s.userId);
    const completed = own.filter((r) => r.completedAt).length;
    const moments = [
      ...own.map((r) => r.lastVisitedAt.getTime()),
      ...attempts.filter((a) => a.userId === s.userId).map((a) => a.createdAt.getTime()),
    ];
    return {
      userId: s.userId,
      username: s.username,
      name: s.name,
      classId: s.classId,
      className: s.className,
      schoolNumber: s.schoolNumber,
      progress: percent(completed, sectionIds.length),
      completedSections: completed,
      secondsSpent: own.reduce((sum, r) => sum + r.secondsSpent, 0),
      lastActiveAt: moments.length ? new Date(Math.max(...moments)).toISOString() : null,
      sections: sectionIds.map((sectionId) => {
        const record = own.find((r) => r.sectionId === sectionId);
        return { sectionId, completed: Boolean(record?.completedAt), secondsSpent: record?.secondsSpent ?? 0 };
      }),
      tasks: given.map((t) => {
        const answer = latest.get(t.id)!.get(s.userId);
        return { scheduleTaskId: t.id, status: answer ? answer.status : 'todo', score: answer?.score ?? null };
      }),
    };
  });
  const tasks = given.map((t) => ({ id: t.id, title: outlines.get(t.taskId)?.title ?? '' }));
  return { students: rows, tasks, latest };
}

/**
 * Class statistics of a schedule: per given task how many students answered (completion of all its students) and
 * were scored, with the mean of their latest scores; how the latest scores of every task fall in bands; and each
 * student's progress.
 */
export async function readStatistics(
  ctx: AppContext,
  auth: AuthContext,
  scheduleId: string,
): Promise<TScheduleStatistics> {
  const { students, tasks, latest } = await readReport(ctx, auth, scheduleId);
  const scores: number[] = [];
  const perTask = tasks.map((t) => {
    const answers = [...latest.get(t.id)!.values()];
    const graded = answers.filter((a) => a.status === 'graded' && a.score !== null).map((a) => a.score!);
    scores.push(...graded);
    return {
      id: t.id,
      title: t.title,
      submitted: answers.length,
      graded: graded.length,
      completion: percent(answers.length, students.length),
      averageScore: graded.length ? Math.round((10 * graded.reduce((a, b) => a + b, 0)) / graded.length) / 10 : null,
    };
  });
  const band = (score: number) => (score < 60 ? 0 : Math.min(4, Math.floor(score / 10) - 5));
  return {
    students: students.length,
    tasks: perTask,
    distribution: SCORE_BANDS.map((b, i) => ({ band: b, count: scores.filter((s) => band(s) === i).length })),
    progress: students.map((s) => ({ userId: s.userId, name: s.name, progress: s.progress })),
  };
}
