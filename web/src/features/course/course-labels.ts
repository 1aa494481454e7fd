import type { TCourseSummary } from '@aiedu/contracts';
import type { TFunction } from 'i18next';

/** The state a learner or author reads on a course card. */
export function statusLabel(t: TFunction<'course'>, course: Pick<TCourseSummary, 'status' | 'takenDown'>): string {
  return course.takenDown ? t('status.takenDown') : t(`status.${course.status}`);
}

export function statusColor(course: Pick<TCourseSummary, 'status' | 'takenDown'>): string {
  if (course.takenDown || course.status === 'closed') return 'default';
  if (course.status === 'published') return 'green';
  if (course.status === 'modifying') return 'orange';
  return 'blue';
}
