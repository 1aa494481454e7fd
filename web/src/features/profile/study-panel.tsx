import { ROLES } from '@aiedu/contracts';
import { Empty, Progress, Skeleton, Tag } from 'antd';
import { Table } from '../../ui/table';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { readSession } from '../../app/session';
import { useMyStudy, type StudyItem } from '../course/course-api';
import { statusColor, statusLabel } from '../course/course-labels';
import { coursePath, courseRecordPath } from '../course/course-paths';
import { MySchedules } from '../schedule/my-schedules';

/**
 * The profile's "My study" (`?slideKey=study`): the courses the user joined with their progress and a link to each
 * one's learning record, then, for students, the teaching schedules they learn in.
 */
export function StudyPanel() {
  const { t } = useTranslation('profile');
  const isStudent = readSession().roles.includes(ROLES.student);
  return (
    <>
      <section aria-labelledby="profile-study-courses">
        <h3 id="profile-study-courses">{t('study.courses')}</h3>
        <StudyCourses />
      </section>
      {isStudent && (
        <section aria-labelledby="profile-study-schedules" className="profile-study__schedules">
          <h3 id="profile-study-schedules">{t('study.schedules')}</h3>
          <MySchedules headingLevel={4} />
        </section>
      )}
    </>
  );
}

function StudyCourses() {
  const { t } = useTranslation('profile');
  const { t: tc } = useTranslation('course');
  const study = useMyStudy();
  if (study.isPending) return <Skeleton active title={false} />;
  if (!study.data?.length) {
    return (
      <Empty description={tc('my.emptyStudy')}>
        <Link to="/pjedu/my/courses">{t('study.join')}</Link>
      </Empty>
    );
  }
  return (
    <Table<StudyItem>
      rowKey="id"
      pagination={false}
      dataSource={study.data}
      columns={[
        {
          title: t('study.course'),
          dataIndex: 'name',
          render: (name: string, course) => (
            <>
              <Link to={coursePath(course.id)}>{name}</Link>
              {course.status !== 'published' || course.takenDown ? (
                <Tag color={statusColor(course)} className="profile-study__status">
                  {statusLabel(tc, course)}
                </Tag>
              ) : null}
            </>
          ),
        },
        {
          title: t('study.progress'),
          dataIndex: 'progress',
          width: 180,
          render: (progress: number, course) => (
            <Progress percent={progress} size="small" aria-label={t('study.progressOf', { name: course.name })} />
          ),
        },
        {
          title: t('study.record'),
          key: 'record',
          render: (_: unknown, course) => (
            <Link to={courseRecordPath(course.id)} aria-label={t('study.recordOf', { name: course.name })}>
              {t('study.record')}
            </Link>
          ),
        },
      ]}
    />
  );
}
