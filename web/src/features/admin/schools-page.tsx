import { PlusOutlined } from '@ant-design/icons';
import { EDU_STAGES, LIMITS, ZCreateSchoolRequest, type TSchool } from '@aiedu/contracts';
import { Button, Form, Input, Select, Switch, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../app/api';
import { schemaRule } from '../../ui/form-rules';
import { AdminShell } from './admin-shell';
import { ADMIN_API, useAdminMutation } from './admin-api';
import { FormDrawer } from './form-drawer';
import { ListTable, SearchBar, useStatusSwitch } from './list-controls';
import { useListQuery } from './use-list-query';

type Values = { name: string; eduStages: string[]; notes: string; listed: boolean };

function SchoolDrawer({ school, onClose }: { school: TSchool | null; onClose: () => void }) {
  const { t } = useTranslation('admin');
  const [form] = Form.useForm<Values>();
  const save = useAdminMutation(
    (values: Values) =>
      school ? api.put(`${ADMIN_API.schools}/${school.id}`, values) : api.post(ADMIN_API.schools, values),
    [ADMIN_API.schools, ADMIN_API.schoolInfo],
    onClose,
  );
  return (
    <FormDrawer
      title={t(school ? 'schools.edit' : 'schools.new')}
      saving={save.isPending}
      form={form}
      initialValues={school ?? { eduStages: ['primary'], notes: '', listed: false }}
      onFinish={(values) => save.mutate(values)}
      onClose={onClose}
    >
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
  const columns: TableColumnsType<TSchool> = [
    { title: t('schools.name'), dataIndex: 'name', sorter: true },
    {
      title: t('schools.eduStages'),
      key: 'stages',
      render: (_, s) => s.eduStages.map((e) => t(`stages.${e as (typeof EDU_STAGES)[number]}`)).join(', '),
    },
    { title: t('schools.notes'), dataIndex: 'notes', ellipsis: true },
    {
      title: t('common.status'),
      key: 'enabled',
      render: (_, s) => status.render(s, s.name),
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
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')}>
          {t('schools.new')}
        </Button>
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
