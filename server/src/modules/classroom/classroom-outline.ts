import type { TScheduleCourse } from '@aiedu/contracts';
import type { AppContext } from '../../platform/context.js';
import type { Db } from '../../platform/db/client.js';
import { scheduleCourseOutlines } from '../schedule/schedule.service.js';

/** How long a process keeps a schedule's outline: a teacher moving a course to a new version shows within this. */
const KEEP_MS = 10_000;
const kept = new WeakMap<Db, Map<string, { until: number; outline: Promise<TScheduleCourse[]> }>>();

/**
 * The courses a schedule pins with their sections in reading order, kept for a few seconds: every move of a class
 * checks its section against it, and a class of 60 moves often.
 */
export function scheduleOutline(ctx: AppContext, scheduleId: string): Promise<TScheduleCourse[]> {
  let byId = kept.get(ctx.db);
  if (!byId) kept.set(ctx.db, (byId = new Map()));
  const now = Date.now();
  const hit = byId.get(scheduleId);
  if (hit && hit.until > now) return hit.outline;
  for (const [id, entry] of byId) if (entry.until <= now) byId.delete(id);
  const outline = scheduleCourseOutlines(ctx, scheduleId);
  byId.set(scheduleId, { until: now + KEEP_MS, outline });
  outline.catch(() => byId.delete(scheduleId));
  return outline;
}

/** The sections of the schedule in reading order, course after course. */
export async function scheduleSections(ctx: AppContext, scheduleId: string) {
  const courses = await scheduleOutline(ctx, scheduleId);
  return courses.flatMap((course) =>
    course.sections.map((section) => ({ ...section, courseId: course.courseId, versionId: course.versionId })),
  );
}

/** A section of the schedule's pinned versions, or null for any other. */
export async function findScheduleSection(ctx: AppContext, scheduleId: string, sectionId: string) {
  return (await scheduleSections(ctx, scheduleId)).find((s) => s.id === sectionId) ?? null;
}

/** The ids of the tasks of a section of the schedule (none for a section not of it). */
export async function sectionTasks(ctx: AppContext, scheduleId: string, sectionId: string): Promise<string[]> {
  return (await findScheduleSection(ctx, scheduleId, sectionId))?.tasks.map((t) => t.id) ?? [];
}

/** The versions the schedule pins. */
export async function scheduleVersions(ctx: AppContext, scheduleId: string): Promise<string[]> {
  return (await scheduleOutline(ctx, scheduleId)).map((c) => c.versionId);
}
