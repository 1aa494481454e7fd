import type { TScheduleDetail, TScheduleTask } from '@aiedu/contracts';
import { Button, DatePicker, Empty, Modal, Select, Space } from 'antd';
import { Table } from '../../ui/table';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { dayjs, formatDateTime } from '../../ui/dates';
import { confirmDanger } from '../admin/confirm';
import { DueDialog } from './due-dialog';
import { scheduleCalls, useScheduleMutation, useScheduleTasks } from './schedule-api';
import { SubmissionsDrawer } from './submissions-drawer';
import { TaskTitle } from './schedule-labels';

/**
 * The teachers' tasks of a schedule: a task of the pinned versions given with an optional due time, and per task
 * how many students answered and were scored, its answers to score, a new due time, or taking it back. A finished
 * schedule only shows them.
 */
export function TeacherTasks({ schedule }: { schedule: TScheduleDetail }) {
  const { t } = useTranslation('schedule');
  const tasks = useScheduleTasks(schedule.id);
  const [modal, modalHost] = Modal.useModal();
  const [taskId, setTaskId] = useState<string | null>(null);
  const [dueAt, setDueAt] = useState<Dayjs | null>(null);
  const [scoring, setScoring] = useState<TScheduleTask | null>(null);
  const [moving, setMoving] = useState<TScheduleTask | null>(null);
  const open = schedule.status !== 'finished';
  const given = new Set((tasks.data ?? []).map((x) => x.taskId));
  const assign = useScheduleMutation(
    () => scheduleCalls.assign(schedule.id, { taskId: taskId!, dueAt: dueAt?.toISOString() ?? null }),
    () => {
      setTaskId(null);
      setDueAt(null);
    },
  );
  const unassign = useScheduleMutation((id: string) => scheduleCalls.unassign(id));
  const takeBack = (task: TScheduleTask) =>
    confirmDanger(modal, {
      title: t('tasks.takeBackTitle', { title: task.title }),
      content: t('tasks.takeBackBody'),
      okText: t('tasks.takeBack'),
      cancelText: t('common.cancel', { ns: 'admin' }),
      onOk: () => unassign.mutateAsync(task.id),
    });
  const choices = schedule.courses.map((c) => ({
    label: c.name,
    options: c.sections.flatMap((s) =>
      s.tasks
        .filter((task) => !given.has(task.id))
        .map((task) => ({ value: task.id, label: `${s.title} · ${task.title}` })),
    ),
  }));

  return (
    <div className="schedule-tasks">
      {modalHost}
      {open && (
        <Space wrap className="schedule-toolbar">
          <Select
            aria-label={t('tasks.pick')}
            placeholder={t('tasks.pick')}
            value={taskId}
            onChange={setTaskId}
            options={choices}
            showSearch
            optionFilterProp="label"
            style={{ width: 320 }}
          />
          <DatePicker
            aria-label={t('tasks.dueOptional')}
            placeholder={t('tasks.dueOptional')}
            showTime
            format="YYYY-MM-DD HH:mm"
            value={dueAt}
            onChange={setDueAt}
            disabledDate={(d) => d.isBefore(dayjs(), 'day')}
          />
          <Button type="primary" disabled={!taskId} loading={assign.isPending} onClick={() => assign.mutate(undefined)}>
            {t('tasks.give')}
          </Button>
        </Space>
      )}
      <Table<TScheduleTask>
        rowKey="id"
        loading={tasks.isPending}
        dataSource={tasks.data ?? []}
        pagination={false}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: <Empty description={open ? t('tasks.emptyTeacher') : t('tasks.emptyFinished')} /> }}
        columns={[
          {
            title: t('tasks.title'),
            key: 'title',
            render: (_, task) => <TaskTitle task={task} />,
          },
          {
            title: t('tasks.kinds'),
            key: 'kinds',
            render: (_, task) => task.questionTypes.map((q) => t(`tasks.types.${q}`)).join(', '),
          },
          {
            title: t('tasks.due'),
            key: 'due',
            render: (_, task) => (task.dueAt ? formatDateTime(task.dueAt) : t('tasks.noDue')),
          },
          {
            title: t('tasks.submitted'),
            key: 'submitted',
            render: (_, task) => t('tasks.ofStudents', { count: task.counts!.submitted, total: task.counts!.students }),
          },
          { title: t('tasks.scored'), key: 'scored', render: (_, task) => task.counts!.graded },
          {
            title: t('tasks.actions'),
            key: 'actions',
            render: (_, task) => (
              <Space size={0} wrap>
                <Button type="link" onClick={() => setScoring(task)}>
                  {t('tasks.answers')}
                </Button>
                {open && (
                  <Button type="link" onClick={() => setMoving(task)}>
                    {t('tasks.changeDue')}
                  </Button>
                )}
                {open && (
                  <Button type="link" danger onClick={() => takeBack(task)}>
                    {t('tasks.takeBack')}
                  </Button>
                )}
              </Space>
            ),
          },
        ]}
      />
      {scoring && <SubmissionsDrawer task={scoring} readOnly={!open} onClose={() => setScoring(null)} />}
      {moving && (
        <DueDialog
          title={t('tasks.changeDueTitle', { title: moving.title })}
          initial={moving.dueAt}
          onSave={(next) => scheduleCalls.changeDue(moving.id, next)}
          onClose={() => setMoving(null)}
        />
      )}
    </div>
  );
}
