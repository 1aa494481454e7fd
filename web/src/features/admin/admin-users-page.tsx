import { PlusOutlined } from '@ant-design/icons';
import { ADMIN_ROLES, type AdminRole, type TAdminUser } from '@aiedu/contracts';
import { useQuery } from '@tanstack/react-query';
import { Button, Space, Tag, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../app/api';
import { formatDateTime } from '../../ui/dates';
import { AdminShell } from './admin-shell';
import { ADMIN_API, useSchoolOptions } from './admin-api';
import { AdminUserDrawer } from './admin-user-drawer';
import { useBatchDelete } from './batch-delete';
import { FilterSelect, ListTable, SearchBar, useStatusSwitch } from './list-controls';
import { PasswordDialog } from './password-dialog';
import { useListQuery } from './use-list-query';

const isAdminRole = (role: string): role is AdminRole => (ADMIN_ROLES as readonly string[]).includes(role);

/** The administrator roles of `/api/v1/role` (the permission table), named in the page's language. */
function useAdminRoleOptions() {
  const { t } = useTranslation('admin');
  const roles = useQuery({
    queryKey: [ADMIN_API.roles],
    queryFn: () => api.get<{ role: string; permissions: string[] }[]>(ADMIN_API.roles),
    staleTime: Infinity,
  });
  return (roles.data ?? [])
    .map((r) => r.role)
    .filter(isAdminRole)
    .map((role) => ({ value: role, label: t(`roles.${role}`) }));
}

/**
 * Administrator accounts of the caller's scope (`/api/v1/user`): search, role filter, create, edit, switch on and
 * off, reset the password, delete one or several.
 */
export function AdminUsersPage() {
  const { t } = useTranslation('admin');
  const list = useListQuery<TAdminUser>(ADMIN_API.users);
  const roleOptions = useAdminRoleOptions();
  const schools = useSchoolOptions();
  const [editing, setEditing] = useState<TAdminUser | 'new' | null>(null);
  const [resetting, setResetting] = useState<TAdminUser | null>(null);
  const status = useStatusSwitch(ADMIN_API.users, [ADMIN_API.users], 'users');
  const removal = useBatchDelete<TAdminUser>(
    ADMIN_API.users,
    [ADMIN_API.users, ADMIN_API.teachers],
    'users',
    (u) => u.username,
  );

  const columns: TableColumnsType<TAdminUser> = [
    { title: t('people.username'), dataIndex: 'username', sorter: true },
    { title: t('people.realName'), dataIndex: 'realName', sorter: true },
    {
      title: t('users.role'),
      key: 'roles',
      render: (_, u) => (
        <Space size={4} wrap>
          {u.roles.filter(isAdminRole).map((role) => (
            <Tag key={role}>{t(`roles.${role}`)}</Tag>
          ))}
          {u.customRoleName && <Tag color="blue">{u.customRoleName}</Tag>}
          {u.alsoTeacher && <Tag color="green">{t('users.teaches')}</Tag>}
        </Space>
      ),
    },
    {
      title: t('people.school'),
      key: 'school',
      render: (_, u) => schools.data?.find((s) => s.id === u.schoolId)?.name,
    },
    { title: t('people.phone'), dataIndex: 'phone' },
    { title: t('users.createdAt'), dataIndex: 'createdAt', sorter: true, render: (at: string) => formatDateTime(at) },
    { title: t('common.status'), key: 'enabled', render: (_, u) => status.render(u, u.username) },
    {
      title: t('common.actions'),
      key: 'actions',
      render: (_, u) => (
        <Space size={0} wrap>
          <Button type="link" onClick={() => setEditing(u)}>
            {t('common.edit')}
          </Button>
          <Button type="link" onClick={() => setResetting(u)}>
            {t('people.resetPassword')}
          </Button>
          <Button type="link" danger onClick={() => removal.askDelete(u)}>
            {t('common.delete')}
          </Button>
        </Space>
      ),
    },
  ];

  const actions = (
    <>
      {removal.deleteSelected}
      <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')}>
        {t('users.new')}
      </Button>
    </>
  );

  return (
    <AdminShell screen="adminUsers" actions={actions}>
      {/* Each holder keys itself "modal-holder": one fragment each keeps them apart. */}
      <>{removal.modalHost}</>
      <>{status.modalHost}</>
      <div className="admin-toolbar">
        <SearchBar label={t('people.search')} onSearch={(keyword) => list.setFilters({ keyword })} />
        <FilterSelect
          label={t('users.roleFilter')}
          options={roleOptions}
          onChange={(role) => list.setFilters({ role })}
        />
      </div>
      <ListTable<TAdminUser> list={list} columns={columns} rowSelection={removal.rowSelection} />
      {editing && (
        <AdminUserDrawer
          user={editing === 'new' ? null : editing}
          roleOptions={roleOptions}
          onClose={() => setEditing(null)}
        />
      )}
      {resetting && (
        <PasswordDialog
          path={`${ADMIN_API.users}/${resetting.id}/password`}
          name={resetting.realName || resetting.username}
          onClose={() => setResetting(null)}
        />
      )}
    </AdminShell>
  );
}
