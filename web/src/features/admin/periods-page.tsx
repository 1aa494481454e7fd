import { PlusOutlined } from '@ant-design/icons';
import type { TPeriod } from '@aiedu/contracts';
import { useQuery } from '@tanstack/react-query';
import { Button, DatePicker, Form, Input, Modal, Select } from 'antd';
import { Table } from '../../ui/table';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../app/api';
import { dayjs } from '../../ui/dates';
import { AdminShell } from './admin-shell';
import { FormDrawer } from './form-drawer';
import { ADMIN_API, useAdminMutation, useSchoolOptions } from './admin-api';
import { confirmDelete } from './confirm';
import { RowActions } from './list-controls';

interface Values {
  name: string;
  range: [Dayjs, Dayjs];
  schoolId?: string | null;
}

function PeriodDrawer({ period, onClose }: { period: TPeriod | null; onClose: () => void }) {
  const { t } = useTranslation('admin');
  const [form] = Form.useForm<Values>();
  const schools = useSchoolOptions();
  const save = useAdminMutation(
    ({ name, range, schoolId }: Values) => {
      const body = { name, startDate: range[0].format('YYYY-MM-DD'), endDate: range[1].format('YYYY-MM-DD'), schoolId };
      return period ? api.put(`${ADMIN_API.periods}/${period.id}`, body) : api.post(ADMIN_API.periods, body);
    },
    [ADMIN_API.periods],
    onClose,
  );
  return (
    <FormDrawer
      title={t(period ? 'periods.edit' : 'periods.new')}
      saving={save.isPending}
      form={form}
      initialValues={
        period
          ? { name: period.name, schoolId: period.schoolId, range: [dayjs(period.startDate), dayjs(period.endDate)] }
          : { schoolId: null }
      }
      onFinish={(values) => save.mutate(values)}
      onClose={onClose}
    >
      <Form.Item
        name="name"
        label={t('periods.name')}
        rules={[{ required: true, max: 30, message: t('form.periodName') }]}
      >
        <Input maxLength={30} />
      </Form.Item>
      <Form.Item name="range" label={t('periods.dates')} rules={[{ required: true, message: t('form.required') }]}>
        <DatePicker.RangePicker />
      </Form.Item>
      {(schools.data?.length ?? 0) > 1 && (
        <Form.Item name="schoolId" label={t('periods.school')}>
          <Select
            options={[
              { value: null, label: t('periods.allSchools') },
              ...(schools.data ?? []).map((s) => ({ value: s.id, label: s.name })),
            ]}
          />
        </Form.Item>
      )}
    </FormDrawer>
  );
}

/** Periods (school years, terms) of the customer or of one school. */
export function PeriodsPage() {
  const { t } = useTranslation('admin');
  const periods = useQuery({ queryKey: [ADMIN_API.periods], queryFn: () => api.get<TPeriod[]>(ADMIN_API.periods) });
  const schools = useSchoolOptions();
  const [modal, modalHost] = Modal.useModal();
  const [editing, setEditing] = useState<TPeriod | 'new' | null>(null);
  const remove = useAdminMutation((id: string) => api.delete(`${ADMIN_API.periods}/${id}`), [ADMIN_API.periods]);
  return (
    <AdminShell
      screen="periods"
      actions={
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')}>
          {t('periods.new')}
        </Button>
      }
    >
      {modalHost}
      <Table<TPeriod>
        rowKey="id"
        loading={periods.isFetching}
        dataSource={periods.data ?? []}
        columns={[
          { title: t('periods.name'), dataIndex: 'name' },
          { title: t('periods.start'), dataIndex: 'startDate' },
          { title: t('periods.end'), dataIndex: 'endDate' },
          {
            title: t('periods.school'),
            key: 'school',
            render: (_, p) => schools.data?.find((s) => s.id === p.schoolId)?.name ?? t('periods.allSchools'),
          },
          {
            title: t('common.actions'),
            key: 'actions',
            render: (_, p) => (
              <RowActions
                onEdit={() => setEditing(p)}
                onDelete={() =>
                  confirmDelete(modal, {
                    title: t('periods.deleteTitle', { name: p.name }),
                    content: t('periods.deleteBody'),
                    onOk: () => remove.mutateAsync(p.id),
                  })
                }
              />
            ),
          },
        ]}
      />
      {editing && <PeriodDrawer period={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />}
    </AdminShell>
  );
}
