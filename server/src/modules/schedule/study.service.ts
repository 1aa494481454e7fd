import type { TMyScheduleItem } from '@aiedu/contracts';
import type { AuthContext } from '../../platform/auth/tokens.js';
import type { AppContext } from '../../platform/context.js';
import { attemptsOfTasks, courseStates } from '../course/teaching.service.js';
import { classOfStudent } from '../institution/roster.service.js';
import { presentSummaries } from './schedule.presenter.js';
import { schedulesOfStudent } from './schedule.repository.js';
import { tasksOfSchedules } from './task.repository.js';

/**
 * "My study": the schedules the caller learns in (not deleted; finished ones shown finished), the newest start
 * first, each with its courses as pinned and how many of its tasks the caller answered.
 */
export async function listMySchedules(ctx: AppContext, auth: AuthContext): Promise<TMyScheduleItem[]> {
  const rows = await schedulesOfStudent(ctx.db, auth.userId, await classOfStudent(ctx.db, auth.userId));
  if (rows.length === 0) return [];
  const summaries = await presentSummaries(ctx.db, rows);
  const given = await tasksOfSchedules(
    ctx.db,
    rows.map((r) => r.id),
  );
  const [attempts, states] = await Promise.all([
    attemptsOfTasks(ctx.db, [...new Set(given.map((t) => t.taskId))], [auth.userId]),
    courseStates(ctx.db, [...new Set(summaries.flatMap((s) => s.courses.map((c) => c.courseId)))]),
  ]);
  const answered = new Set(attempts.map((a) => a.taskId));
  return summaries.map((s) => {
    const tasks = given.filter((t) => t.scheduleId === s.id);
    return {
      id: s.id,
      name: s.name,
      status: s.status,
      startAt: s.startAt,
      teachers: s.teachers,
      courses: s.courses.map((c) => ({ ...c, state: states.get(c.courseId)?.state ?? 'open' })),
      tasks: { assigned: tasks.length, submitted: tasks.filter((t) => answered.has(t.taskId)).length },
    };
  });
}
