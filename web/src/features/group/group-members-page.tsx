import { UserAddOutlined } from '@ant-design/icons';
import { GROUP_LIMITS, type TGroupDetail, type TGroupMember } from '@aiedu/contracts';
import { Alert, Form, Modal, Select, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../app/feedback';
import { Button } from '../../ui/button';
import { formatDateTime } from '../../ui/dates';
import { FormError } from '../../ui/form-error';
import { confirmDanger } from '../admin/confirm';
import { ADD_MEMBER_CODES, groupCalls, useGroupMembers, useGroupMutation } from './group-api';
import { refusalMessage } from '../../app/api-client';
import { GroupShell } from './group-shell';
import { PagedTable, usePaging } from './paged-table';

/**
 * The owner adds people of their own school by username, at most 50 at a time; anyone else joins with the
 * invitation code (the server refuses them with 6006, shown here).
 */
function AddMembers({ group }: { group: TGroupDetail }) {
  const { t } = useTranslation('group');
  const [form] = Form.useForm<{ usernames: string[] }>();
  const [refusal, setRefusal] = useState<string>();
  const add = useGroupMutation(
    (usernames: string[]) => groupCalls.addMembers(group.id, usernames),
    (result) => {
      form.resetFields();
      if (result.added.length) toast.success(t('members.added', { count: result.added.length }));
      if (result.alreadyMembers.length)
        toast.warning(t('members.alreadyMembers', { names: result.alreadyMembers.join(', ') }));
    },
  );
  return (
    <Form
      form={form}
      layout="vertical"
      className="group-add-members"
      onFinish={({ usernames }) => {
        setRefusal(undefined);
        add.mutate(usernames.map((u) => u.trim()).filter(Boolean), {
          onError: (error) => setRefusal(refusalMessage(error, ADD_MEMBER_CODES)),
        });
      }}
    >
      <Alert type="info" showIcon title={t('members.addRule')} />
      <Form.Item
        name="usernames"
        label={t('members.addLabel')}
        extra={t('members.addHelp', { count: GROUP_LIMITS.addUsernames })}
        rules={[
          { required: true, message: t('members.addRequired') },
          {
            type: 'array',
            max: GROUP_LIMITS.addUsernames,
            message: t('members.addTooMany', { count: GROUP_LIMITS.addUsernames }),
          },
        ]}
      >
        <Select mode="tags" open={false} tokenSeparators={[',', ' ', '\n']} suffixIcon={null} />
      </Form.Item>
      <FormError message={refusal} />
      <Button kind="primary" htmlType="submit" icon={<UserAddOutlined />} loading={add.isPending}>
        {t('members.add')}
      </Button>
    </Form>
  );
}

function Members({ group }: { group: TGroupDetail }) {
  const { t } = useTranslation('group');
  const [modal, modalHost] = Modal.useModal();
  const paging = usePaging();
  const members = useGroupMembers(group.id, paging.query);
  const owner = group.myRole === 'owner';
  const remove = useGroupMutation((member: TGroupMember) => groupCalls.removeMember(group.id, member.userId));
  const confirmRemove = (member: TGroupMember) =>
    confirmDanger(modal, {
      title: t('members.removeTitle', { name: member.realName || member.username }),
      content: t('members.removeBody'),
      okText: t('members.remove'),
      cancelText: t('common.cancel'),
      onOk: () => remove.mutateAsync(member),
    });
  return (
    <>
      {modalHost}
      {owner && <AddMembers group={group} />}
      <PagedTable<TGroupMember>
        paging={paging}
        query={members}
        rowKey="userId"
        searchLabel={t('members.search')}
        emptyText={t('members.empty')}
        columns={[
          { title: t('members.username'), dataIndex: 'username' },
          { title: t('members.name'), dataIndex: 'realName' },
          { title: t('members.school'), key: 'school', render: (_, m) => m.schoolName || '—' },
          {
            title: t('members.role'),
            key: 'role',
            render: (_, m) => <Tag color={m.role === 'owner' ? 'purple' : 'blue'}>{t(`roles.${m.role}`)}</Tag>,
          },
          { title: t('members.joinedVia'), key: 'via', render: (_, m) => t(`members.via.${m.joinedVia}`) },
          { title: t('members.joinedAt'), key: 'at', render: (_, m) => formatDateTime(m.joinedAt) },
          ...(owner
            ? [
                {
                  title: t('common.actions'),
                  key: 'actions',
                  render: (_: unknown, m: TGroupMember) =>
                    m.role === 'owner' ? null : (
                      <Button
                        size="small"
                        danger
                        aria-label={t('members.removeOne', { name: m.username })}
                        onClick={() => confirmRemove(m)}
                      >
                        {t('members.remove')}
                      </Button>
                    ),
                },
              ]
            : []),
        ]}
      />
    </>
  );
}

export function GroupMembersPage() {
  return <GroupShell part="members">{(group) => <Members group={group} />}</GroupShell>;
}
