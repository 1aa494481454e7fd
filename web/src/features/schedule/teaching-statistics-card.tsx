import type { TTeachingStatistics } from '@aiedu/contracts';
import { Card, Col, Empty, Row, Segmented, Skeleton, Statistic } from 'antd';
import { Table } from '../../ui/table';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useTeachingStatistics } from './schedule-api';

const BarsChart = lazy(() => import('./statistics-chart').then((m) => ({ default: m.BarsChart })));

type SchoolRow = TTeachingStatistics['schools'][number];
type TeacherRow = TTeachingStatistics['teachers'][number];

/**
 * Teaching statistics for administrators (the statistics screen): schedules by state, and per school and per teacher
 * the schedules held and the students active in them over the last days.
 */
export function TeachingStatisticsCard() {
  const { t } = useTranslation('schedule');
  const [days, setDays] = useState(30);
  const stats = useTeachingStatistics(days);
  const data = stats.data;
  const active = t('teaching.activeStudents', { count: days });
  return (
    <Card
      style={{ marginTop: 16 }}
      title={<h2 className="ant-card-head-title">{t('teaching.title')}</h2>}
      extra={
        <Segmented
          aria-label={t('teaching.period')}
          value={days}
          onChange={(value) => setDays(Number(value))}
          options={[7, 30, 90].map((d) => ({ value: d, label: t('teaching.days', { count: d }) }))}
        />
      }
    >
      <Row gutter={[16, 16]}>
        {(['notStarted', 'inProgress', 'finished'] as const).map((status) => (
          <Col key={status} xs={24} md={8}>
            <Statistic title={t(`teaching.${status}`)} value={data?.schedules[status] ?? 0} loading={stats.isLoading} />
          </Col>
        ))}
      </Row>
      {data && data.schools.length > 0 && (
        <Suspense fallback={<Skeleton active title={false} />}>
          <BarsChart
            label={active}
            categories={data.schools.map((s) => s.schoolName)}
            values={data.schools.map((s) => s.activeStudents)}
          />
        </Suspense>
      )}
      <h3>{t('teaching.bySchool')}</h3>
      <Table<SchoolRow>
        rowKey="schoolId"
        size="small"
        loading={stats.isLoading}
        pagination={false}
        dataSource={data?.schools ?? []}
        locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('teaching.empty')} /> }}
        columns={[
          { title: t('teaching.school'), dataIndex: 'schoolName' },
          { title: t('teaching.schedules'), dataIndex: 'schedules' },
          { title: active, dataIndex: 'activeStudents' },
        ]}
      />
      <h3>{t('teaching.byTeacher')}</h3>
      <Table<TeacherRow>
        rowKey="teacherId"
        size="small"
        loading={stats.isLoading}
        pagination={{ pageSize: 20, hideOnSinglePage: true }}
        dataSource={data?.teachers ?? []}
        locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('teaching.empty')} /> }}
        columns={[
          { title: t('teaching.teacher'), dataIndex: 'name' },
          { title: t('teaching.school'), dataIndex: 'schoolName' },
          { title: t('teaching.schedules'), dataIndex: 'schedules' },
          { title: active, dataIndex: 'activeStudents' },
        ]}
      />
    </Card>
  );
}
