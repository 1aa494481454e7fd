import { DeleteOutlined, EditOutlined, LogoutOutlined } from '@ant-design/icons';
import type { TGroupDetail } from '@aiedu/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { Modal, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { toast } from '../../app/feedback';
import { Button } from '../../ui/button';
import { confirmDanger } from '../admin/confirm';
import { groupCalls, groupKeys } from './group-api';
import { GroupFormDialog } from './group-form-dialog';
import { GROUPS_PATH } from './group-paths';

/**
 * The owner changes or dismisses the group; a member quits it. Dismissing and quitting ask first (472 px), saying
 * what is lost and what stays: members lose the group's shared content, nothing of anyone's own is deleted.
 */
export function GroupActions({ group }: { group: TGroupDetail }) {
  const { t } = useTranslation('group');
  const navigate = useNavigate();
  const client = useQueryClient();
  const [modal, modalHost] = Modal.useModal();
  const [editing, setEditing] = useState(false);

  // The group's own pages are left first, so they do not ask again for a group the caller no longer sees.
  const leave = async (call: () => Promise<unknown>, done: string) => {
    await call();
    toast.success(done);
    await navigate(GROUPS_PATH);
    client.removeQueries({ queryKey: groupKeys.detail(group.id) });
    await client.invalidateQueries({ queryKey: groupKeys.all });
  };
  const dismiss = () =>
    confirmDanger(modal, {
      title: t('actions.dismissTitle', { name: group.name }),
      content: t('actions.dismissBody'),
      okText: t('actions.dismiss'),
      cancelText: t('common.cancel'),
      onOk: () => leave(() => groupCalls.dismiss(group.id), t('actions.dismissed', { name: group.name })),
    });
  const quit = () =>
    confirmDanger(modal, {
      title: t('actions.quitTitle', { name: group.name }),
      content: t('actions.quitBody'),
      okText: t('actions.quit'),
      cancelText: t('common.cancel'),
      onOk: () => leave(() => groupCalls.quit(group.id), t('actions.quitted', { name: group.name })),
    });

  return (
    <Space wrap className="group-head__actions">
      {modalHost}
      {group.myRole === 'owner' ? (
        <>
          <Button icon={<EditOutlined />} onClick={() => setEditing(true)}>
            {t('actions.edit')}
          </Button>
          <Button danger icon={<DeleteOutlined />} onClick={dismiss}>
            {t('actions.dismiss')}
          </Button>
        </>
      ) : (
        <Button danger icon={<LogoutOutlined />} onClick={quit}>
          {t('actions.quit')}
        </Button>
      )}
      {editing && <GroupFormDialog group={group} onClose={() => setEditing(false)} />}
    </Space>
  );
}
