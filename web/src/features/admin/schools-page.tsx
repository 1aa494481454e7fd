import { PlusOutlined } from '@ant-design/icons';
import {
  EDU_STAGES,
  hasPermission,
  LIMITS,
  ROLES,
  ZCreateSchoolRequest,
  type TCustomer,
  type TSchool,
  type TPage,
} from '@aiedu/contracts';
import { useQuery } from '@tanstack/react-query';
import { Button, Form, Input, Select, Switch, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../app/api';
import { useSessionRoles } from '../../app/session';
import { schemaRule } from '../../ui/form-rules';
import { AdminShell } from './admin-shell';
import { ADMIN_API, useAdminMutation } from './admin-api';
import { FormDrawer } from './form-drawer';
import { ListTable, SearchBar, useStatusSwitch } from './list-controls';
import { useListQuery } from './use-list-query';

type Values = { name: string; eduStages: string[]; notes: string; listed: boolean; customerId?: string };

/**
 * The customers a new school may go to: every customer for a super administrator, the caller's own and its
 * sub-customers for a customer administrator (none to choose from otherwise: the school is the caller's customer's).
 */
function useCustomerChoices() {
  const { t } = useTranslation('admin');
  const roles = useSessionRoles();
  const isSuper = roles.includes(ROLES.super);
  const customers = useQuery({
    queryKey: [ADMIN_API.customers, { size: 100 }],
    queryFn: () => api.get<TPage<TCustomer>>(ADMIN_API.customers, { query: { size: 100 } }),
    enabled: isSuper,
  });
  const subCustomers = useQuery({
    queryKey: [ADMIN_API.subCustomers],
    queryFn: () => api.get<TCustomer[]>(ADMIN_API.subCustomers),
    enabled: !isSuper && hasPermission(roles, 'subCustomer.manage'),
  });
  const label = (c: TCustomer) => `${c.name} (${c.code})`;
  if (isSuper) return (customers.data?.list ?? []).map((c) => ({ value: c.id, label: label(c) }));
  const subs = (subCustomers.data ?? []).map((c) => ({ value: c.id, label: label(c) }));
  return subs.length > 0 ? [{ value: '', label: t('schools.ownCustomer') }, ...subs] : [];
}

function SchoolDrawer({ school, onClose }: { school: TSchool | null; onClose: () => void }) {
  const { t } = useTranslation('admin');
  const [form] = Form.useForm<Values>();
  const customerChoices = useCustomerChoices();
  const save = useAdminMutation(
    ({ customerId, ...values }: Values) =>
      school
        ? api.put(`${ADMIN_API.schools}/${school.id}`, values)
        : api.post(ADMIN_API.schools, { ...values, ...(customerId ? { customerId } : {}) }),
    [ADMIN_API.schools, ADMIN_API.schoolInfo],
    onClose,
  );
  return (
    <FormDrawer
      title={t(school ? 'schools.edit' : 'schools.new')}
      saving={save.isPending}
      form={form}
      initialValues={school ?? { eduStages: ['primary'], notes: '', listed: false, customerId: '' }}
      onFinish={(values) => save.mutate(values)}
      onClose={onClose}
    >
      {!school && customerChoices.length > 0 && (
        <Form.Item
          name="customerId"
          label={t('schools.customer')}
          rules={[{ required: true, message: t('form.required') }]}
        >
          <Select showSearch optionFilterProp="label" options={customerChoices} />
        </Form.Item>
      )}
      <Form.Item
        name="name"
        label={t('schools.name')}
        rules={[schemaRule(ZCreateSchoolRequest.shape.name, t('form.name'))]}
      >
        <Input maxLength={50} />
      </Form.Item>
      <Form.Item
        name="eduStages"
        label={t('schools.eduStages')}
        rules={[{ required: true, message: t('form.required') }]}
      >
        <Select mode="multiple" options={EDU_STAGES.map((s) => ({ value: s, label: t(`stages.${s}`) }))} />
      </Form.Item>
      <Form.Item name="notes" label={t('schools.notes')} rules={[{ max: LIMITS.notes, message: t('form.notes') }]}>
        <Input.TextArea maxLength={LIMITS.notes} showCount rows={2} />
      </Form.Item>
      <Form.Item name="listed" label={t('schools.listed')} extra={t('schools.listedHint')} valuePropName="checked">
        <Switch />
      </Form.Item>
    </FormDrawer>
  );
}

/** Schools of the caller's customer: search, sort, create within the quota, edit, switch on and off. */
export function SchoolsPage() {
  const { t } = useTranslation('admin');
  const list = useListQuery<TSchool>(ADMIN_API.schools);
  const [editing, setEditing] = useState<TSchool | 'new' | null>(null);
  const status = useStatusSwitch(ADMIN_API.schools, [ADMIN_API.schools, ADMIN_API.schoolInfo], 'schools');
  // School and organisation administrators see and edit their own school; creating and switching are the customer's.
  const manages = hasPermission(useSessionRoles(), 'school.manage');
  const columns: TableColumnsType<TSchool> = [
    { title: t('schools.name'), dataIndex: 'name', sorter: true },
    { title: t('schools.customer'), dataIndex: 'customerName' },
    {
      title: t('schools.eduStages'),
      key: 'stages',
      render: (_, s) => s.eduStages.map((e) => t(`stages.${e as (typeof EDU_STAGES)[number]}`)).join(', '),
    },
    { title: t('schools.notes'), dataIndex: 'notes', ellipsis: true },
    {
      title: t('common.status'),
      key: 'enabled',
      render: (_, s) => (manages ? status.render(s, s.name) : t(s.enabled ? 'common.enabled' : 'common.disabled')),
    },
    {
      title: t('common.actions'),
      key: 'actions',
      render: (_, s) => (
        <Button type="link" onClick={() => setEditing(s)}>
          {t('common.edit')}
        </Button>
      ),
    },
  ];
  return (
    <AdminShell
      screen="schools"
      actions={
        manages && (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')}>
            {t('schools.new')}
          </Button>
        )
      }
    >
      {status.modalHost}
      <div className="admin-toolbar">
        <SearchBar label={t('schools.search')} onSearch={(keyword) => list.setFilters({ keyword })} />
      </div>
      <ListTable<TSchool> list={list} columns={columns} />
      {editing && <SchoolDrawer school={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />}
    </AdminShell>
  );
}
