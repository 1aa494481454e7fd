import { useQuery } from '@tanstack/react-query';
import { Button, DatePicker, Form, List, Modal, Radio } from 'antd';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { api } from '../../app/api';
import { formatDateTime } from '../../ui/dates';
import { ADMIN_API, useAdminMutation } from './admin-api';

interface Schedule {
  id: string;
  runAt: string;
  repeat: 'once' | 'yearly';
}

/** The automatic upgrade: at a set time, this year only or every year; the ones to come can be cancelled. */
export function UpgradeScheduleDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation('admin');
  const [form] = Form.useForm<{ runAt: Dayjs; repeat: 'once' | 'yearly' }>();
  const schedules = useQuery({
    queryKey: [ADMIN_API.upgradeSchedules],
    queryFn: () => api.get<Schedule[]>(ADMIN_API.upgradeSchedules),
  });
  const create = useAdminMutation(
    (values: { runAt: Dayjs; repeat: 'once' | 'yearly' }) =>
      api.post(ADMIN_API.upgradeSchedules, { runAt: values.runAt.format(), repeat: values.repeat }),
    [ADMIN_API.upgradeSchedules],
    () => form.resetFields(),
  );
  const cancel = useAdminMutation(
    (id: string) => api.delete(`${ADMIN_API.upgradeSchedules}/${id}`),
    [ADMIN_API.upgradeSchedules],
  );

  return (
    <Modal
      open
      title={t('classes.autoUpgrade')}
      okText={t('classes.scheduleSave')}
      cancelText={t('common.close')}
      confirmLoading={create.isPending}
      onOk={() => form.submit()}
      onCancel={onClose}
    >
      <p>{t('classes.autoUpgradeBody')}</p>
      <Form form={form} layout="vertical" initialValues={{ repeat: 'yearly' }} onFinish={(v) => create.mutate(v)}>
        <Form.Item name="runAt" label={t('classes.runAt')} rules={[{ required: true, message: t('form.required') }]}>
          <DatePicker showTime format="YYYY-MM-DD HH:mm" />
        </Form.Item>
        <Form.Item name="repeat" label={t('classes.repeat')}>
          <Radio.Group
            options={[
              { value: 'once', label: t('classes.repeatOnce') },
              { value: 'yearly', label: t('classes.repeatYearly') },
            ]}
          />
        </Form.Item>
      </Form>
      <List
        header={t('classes.scheduled')}
        dataSource={schedules.data ?? []}
        locale={{ emptyText: t('classes.noSchedule') }}
        renderItem={(s) => (
          <List.Item
            actions={[
              <Button key="cancel" type="link" danger onClick={() => cancel.mutate(s.id)}>
                {t('classes.cancelSchedule')}
              </Button>,
            ]}
          >
            {t(s.repeat === 'yearly' ? 'classes.everyYearAt' : 'classes.onceAt', { when: formatDateTime(s.runAt) })}
          </List.Item>
        )}
      />
    </Modal>
  );
}
