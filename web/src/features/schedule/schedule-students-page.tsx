import { ArrowLeftOutlined, DownloadOutlined } from '@ant-design/icons';
import type { TScheduleStudent } from '@aiedu/contracts';
import { Button, Empty, Progress, Skeleton, Tooltip } from 'antd';
import { Table } from '../../ui/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { formatDateTime } from '../../ui/dates';
import { LinkButton } from '../../ui/link-button';
import { scheduleCalls, useScheduleDetail, useScheduleStudents, useScheduleTasks } from './schedule-api';
import { ScheduleMissing } from './schedule-detail-page';
import { schedulePath } from './schedule-paths';
import './schedule.css';

/**
 * A schedule's students for its teachers: who is in it (its classes' students and those picked), progress over the
 * pinned sections, time spent, last activity and each task's result; exported to xlsx in the teacher's language.
 */
export function ScheduleStudentsPage() {
  const { t } = useTranslation('schedule');
  const { scheduleId = '' } = useParams();
  const detail = useScheduleDetail(scheduleId);
  const students = useScheduleStudents(scheduleId);
  const tasks = useScheduleTasks(scheduleId);
  const [exporting, setExporting] = useState(false);
  if (detail.isPending) return <Skeleton active className="page" />;
  if (detail.isError || !detail.data || detail.data.role !== 'teacher') return <ScheduleMissing />;
  const sections = detail.data.courses.flatMap((c) => c.sections);
  const titles = new Map((tasks.data ?? []).map((x) => [x.id, x.title]));
  const download = async () => {
    setExporting(true);
    try {
      await scheduleCalls.exportStudents(scheduleId, `${detail.data.name}.xlsx`);
    } finally {
      setExporting(false);
    }
  };
  return (
    <div className="page schedule-page">
      <LinkButton kind="ghost" to={schedulePath(scheduleId)} icon={<ArrowLeftOutlined />}>
        {detail.data.name}
      </LinkButton>
      <header className="schedule-head">
        <h1>{t('scheduleStudents', { ns: 'screens' })}</h1>
        <Button icon={<DownloadOutlined />} loading={exporting} onClick={download}>
          {t('students.export')}
        </Button>
      </header>
      <Table<TScheduleStudent>
        rowKey="userId"
        loading={students.isPending}
        dataSource={students.data ?? []}
        pagination={{ pageSize: 50, hideOnSinglePage: true }}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: <Empty description={t('students.empty')} /> }}
        columns={[
          {
            title: t('students.student'),
            key: 'student',
            fixed: 'left',
            render: (_, s) => (
              <>
                <div>{s.name}</div>
                <div className="schedule-muted">{s.username}</div>
              </>
            ),
          },
          { title: t('students.className'), key: 'class', render: (_, s) => s.className ?? '—' },
          {
            title: t('students.progress'),
            key: 'progress',
            render: (_, s) => (
              <Tooltip title={t('students.sections', { count: s.completedSections, total: sections.length })}>
                <Progress
                  percent={s.progress}
                  size="small"
                  style={{ width: 140 }}
                  aria-label={t('students.progressOf', { name: s.name })}
                />
              </Tooltip>
            ),
          },
          {
            title: t('students.time'),
            key: 'time',
            render: (_, s) => t('students.minutes', { count: Math.round(s.secondsSpent / 60) }),
          },
          {
            title: t('students.lastActive'),
            key: 'last',
            render: (_, s) => (s.lastActiveAt ? formatDateTime(s.lastActiveAt) : t('students.never')),
          },
          ...(students.data?.[0]?.tasks ?? []).map((task, i) => ({
            title: titles.get(task.scheduleTaskId) ?? '',
            key: task.scheduleTaskId,
            render: (_: unknown, s: TScheduleStudent) => {
              const result = s.tasks[i]!;
              return result.status === 'todo' ? t('tasks.results.todo') : (result.score ?? t('tasks.results.pending'));
            },
          })),
        ]}
      />
    </div>
  );
}
