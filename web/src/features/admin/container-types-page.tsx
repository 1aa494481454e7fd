import { type ContainerType, type TContainerTypeConfig } from '@aiedu/contracts';
import { useQuery } from '@tanstack/react-query';
import { Button, Form, InputNumber, Tag, type TableColumnsType } from 'antd';
import { Table } from '../../ui/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../app/api';
import { AdminShell } from './admin-shell';
import { ADMIN_API, useAdminMutation } from './admin-api';
import { FormDrawer } from './form-drawer';

/** A week has 10,080 minutes. */
const WEEK_MINUTES = 10_080;

/** Sets the default weekly minutes of one type, or returns it to the deployment's. */
function WeeklyMinutesDrawer({ type, onClose }: { type: TContainerTypeConfig; onClose: () => void }) {
  const { t } = useTranslation('admin');
  const [form] = Form.useForm<{ weeklyMinutes: number }>();
  const save = useAdminMutation(
    (weeklyMinutes: number | null) =>
      api.put(ADMIN_API.containerTypesConfig, { runtimeType: type.runtimeType, weeklyMinutes }),
    [ADMIN_API.containerTypesConfig],
    onClose,
  );
  return (
    <FormDrawer
      title={t('containerTypeConfig.editTitle', { type: t(`containerTypes.${type.runtimeType}`) })}
      saving={save.isPending}
      form={form}
      onClose={onClose}
    >
      <p>{t('containerTypeConfig.editBody')}</p>
      <Form
        form={form}
        layout="vertical"
        initialValues={{ weeklyMinutes: type.weeklyMinutes }}
        onFinish={({ weeklyMinutes }) => save.mutate(weeklyMinutes)}
      >
        <Form.Item
          name="weeklyMinutes"
          label={t('containerTypeConfig.weeklyMinutes')}
          extra={t('containerTypeConfig.deployment', { count: type.deploymentWeeklyMinutes })}
          rules={[
            { required: true, type: 'number', min: 0, max: WEEK_MINUTES, message: t('containerTypeConfig.range') },
          ]}
        >
          <InputNumber min={0} max={WEEK_MINUTES} precision={0} style={{ width: 200 }} />
        </Form.Item>
      </Form>
      {type.customized && (
        <Button onClick={() => save.mutate(null)} loading={save.isPending}>
          {t('containerTypeConfig.useDeployment')}
        </Button>
      )}
    </FormDrawer>
  );
}

/**
 * The container types of the platform (spec: Basic, Advanced, GPU): the CPU and memory this server gives each
 * (from its configuration), the weekly minutes customers without their own allowance get, and how many customers
 * are offered each.
 */
export function ContainerTypesPage() {
  const { t } = useTranslation('admin');
  const [editing, setEditing] = useState<ContainerType | null>(null);
  const types = useQuery({
    queryKey: [ADMIN_API.containerTypesConfig],
    queryFn: () => api.get<TContainerTypeConfig[]>(ADMIN_API.containerTypesConfig),
  });
  const columns: TableColumnsType<TContainerTypeConfig> = [
    { title: t('containerTypeConfig.type'), key: 'type', render: (_, c) => t(`containerTypes.${c.runtimeType}`) },
    { title: t('containerTypeConfig.cpu'), dataIndex: 'cpu' },
    {
      title: t('containerTypeConfig.memory'),
      key: 'memory',
      render: (_, c) => t('containerTypeConfig.memoryValue', { gb: (c.memoryMb / 1024).toFixed(1) }),
    },
    {
      title: t('containerTypeConfig.weeklyMinutes'),
      key: 'weeklyMinutes',
      render: (_, c) => (
        <>
          {t('containerTypeConfig.minutes', { count: c.weeklyMinutes })}{' '}
          <Tag color={c.customized ? 'blue' : undefined}>
            {t(c.customized ? 'containerTypeConfig.platform' : 'containerTypeConfig.asDeployed')}
          </Tag>
        </>
      ),
    },
    { title: t('containerTypeConfig.customers'), dataIndex: 'customers' },
    {
      title: t('common.actions'),
      key: 'actions',
      render: (_, c) => (
        <Button type="link" onClick={() => setEditing(c.runtimeType)}>
          {t('common.edit')}
        </Button>
      ),
    },
  ];
  const current = types.data?.find((c) => c.runtimeType === editing);
  return (
    <AdminShell screen="containerTypes">
      <p className="admin-lead">{t('containerTypeConfig.lead')}</p>
      <Table<TContainerTypeConfig>
        rowKey="runtimeType"
        columns={columns}
        dataSource={types.data ?? []}
        loading={types.isFetching}
        pagination={false}
      />
      {current && <WeeklyMinutesDrawer type={current} onClose={() => setEditing(null)} />}
    </AdminShell>
  );
}
