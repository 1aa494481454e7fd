import { PATHS } from '../../app/paths';

/** Addresses of the schedule screens (routes `schedules`, `scheduleDetail`, `scheduleStudents`). */
export const SCHEDULES_PATH = PATHS.schedules;
export const schedulePath = (id: string) => `${SCHEDULES_PATH}/${id}`;
export const scheduleStudentsPath = (id: string) => `${SCHEDULES_PATH}/${id}/students`;
/** Where a student answers a task: the course player on the task's section. */
export const taskSectionPath = (courseId: string, sectionId: string) =>
  `/pjedu/courses/${courseId}?section=${encodeURIComponent(sectionId)}`;
