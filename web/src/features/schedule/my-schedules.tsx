import { Card, Empty, Skeleton } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDateTime } from '../../ui/dates';
import { useMySchedules } from './schedule-api';
import { CourseStateTag, StatusTag } from './schedule-labels';
import { schedulePath } from './schedule-paths';
import './schedule.css';

/**
 * "My study"'s teaching schedules: those the student's class (or the student) is in, with their state, teachers,
 * courses and how many tasks they answered. A deleted schedule is gone from here; its work stays in the courses.
 */
export function MySchedules({ headingLevel = 2 }: { headingLevel?: 2 | 4 }) {
  const { t } = useTranslation('schedule');
  const schedules = useMySchedules();
  const Heading = `h${headingLevel}` as const;
  if (schedules.isPending) return <Skeleton active title={false} />;
  if (!schedules.data?.length) return <Empty description={t('my.empty')} />;
  return (
    <ul className="schedule-my">
      {schedules.data.map((s) => (
        <li key={s.id}>
          <Card>
            <Heading className="schedule-card-title">
              <Link to={schedulePath(s.id)}>{s.name}</Link> <StatusTag status={s.status} />
            </Heading>
            <p className="schedule-muted">
              {t('my.startsAt', { time: formatDateTime(s.startAt) })} ·{' '}
              {t('my.teachers', { names: s.teachers.map((x) => x.name).join(', ') })}
            </p>
            <ul className="schedule-my__courses">
              {s.courses.map((c) => (
                <li key={c.courseId}>
                  <Link to={`/pjedu/courses/${c.courseId}`}>{c.name}</Link>{' '}
                  <span className="schedule-muted">{t('version', { version: c.versionNumber ?? '' })}</span>{' '}
                  <CourseStateTag state={c.state} />
                </li>
              ))}
            </ul>
            <p>{t('my.tasks', { count: s.tasks.submitted, total: s.tasks.assigned })}</p>
          </Card>
        </li>
      ))}
    </ul>
  );
}
