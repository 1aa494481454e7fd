import type { TScheduleDetail, TScheduleTask } from '@aiedu/contracts';
import { Empty, Tag } from 'antd';
import { Table } from '../../ui/table';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../ui/dates';
import { LinkButton } from '../../ui/link-button';
import { useScheduleTasks } from './schedule-api';
import { TaskTitle } from './schedule-labels';
import { taskSectionPath } from './schedule-paths';

const RESULT_COLORS = { todo: '#1f5fcc', pending: '#ad4e00', graded: '#237804', closed: '#595959' } as const;

/**
 * A student's tasks of the schedule: their own due time, where they stand (to do, awaiting a score, scored, closed)
 * and the teacher's score and comment; a task still open is answered in its course section.
 */
export function StudentTasks({ schedule }: { schedule: TScheduleDetail }) {
  const { t } = useTranslation('schedule');
  const tasks = useScheduleTasks(schedule.id);
  const result = (task: TScheduleTask) => {
    const mine = task.mine!;
    return mine.status === 'todo' && !mine.open ? 'closed' : mine.status;
  };
  return (
    <Table<TScheduleTask>
      rowKey="id"
      loading={tasks.isPending}
      dataSource={tasks.data ?? []}
      pagination={false}
      scroll={{ x: 'max-content' }}
      locale={{ emptyText: <Empty description={t('tasks.emptyStudent')} /> }}
      columns={[
        {
          title: t('tasks.title'),
          key: 'title',
          render: (_, task) => <TaskTitle task={task} />,
        },
        {
          title: t('tasks.due'),
          key: 'due',
          render: (_, task) => (task.mine!.dueAt ? formatDateTime(task.mine!.dueAt) : t('tasks.noDue')),
        },
        {
          title: t('tasks.result'),
          key: 'result',
          render: (_, task) => <Tag color={RESULT_COLORS[result(task)]}>{t(`tasks.results.${result(task)}`)}</Tag>,
        },
        {
          title: t('tasks.score'),
          key: 'score',
          render: (_, task) => (task.mine!.score === null ? '—' : task.mine!.score),
        },
        { title: t('tasks.comment'), key: 'comment', render: (_, task) => task.mine!.comment || '—' },
        {
          title: t('tasks.actions'),
          key: 'actions',
          render: (_, task) =>
            task.mine!.open && (
              <LinkButton kind="secondary" to={taskSectionPath(task.courseId, task.sectionId)}>
                {task.mine!.status === 'todo' ? t('tasks.answer') : t('tasks.answerAgain')}
              </LinkButton>
            ),
        },
      ]}
    />
  );
}
