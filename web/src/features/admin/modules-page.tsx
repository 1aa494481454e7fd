import { MODULES, type TCustomer, type TSideModules } from '@aiedu/contracts';
import { useQuery } from '@tanstack/react-query';
import { Button, Checkbox, Form, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../app/api';
import { AdminShell } from './admin-shell';
import { ADMIN_API, useAdminMutation } from './admin-api';
import { FormDrawer } from './form-drawer';
import { ListTable, SearchBar } from './list-controls';
import { useListQuery } from './use-list-query';

const SIDES = ['teacher', 'student'] as const;

/** The two sides' modules of one customer, saved together. */
function ModulesDrawer({ customer, onClose }: { customer: TCustomer; onClose: () => void }) {
  const { t } = useTranslation('admin');
  const [form] = Form.useForm<TSideModules>();
  const path = ADMIN_API.customerModules(customer.id);
  const modules = useQuery({ queryKey: [path], queryFn: () => api.get<TSideModules>(path) });
  const save = useAdminMutation((values: TSideModules) => api.put(path, values), [path], onClose);
  const options = MODULES.map((m) => ({ value: m, label: t(`modules.${m}`) }));
  return (
    <FormDrawer
      title={t('modulesScreen.title', { name: customer.name })}
      width={520}
      saving={save.isPending}
      form={form}
      onClose={onClose}
    >
      {modules.data && (
        <Form<TSideModules>
          form={form}
          layout="vertical"
          initialValues={modules.data}
          onFinish={(values) => save.mutate(values)}
        >
          {SIDES.map((side) => (
            <Form.Item key={side} name={side} label={t(`modulesScreen.${side}`)}>
              <Checkbox.Group aria-label={t(`modulesScreen.${side}`)} options={options} />
            </Form.Item>
          ))}
        </Form>
      )}
    </FormDrawer>
  );
}

/**
 * Which navigation entries and features each side (teachers, students) of a customer may use, customer by
 * customer. The web app hides the others from them, and their pages refuse.
 */
export function ModulesPage() {
  const { t } = useTranslation('admin');
  const list = useListQuery<TCustomer>(ADMIN_API.customers);
  const [editing, setEditing] = useState<TCustomer | null>(null);
  const columns: TableColumnsType<TCustomer> = [
    { title: t('customers.code'), dataIndex: 'code', sorter: true },
    { title: t('customers.name'), dataIndex: 'name', sorter: true },
    {
      title: t('common.actions'),
      key: 'actions',
      render: (_, c) => (
        <Button type="link" onClick={() => setEditing(c)} aria-label={t('modulesScreen.setFor', { name: c.name })}>
          {t('modulesScreen.set')}
        </Button>
      ),
    },
  ];
  return (
    <AdminShell screen="modules">
      <p className="admin-lead">{t('modulesScreen.lead')}</p>
      <div className="admin-toolbar">
        <SearchBar label={t('customers.search')} onSearch={(keyword) => list.setFilters({ keyword })} />
      </div>
      <ListTable<TCustomer> list={list} columns={columns} />
      {editing && <ModulesDrawer customer={editing} onClose={() => setEditing(null)} />}
    </AdminShell>
  );
}
