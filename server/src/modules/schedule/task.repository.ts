import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import { scheduleTaskReopenings, scheduleTasks, teachingSchedules } from '../../platform/db/schema/index.js';

export type ScheduleTaskRow = typeof scheduleTasks.$inferSelect;
export type ReopeningRow = typeof scheduleTaskReopenings.$inferSelect;

/** The tasks given in schedules, in the order they were given. */
export async function tasksOfSchedules(db: Db, scheduleIds: string[]): Promise<ScheduleTaskRow[]> {
  if (scheduleIds.length === 0) return [];
  return db
    .select()
    .from(scheduleTasks)
    .where(inArray(scheduleTasks.scheduleId, scheduleIds))
    .orderBy(asc(scheduleTasks.createdAt), asc(scheduleTasks.id));
}

/** A given task with its schedule, while the schedule is not deleted. */
export async function findScheduleTask(db: Db, id: string) {
  const [row] = await db
    .select({ task: scheduleTasks, schedule: teachingSchedules })
    .from(scheduleTasks)
    .innerJoin(teachingSchedules, eq(teachingSchedules.id, scheduleTasks.scheduleId))
    .where(and(eq(scheduleTasks.id, id), isNull(teachingSchedules.deletedAt)));
  return row ?? null;
}

/** Every schedule (not deleted) that gave a course task, with what it gave. */
export async function assignmentsOfTask(db: Db, taskId: string) {
  return db
    .select({ task: scheduleTasks, schedule: teachingSchedules })
    .from(scheduleTasks)
    .innerJoin(teachingSchedules, eq(teachingSchedules.id, scheduleTasks.scheduleId))
    .where(and(eq(scheduleTasks.taskId, taskId), isNull(teachingSchedules.deletedAt)));
}

/** Students' own due times of given tasks (all students, or those named). */
export async function reopeningsOf(db: Db, scheduleTaskIds: string[], userIds?: string[]): Promise<ReopeningRow[]> {
  if (scheduleTaskIds.length === 0) return [];
  return db
    .select()
    .from(scheduleTaskReopenings)
    .where(
      and(
        inArray(scheduleTaskReopenings.scheduleTaskId, scheduleTaskIds),
        userIds ? inArray(scheduleTaskReopenings.userId, userIds) : undefined,
      ),
    );
}

export async function saveReopening(
  db: Db,
  values: { scheduleTaskId: string; userId: string; dueAt: Date | null; createdBy: string },
) {
  await db
    .insert(scheduleTaskReopenings)
    .values(values)
    .onConflictDoUpdate({
      target: [scheduleTaskReopenings.scheduleTaskId, scheduleTaskReopenings.userId],
      set: { dueAt: values.dueAt, createdBy: values.createdBy },
    });
}

/** The due time that holds for one student: their own when a teacher reopened the task for them. */
export function dueFor(task: Pick<ScheduleTaskRow, 'id' | 'dueAt'>, reopenings: ReopeningRow[], userId: string) {
  const own = reopenings.find((r) => r.scheduleTaskId === task.id && r.userId === userId);
  return own ? own.dueAt : task.dueAt;
}
