import { PlusOutlined } from '@ant-design/icons';
import type { TCustomer, TSubCustomerLimits } from '@aiedu/contracts';
import { useQuery } from '@tanstack/react-query';
import { Button, type TableColumnsType } from 'antd';
import { Table } from '../../ui/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../app/api';
import { readSession } from '../../app/session';
import { AdminShell } from './admin-shell';
import { ADMIN_API } from './admin-api';
import { CustomerDrawer } from './customer-drawer';
import { ListTable, SearchBar, useStatusSwitch } from './list-controls';
import { useListQuery } from './use-list-query';

/** The columns of both customer lists, with the on/off switch of each row. */
function useCustomerColumns(path: string, onEdit: (c: TCustomer) => void) {
  const { t } = useTranslation('admin');
  const status = useStatusSwitch(path, [path], 'customers');
  const columns: TableColumnsType<TCustomer> = [
    { title: t('customers.code'), dataIndex: 'code', sorter: true },
    { title: t('customers.name'), dataIndex: 'name', sorter: true },
    { title: t('customers.admin'), key: 'admin', render: (_, c) => `${c.adminName} (${c.adminUsername})` },
    { title: t('customers.schools'), key: 'schools', render: (_, c) => `${c.schoolCount} / ${c.schoolQuota ?? '∞'}` },
    { title: t('customers.creator'), dataIndex: 'creator', render: (creator: string | null) => creator ?? '—' },
    {
      title: t('common.status'),
      key: 'enabled',
      render: (_, c) => status.render(c, c.name),
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
  return { columns, modalHost: status.modalHost };
}

/** Customers (super administrators): search, sort, create with an administrator, edit quotas, switch on and off. */
export function CustomersPage() {
  const { t } = useTranslation('admin');
  const list = useListQuery<TCustomer>(ADMIN_API.customers);
  const [editing, setEditing] = useState<TCustomer | 'new' | null>(null);
  const { columns, modalHost } = useCustomerColumns(ADMIN_API.customers, setEditing);
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
      <div className="admin-toolbar">
        <SearchBar label={t('customers.search')} onSearch={(keyword) => list.setFilters({ keyword })} />
      </div>
      <ListTable<TCustomer> list={list} columns={columns} scroll={{ x: true }} />
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

/** A sub-customer's drawer, once the limits of its parent (the caller's customer for a new one) are known. */
function SubCustomerDrawer({ customer, onClose }: { customer: TCustomer | null; onClose: () => void }) {
  const parentId = customer?.parentId ?? undefined;
  const limits = useQuery({
    queryKey: [ADMIN_API.subCustomerLimits, parentId],
    queryFn: () => api.get<TSubCustomerLimits>(ADMIN_API.subCustomerLimits, { query: { parentId } }),
    // A super administrator names the parent; the caller's own customer is the parent of a new one otherwise.
    enabled: parentId !== undefined || !readSession().isSuper,
  });
  if (limits.isPending && limits.fetchStatus !== 'idle') return null;
  return <CustomerDrawer path={ADMIN_API.subCustomers} customer={customer} limits={limits.data} onClose={onClose} />;
}

/** Sub-customers below the caller's customer, each with its own administrators. */
export function SubCustomersPage() {
  const { t } = useTranslation('admin');
  const list = useQuery({
    queryKey: [ADMIN_API.subCustomers],
    queryFn: () => api.get<TCustomer[]>(ADMIN_API.subCustomers),
  });
  const [editing, setEditing] = useState<TCustomer | 'new' | null>(null);
  const customerColumns = useCustomerColumns(ADMIN_API.subCustomers, setEditing);
  const columns = customerColumns.columns.map((c) => ({ ...c, sorter: undefined }));
  const { modalHost } = customerColumns;
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
      {editing && <SubCustomerDrawer customer={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />}
    </AdminShell>
  );
}
