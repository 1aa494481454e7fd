import { useQuery } from '@tanstack/react-query';
import { Card, Col, Row, Segmented, Statistic } from 'antd';
import { Table } from '../../ui/table';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../app/api';
import { AdminShell } from './admin-shell';
import { ADMIN_API } from './admin-api';
import { TeachingStatisticsCard } from '../schedule/teaching-statistics-card';

export interface Stats {
  schools: number;
  teachers: number;
  students: number;
  classes: number;
  activeByDay: { date: string; users: number }[];
  bySchool: { id: string; name: string; customerName: string; teachers: number; students: number; classes: number }[];
}

const ActiveChart = lazy(() => import('./active-chart').then((m) => ({ default: m.ActiveChart })));

/** Counts of the caller's scope, daily active users as a chart or a table, and the same counts per school. */
export function StatisticsPage() {
  const { t } = useTranslation('admin');
  const [days, setDays] = useState(30);
  const [view, setView] = useState<'chart' | 'table'>('chart');
  const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const stats = useQuery({
    queryKey: [ADMIN_API.stats, days],
    queryFn: () => api.get<Stats>(ADMIN_API.stats, { query: { days, timeZone } }),
  });
  const data = stats.data;
  const counts = (['schools', 'teachers', 'students', 'classes'] as const).map((key) => (
    <Col key={key} xs={12} md={6}>
      <Card>
        <Statistic title={t(`statistics.${key}`)} value={data?.[key] ?? 0} loading={stats.isLoading} />
      </Card>
    </Col>
  ));
  return (
    <AdminShell screen="statistics">
      <Row gutter={[16, 16]}>{counts}</Row>
      <Card
        style={{ marginTop: 16 }}
        title={<h2 className="ant-card-head-title">{t('statistics.active')}</h2>}
        extra={
          <div className="admin-toolbar" style={{ margin: 0 }}>
            <Segmented
              aria-label={t('statistics.period')}
              value={days}
              onChange={(value) => setDays(Number(value))}
              options={[7, 30, 90].map((d) => ({ value: d, label: t('statistics.days', { count: d }) }))}
            />
            <Segmented
              aria-label={t('statistics.view')}
              value={view}
              onChange={(value) => setView(value as 'chart' | 'table')}
              options={[
                { value: 'chart', label: t('statistics.chart') },
                { value: 'table', label: t('statistics.table') },
              ]}
            />
          </div>
        }
      >
        {view === 'chart' ? (
          <Suspense fallback={<div className="admin-chart" />}>
            <ActiveChart points={data?.activeByDay ?? []} label={t('statistics.activeUsers')} />
          </Suspense>
        ) : (
          <Table
            size="small"
            rowKey="date"
            pagination={false}
            dataSource={data?.activeByDay ?? []}
            columns={[
              { title: t('statistics.date'), dataIndex: 'date' },
              { title: t('statistics.activeUsers'), dataIndex: 'users' },
            ]}
          />
        )}
      </Card>
      <Card style={{ marginTop: 16 }} title={<h2 className="ant-card-head-title">{t('statistics.perSchool')}</h2>}>
        <Table
          rowKey="id"
          size="small"
          dataSource={data?.bySchool ?? []}
          columns={[
            { title: t('statistics.school'), dataIndex: 'name' },
            { title: t('statistics.customer'), dataIndex: 'customerName' },
            { title: t('statistics.teachers'), dataIndex: 'teachers' },
            { title: t('statistics.students'), dataIndex: 'students' },
            { title: t('statistics.classes'), dataIndex: 'classes' },
          ]}
        />
      </Card>
      <TeachingStatisticsCard />
    </AdminShell>
  );
}
