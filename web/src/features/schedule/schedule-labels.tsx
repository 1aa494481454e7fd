import type { TScheduleStatus, TScheduleTask } from '@aiedu/contracts';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';

/** Solid tag colours dark enough for white text (at least 4.5:1). */
const STATUS_COLORS: Record<TScheduleStatus, string> = {
  notStarted: '#1f5fcc',
  inProgress: '#237804',
  finished: '#595959',
};

/** A schedule's state as a tag: not started, in progress, finished. */
export function StatusTag({ status }: { status: TScheduleStatus }) {
  const { t } = useTranslation('schedule');
  return <Tag color={STATUS_COLORS[status]}>{t(`status.${status}`)}</Tag>;
}

/** A course of a schedule closed or taken down since it was pinned (spec 8), as a tag; nothing while it is open. */
export function CourseStateTag({ state }: { state: 'open' | 'closed' | 'takenDown' }) {
  const { t } = useTranslation('schedule');
  if (state === 'open') return null;
  return <Tag color="#a8071a">{t(`courseState.${state}`)}</Tag>;
}

/** A task as its lists name it: its title, and the course and section it comes from. */
export function TaskTitle({ task }: { task: Pick<TScheduleTask, 'title' | 'courseName' | 'sectionTitle'> }) {
  return (
    <>
      <div>{task.title}</div>
      <div className="schedule-muted">
        {task.courseName} · {task.sectionTitle}
      </div>
    </>
  );
}
