import { PlusOutlined } from '@ant-design/icons';
import { ADMIN_ROLES, type TCustomRole } from '@aiedu/contracts';
import { Button, Space, Tag, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ADMIN_API } from './admin-api';
import { AdminShell } from './admin-shell';
import { useBatchDelete } from './batch-delete';
import { CustomRoleDrawer } from './custom-role-drawer';
import { FilterSelect, ListTable, RowActions, SearchBar, useStatusSwitch } from './list-controls';
import { useListQuery } from './use-list-query';

/**
 * Custom roles (super administrators): each narrows a built-in administrator role to some of its permissions.
 * Search, filter by base role and state, create, edit, switch on and off, delete one or several.
 */
export function CustomRolesPage() {
  const { t } = useTranslation('admin');
  const list = useListQuery<TCustomRole>(ADMIN_API.roleSearch);
  const [editing, setEditing] = useState<TCustomRole | 'new' | null>(null);
  const status = useStatusSwitch(ADMIN_API.roles, [ADMIN_API.roleSearch], 'customRoles');
  const removal = useBatchDelete<TCustomRole>(ADMIN_API.roles, [ADMIN_API.roleSearch], 'customRoles', (r) => r.name);

  const columns: TableColumnsType<TCustomRole> = [
    {
      title: t('customRoles.name'),
      key: 'name',
      render: (_, r) => (
        <>
          <div>{r.name}</div>
          {r.description && <div className="admin-muted">{r.description}</div>}
        </>
      ),
    },
    { title: t('customRoles.baseRole'), key: 'baseRole', render: (_, r) => t(`roles.${r.baseRole}`) },
    {
      title: t('customRoles.permissions'),
      key: 'permissions',
      render: (_, r) => (
        <Space size={4} wrap>
          {r.permissions.map((p) => (
            <Tag key={p}>{t(`permissions.${p}`, { defaultValue: p })}</Tag>
          ))}
        </Space>
      ),
    },
    { title: t('customRoles.accounts'), dataIndex: 'accounts' },
    { title: t('common.status'), key: 'enabled', render: (_, r) => status.render(r, r.name) },
    {
      title: t('common.actions'),
      key: 'actions',
      render: (_, r) => <RowActions onEdit={() => setEditing(r)} onDelete={() => removal.askDelete(r)} />,
    },
  ];

  const actions = (
    <>
      {removal.deleteSelected}
      <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')}>
        {t('customRoles.new')}
      </Button>
    </>
  );

  return (
    <AdminShell screen="customRoles" actions={actions}>
      {/* Each holder keys itself "modal-holder": one fragment each keeps them apart. */}
      <>{removal.modalHost}</>
      <>{status.modalHost}</>
      <p className="admin-muted">{t('customRoles.lead')}</p>
      <div className="admin-toolbar">
        <SearchBar label={t('customRoles.search')} onSearch={(keyword) => list.setFilters({ keyword })} />
        <FilterSelect
          label={t('customRoles.baseRoleFilter')}
          options={ADMIN_ROLES.map((role) => ({ value: role, label: t(`roles.${role}`) }))}
          onChange={(baseRole) => list.setFilters({ baseRole })}
        />
        <FilterSelect
          label={t('customRoles.statusFilter')}
          options={[
            { value: 'true', label: t('customRoles.on') },
            { value: 'false', label: t('customRoles.off') },
          ]}
          onChange={(enabled) => list.setFilters({ enabled })}
          width={160}
        />
      </div>
      <ListTable<TCustomRole> list={list} columns={columns} rowSelection={removal.rowSelection} />
      {editing && <CustomRoleDrawer role={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />}
    </AdminShell>
  );
}
