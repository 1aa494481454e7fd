import { DeleteOutlined, EditOutlined, TeamOutlined } from '@ant-design/icons';
import type { TScheduleDetail } from '@aiedu/contracts';
import { Button, Modal, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { LinkButton } from '../../ui/link-button';
import { confirmDanger } from '../admin/confirm';
import { scheduleCalls, useScheduleMutation } from './schedule-api';
import { ScheduleFormDrawer } from './schedule-form-drawer';
import { SCHEDULES_PATH, scheduleStudentsPath } from './schedule-paths';

/**
 * A teacher's actions on a schedule: its students, a change while it is not finished, start (not started), finish
 * (in progress, after a confirmation: it becomes read-only) and delete (after the 472 px confirmation).
 */
export function ScheduleActions({ schedule }: { schedule: TScheduleDetail }) {
  const { t } = useTranslation('schedule');
  const navigate = useNavigate();
  const [modal, modalHost] = Modal.useModal();
  const [editing, setEditing] = useState(false);
  const move = useScheduleMutation((action: 'start' | 'finish') => scheduleCalls.move(schedule.id, action));
  const remove = useScheduleMutation(
    () => scheduleCalls.remove(schedule.id),
    () => void navigate(SCHEDULES_PATH),
  );
  const cancelText = t('common.cancel', { ns: 'admin' });
  const finish = () =>
    confirmDanger(modal, {
      title: t('actions.finishTitle', { name: schedule.name }),
      content: t('actions.finishBody'),
      okText: t('actions.finish'),
      cancelText,
      onOk: () => move.mutateAsync('finish'),
    });
  const del = () =>
    confirmDanger(modal, {
      title: t('actions.deleteTitle', { name: schedule.name }),
      content: t('actions.deleteBody'),
      okText: t('actions.delete'),
      cancelText,
      onOk: () => remove.mutateAsync(undefined),
    });
  return (
    <Space wrap className="schedule-actions">
      {modalHost}
      <LinkButton to={scheduleStudentsPath(schedule.id)} icon={<TeamOutlined />}>
        {t('actions.students')}
      </LinkButton>
      {schedule.status !== 'finished' && (
        <Button icon={<EditOutlined />} onClick={() => setEditing(true)}>
          {t('actions.edit')}
        </Button>
      )}
      {schedule.status === 'notStarted' && (
        <Button type="primary" loading={move.isPending} onClick={() => move.mutate('start')}>
          {t('actions.start')}
        </Button>
      )}
      {schedule.status === 'inProgress' && (
        <Button type="primary" loading={move.isPending} onClick={finish}>
          {t('actions.finish')}
        </Button>
      )}
      <Button danger icon={<DeleteOutlined />} onClick={del}>
        {t('actions.delete')}
      </Button>
      {editing && (
        <ScheduleFormDrawer schedule={schedule} onClose={() => setEditing(false)} onSaved={() => setEditing(false)} />
      )}
    </Space>
  );
}
