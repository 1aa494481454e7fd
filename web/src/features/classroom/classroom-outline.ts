import type { TScheduleCourse, TScheduleSection } from '@aiedu/contracts';

/** A section of the schedule's courses, in reading order, with the course it belongs to. */
export interface OutlineSection extends TScheduleSection {
  courseId: string;
  courseName: string;
}

/** Every section of the schedule's pinned versions, course after course, as the server orders a lesson. */
export function outlineOf(courses: readonly TScheduleCourse[]): OutlineSection[] {
  return courses.flatMap((course) =>
    course.sections.map((section) => ({ ...section, courseId: course.courseId, courseName: course.name })),
  );
}

/** The section before (-1) or after (1) `sectionId`, or null at either end (or for a section not of it). */
export function stepFrom(outline: readonly OutlineSection[], sectionId: string | null, delta: -1 | 1): string | null {
  const index = outline.findIndex((s) => s.id === sectionId);
  if (index < 0) return null;
  return outline[index + delta]?.id ?? null;
}

/** What a panel of one section of a schedule's classroom is given. */
export interface SectionPanelProps {
  scheduleId: string;
  sectionId: string;
  /** The schedule has finished: nothing changes any more. */
  readOnly: boolean;
}
