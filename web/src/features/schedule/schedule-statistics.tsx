import type { TScheduleStatistics } from '@aiedu/contracts';
import { Card, Col, Empty, Row, Skeleton } from 'antd';
import { Table } from '../../ui/table';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { useScheduleStatistics } from './schedule-api';

const BarsChart = lazy(() => import('./statistics-chart').then((m) => ({ default: m.BarsChart })));

type TaskRow = TScheduleStatistics['tasks'][number];

/**
 * Class statistics of a schedule for its teachers: completion per task, how the scores fall in bands, and each
 * student's progress, as charts with the figures in a table.
 */
export function ScheduleStatistics({ scheduleId }: { scheduleId: string }) {
  const { t } = useTranslation('schedule');
  const stats = useScheduleStatistics(scheduleId);
  if (stats.isPending) return <Skeleton active title={false} paragraph={{ rows: 6 }} />;
  const data = stats.data;
  if (!data || data.students === 0) return <Empty description={t('statistics.noStudents')} />;
  const chart = (label: string, categories: string[], values: number[], max?: number, color?: string) => (
    <Suspense fallback={<Skeleton active title={false} />}>
      <BarsChart
        label={label}
        categories={categories}
        values={values}
        {...(max === undefined ? {} : { max })}
        {...(color ? { color } : {})}
      />
    </Suspense>
  );
  return (
    <Row gutter={[16, 16]}>
      <Col xs={24} lg={12}>
        <Card title={<h2 className="schedule-card-title">{t('statistics.completion')}</h2>}>
          {data.tasks.length === 0 ? (
            <Empty description={t('statistics.noTasks')} />
          ) : (
            <>
              {chart(
                t('statistics.completion'),
                data.tasks.map((x) => x.title),
                data.tasks.map((x) => x.completion),
                100,
              )}
              <Table<TaskRow>
                rowKey="id"
                size="small"
                pagination={false}
                dataSource={data.tasks}
                columns={[
                  { title: t('tasks.title'), dataIndex: 'title' },
                  { title: t('statistics.completionPercent'), dataIndex: 'completion' },
                  { title: t('tasks.scored'), dataIndex: 'graded' },
                  {
                    title: t('statistics.average'),
                    key: 'average',
                    render: (_, x) => (x.averageScore === null ? '—' : x.averageScore),
                  },
                ]}
              />
            </>
          )}
        </Card>
      </Col>
      <Col xs={24} lg={12}>
        <Card title={<h2 className="schedule-card-title">{t('statistics.distribution')}</h2>}>
          {chart(
            t('statistics.distribution'),
            data.distribution.map((d) => d.band),
            data.distribution.map((d) => d.count),
            undefined,
            '#237804',
          )}
        </Card>
      </Col>
      <Col xs={24}>
        <Card title={<h2 className="schedule-card-title">{t('statistics.progress')}</h2>}>
          {chart(
            t('statistics.progress'),
            data.progress.map((p) => p.name),
            data.progress.map((p) => p.progress),
            100,
            '#ad4e00',
          )}
        </Card>
      </Col>
    </Row>
  );
}
