import { PlusOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Button, Form, Input, Modal, Space } from 'antd';
import { Table } from '../../ui/table';
import { useTranslation } from 'react-i18next';
import { api } from '../../app/api';
import { ApiError } from '../../app/api-client';
import { formatDateTime } from '../../ui/dates';
import { AdminShell } from './admin-shell';
import { useAdminMutation } from './admin-api';
import { confirmDanger } from './confirm';
import { SECURITY_API } from './security-api';

interface AddressRange {
  id: string;
  range: string;
  note: string;
  createdAt: string;
}

/** An IPv4 or IPv6 address, optionally with a CIDR prefix; the server checks it again. */
const RANGE = /^(\d{1,3}(\.\d{1,3}){3}(\/\d{1,2})?|[0-9a-fA-F:]+(\/\d{1,3})?)$/;

/** The server's reason for refusing a range (HTTP 400 shows no notice of its own), in the field's words. */
function refusalKey(error: Error) {
  if (!(error instanceof ApiError) || error.status !== 400 || typeof error.body !== 'object') return null;
  const reason = (error.body.data as { reason?: unknown } | null)?.reason;
  return reason === 'range too wide' ? 'ranges.rangeTooWide' : 'ranges.rangeInvalid';
}

/**
 * School address ranges the request shield never blocks: a whole school behind one address must not be shut out
 * because a few pupils mistyped their passwords.
 */
export function AddressRangesPage() {
  const { t } = useTranslation('security');
  const [form] = Form.useForm<{ range: string; note: string }>();
  const [modal, modalHost] = Modal.useModal();
  const ranges = useQuery({
    queryKey: [SECURITY_API.ranges],
    queryFn: () => api.get<AddressRange[]>(SECURITY_API.ranges),
  });
  const add = useAdminMutation(
    (body: { range: string; note: string }) => api.post(SECURITY_API.ranges, body),
    [SECURITY_API.ranges],
    () => form.resetFields(),
  );
  const remove = useAdminMutation((id: string) => api.delete(`${SECURITY_API.ranges}/${id}`), [SECURITY_API.ranges]);
  return (
    <AdminShell screen="addressRanges">
      {modalHost}
      <p>{t('ranges.lead')}</p>
      <Form
        form={form}
        layout="inline"
        className="admin-toolbar"
        onFinish={(values) =>
          add.mutate(values, {
            onError: (error) => {
              const key = refusalKey(error);
              if (key) form.setFields([{ name: 'range', errors: [t(key)] }]);
            },
          })
        }
      >
        <Form.Item
          name="range"
          label={t('ranges.range')}
          rules={[{ required: true, pattern: RANGE, message: t('ranges.rangeInvalid') }]}
        >
          <Input placeholder="203.0.113.0/24" maxLength={50} />
        </Form.Item>
        <Form.Item name="note" label={t('ranges.note')} rules={[{ max: 100 }]} initialValue="">
          <Input maxLength={100} />
        </Form.Item>
        <Button type="primary" htmlType="submit" icon={<PlusOutlined />} loading={add.isPending}>
          {t('ranges.add')}
        </Button>
      </Form>
      <Table<AddressRange>
        rowKey="id"
        loading={ranges.isFetching}
        dataSource={ranges.data ?? []}
        columns={[
          { title: t('ranges.range'), dataIndex: 'range' },
          { title: t('ranges.note'), dataIndex: 'note' },
          { title: t('ranges.added'), dataIndex: 'createdAt', render: (v: string) => formatDateTime(v) },
          {
            title: t('common.actions', { ns: 'admin' }),
            key: 'actions',
            render: (_, r) => (
              <Space size={0}>
                <Button
                  type="link"
                  danger
                  onClick={() =>
                    confirmDanger(modal, {
                      title: t('ranges.removeTitle', { range: r.range }),
                      content: t('ranges.removeBody'),
                      okText: t('common.delete', { ns: 'admin' }),
                      cancelText: t('common.cancel', { ns: 'admin' }),
                      onOk: () => remove.mutateAsync(r.id),
                    })
                  }
                >
                  {t('common.delete', { ns: 'admin' })}
                </Button>
              </Space>
            ),
          },
        ]}
      />
    </AdminShell>
  );
}
