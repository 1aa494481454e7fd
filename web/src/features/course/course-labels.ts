import type { TCourseSummary } from '@aiedu/contracts';
import type { TFunction } from 'i18next';

/** The state a learner or author reads on a course card. */
export function statusLabel(t: TFunction<'course'>, course: Pick<TCourseSummary, 'status' | 'takenDown'>): string {
  return course.takenDown ? t('status.takenDown') : t(`status.${course.status}`);
}

/** Solid tag colours dark enough for white text (at least 4.5:1). */
export function statusColor(course: Pick<TCourseSummary, 'status' | 'takenDown'>): string {
  if (course.takenDown || course.status === 'closed') return '#595959';
  if (course.status === 'published') return '#237804';
  if (course.status === 'modifying') return '#ad4e00';
  return '#1f5fcc';
}
