import { PlusOutlined } from '@ant-design/icons';
import type { TCustomer } from '@aiedu/contracts';
import { useQuery } from '@tanstack/react-query';
import { Button, Input, Modal, Switch, Table, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../app/api';
import { AdminShell } from './admin-shell';
import { ADMIN_API, useAdminMutation } from './admin-api';
import { confirmDanger } from './confirm';
import { CustomerDrawer } from './customer-drawer';
import { useListQuery } from './use-list-query';

function useCustomerColumns(path: string, onEdit: (c: TCustomer) => void, modal: ReturnType<typeof Modal.useModal>[0]) {
  const { t } = useTranslation('admin');
  const switchStatus = useAdminMutation(
    ({ id, enabled }: { id: string; enabled: boolean }) => api.put(`${path}/${id}/status`, { enabled }),
    [path],
  );
  const onSwitch = (c: TCustomer, enabled: boolean) =>
    enabled
      ? switchStatus.mutate({ id: c.id, enabled })
      : confirmDanger(modal, {
          title: t('customers.disableTitle', { name: c.name }),
          content: t('customers.disableBody'),
          okText: t('common.switchOff'),
          cancelText: t('common.cancel'),
          onOk: () => switchStatus.mutateAsync({ id: c.id, enabled }),
        });
  const columns: TableColumnsType<TCustomer> = [
    { title: t('customers.code'), dataIndex: 'code', sorter: true },
    { title: t('customers.name'), dataIndex: 'name', sorter: true },
    { title: t('customers.admin'), key: 'admin', render: (_, c) => `${c.adminName} (${c.adminUsername})` },
    { title: t('customers.schools'), key: 'schools', render: (_, c) => `${c.schoolCount} / ${c.schoolQuota ?? '∞'}` },
    {
      title: t('common.status'),
      key: 'enabled',
      render: (_, c) => (
        <Switch
          checked={c.enabled}
          aria-label={t('common.switchFor', { name: c.name })}
          onChange={(on) => onSwitch(c, on)}
        />
      ),
    },
    {
      title: t('common.actions'),
      key: 'actions',
      render: (_, c) => (
        <Button type="link" onClick={() => onEdit(c)}>
          {t('common.edit')}
        </Button>
      ),
    },
  ];
  return columns;
}

/** Customers (super administrators): search, sort, create with an administrator, edit quotas, switch on and off. */
export function CustomersPage() {
  const { t } = useTranslation('admin');
  const list = useListQuery<TCustomer>(ADMIN_API.customers);
  const [modal, modalHost] = Modal.useModal();
  const [editing, setEditing] = useState<TCustomer | 'new' | null>(null);
  const columns = useCustomerColumns(ADMIN_API.customers, setEditing, modal);
  return (
    <AdminShell
      screen="customers"
      actions={
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')}>
          {t('customers.new')}
        </Button>
      }
    >
      {modalHost}
      <div className="admin-toolbar" role="search">
        <Input.Search
          allowClear
          aria-label={t('customers.search')}
          placeholder={t('customers.search')}
          style={{ width: 260 }}
          onSearch={(keyword) => list.setFilters({ keyword: keyword || undefined })}
        />
      </div>
      <Table<TCustomer>
        rowKey="id"
        columns={columns}
        dataSource={list.rows}
        loading={list.query.isFetching}
        pagination={list.pagination}
        onChange={list.onChange}
        scroll={{ x: true }}
      />
      {editing && (
        <CustomerDrawer
          path={ADMIN_API.customers}
          customer={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
        />
      )}
    </AdminShell>
  );
}

/** Sub-customers below the caller's customer, each with its own administrators. */
export function SubCustomersPage() {
  const { t } = useTranslation('admin');
  const list = useQuery({
    queryKey: [ADMIN_API.subCustomers],
    queryFn: () => api.get<TCustomer[]>(ADMIN_API.subCustomers),
  });
  const [modal, modalHost] = Modal.useModal();
  const [editing, setEditing] = useState<TCustomer | 'new' | null>(null);
  const columns = useCustomerColumns(ADMIN_API.subCustomers, setEditing, modal).map((c) => ({
    ...c,
    sorter: undefined,
  }));
  return (
    <AdminShell
      screen="subCustomers"
      actions={
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')}>
          {t('customers.newSub')}
        </Button>
      }
    >
      {modalHost}
      <Table<TCustomer> rowKey="id" columns={columns} dataSource={list.data ?? []} loading={list.isFetching} />
      {editing && (
        <CustomerDrawer
          path={ADMIN_API.subCustomers}
          customer={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
        />
      )}
    </AdminShell>
  );
}
