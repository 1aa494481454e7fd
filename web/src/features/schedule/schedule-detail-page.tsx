import { Result, Skeleton, Space, Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { LinkButton } from '../../ui/link-button';
import { ClassroomEntry } from '../classroom/classroom-entry';
import { formatDateTime } from '../../ui/dates';
import { ScheduleActions } from './schedule-actions';
import { useScheduleDetail } from './schedule-api';
import { ScheduleCourses } from './schedule-courses';
import { StatusTag } from './schedule-labels';
import { SCHEDULES_PATH } from './schedule-paths';
import { ScheduleStatistics } from './schedule-statistics';
import { ScheduleTasks } from './schedule-tasks';
import './schedule.css';
import { useTabsMore } from '../../ui/named-icons';

/** What a schedule's id leads to when it is not the caller's or no longer exists. */
export function ScheduleMissing() {
  const { t } = useTranslation('schedule');
  return (
    <div className="page">
      <Result
        status="404"
        title={<h1>{t('detail.missing')}</h1>}
        subTitle={t('detail.missingHint')}
        extra={<LinkButton to={SCHEDULES_PATH}>{t('detail.backToList')}</LinkButton>}
      />
    </div>
  );
}

/**
 * A schedule: its state, start, teachers and classes; its courses as pinned, its tasks and, for its teachers, the
 * moves between states, changes, class statistics and the way to its students.
 */
export function ScheduleDetailPage() {
  const { t } = useTranslation('schedule');
  const tabsMore = useTabsMore();
  const { scheduleId = '' } = useParams();
  const detail = useScheduleDetail(scheduleId);
  if (detail.isPending) {
    return (
      <div className="page">
        <Skeleton active title={false} paragraph={{ rows: 8 }} />
      </div>
    );
  }
  if (detail.isError || !detail.data) return <ScheduleMissing />;
  const s = detail.data;
  const teacher = s.role === 'teacher';
  const items = [
    { key: 'courses', label: t('detail.courses'), children: <ScheduleCourses schedule={s} /> },
    { key: 'tasks', label: t('detail.tasks'), children: <ScheduleTasks schedule={s} /> },
    ...(teacher
      ? [{ key: 'statistics', label: t('detail.statistics'), children: <ScheduleStatistics scheduleId={s.id} /> }]
      : []),
  ];
  return (
    <div className="page schedule-page">
      <header className="schedule-head">
        <div>
          <h1>
            {s.name} <StatusTag status={s.status} />
          </h1>
          <dl className="schedule-facts">
            <dt>{t('detail.startAt')}</dt>
            <dd>{formatDateTime(s.startAt)}</dd>
            <dt>{t('detail.teachers')}</dt>
            <dd>{s.teachers.map((x) => x.name).join(', ')}</dd>
            <dt>{t('detail.classes')}</dt>
            <dd>{s.classes.map((c) => c.name).join(', ')}</dd>
            <dt>{t('detail.students')}</dt>
            <dd>{s.studentCount}</dd>
          </dl>
          {s.status === 'finished' && <p className="schedule-note">{t('detail.finishedNote')}</p>}
        </div>
        <Space wrap align="start">
          <ClassroomEntry schedule={s} />
          {teacher && <ScheduleActions schedule={s} />}
        </Space>
      </header>
      <Tabs items={items} more={tabsMore} />
    </div>
  );
}
