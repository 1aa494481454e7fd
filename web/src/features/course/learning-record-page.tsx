import { ArrowLeftOutlined } from '@ant-design/icons';
import type { TLearningRecord } from '@aiedu/contracts';
import { Progress, Skeleton } from 'antd';
import { Table } from '../../ui/table';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { useCurrentScreen } from '../../app/screen';
import { formatDateTime } from '../../ui/dates';
import { LinkButton } from '../../ui/link-button';
import { useLearningRecord } from './course-api';
import { CourseError } from './course-error';
import { coursePath } from './course-paths';
import './course.css';

/** My learning record of one course: each section's visit, time and completion; my task results. */
export function LearningRecordPage() {
  const { t } = useTranslation('course');
  const screen = useCurrentScreen() ?? 'learningRecord';
  const { courseId = '' } = useParams();
  const record = useLearningRecord(courseId);
  if (record.isPending) {
    return (
      <div className="page">
        <Skeleton active title={false} paragraph={{ rows: 8 }} />
      </div>
    );
  }
  if (record.isError || !record.data) return <CourseError error={record.error} />;
  const data = record.data;
  const yesNo = (v: boolean) => (v ? t('record.yes') : t('record.no'));

  return (
    <div className="page course-record">
      <LinkButton to={coursePath(courseId)} icon={<ArrowLeftOutlined />}>
        {t('record.back')}
      </LinkButton>
      <h1>{t(screen, { ns: 'screens' })}</h1>
      <h2>{data.courseName}</h2>
      <div className="course-record__progress">
        <span id="record-progress">{t('detail.progress')}</span>
        <Progress percent={data.progress} aria-labelledby="record-progress" />
      </div>
      <Table<TLearningRecord['sections'][number]>
        rowKey="sectionId"
        pagination={false}
        dataSource={data.sections}
        columns={[
          { title: t('record.section'), dataIndex: 'title' },
          { title: t('record.visited'), dataIndex: 'visited', render: yesNo },
          {
            title: t('record.time'),
            dataIndex: 'secondsSpent',
            render: (s: number) => t('record.minutes', { count: Math.round(s / 60) }),
          },
          { title: t('record.completed'), dataIndex: 'completed', render: yesNo },
        ]}
      />
      <h2>{t('record.attempts')}</h2>
      <Table<TLearningRecord['attempts'][number]>
        rowKey="id"
        pagination={false}
        dataSource={data.attempts}
        columns={[
          {
            title: t('record.when'),
            dataIndex: 'createdAt',
            render: (v: string) => formatDateTime(v),
          },
          {
            title: t('record.score'),
            dataIndex: 'score',
            render: (v: number | null) => (v === null ? t('record.pending') : v),
          },
          { title: t('record.comment'), dataIndex: 'comment' },
        ]}
      />
    </div>
  );
}
