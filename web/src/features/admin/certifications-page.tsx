import { LIMITS, UI_SIZES, type TTeacherCertification } from '@aiedu/contracts';
import { useQuery } from '@tanstack/react-query';
import { Button, Empty, Form, Input, Modal, Space } from 'antd';
import { Table } from '../../ui/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../app/api';
import { formatDateTime } from '../../ui/dates';
import { AdminShell } from './admin-shell';
import { useAdminMutation } from './admin-api';
import { SECURITY_API } from './security-api';

type Decision = { request: TTeacherCertification; status: 'certified' | 'rejected' };

/** Certify or reject one request; a rejection says why, and the teacher reads it on their profile. */
function DecisionDialog({ decision, onClose }: { decision: Decision; onClose: () => void }) {
  const { t } = useTranslation('security');
  const [form] = Form.useForm<{ reason: string }>();
  const review = useAdminMutation(
    ({ reason }: { reason: string }) =>
      api.put(SECURITY_API.certification(decision.request.id), { status: decision.status, reason }),
    [SECURITY_API.pendingCertifications],
    onClose,
  );
  const rejecting = decision.status === 'rejected';
  return (
    <Modal
      open
      width={UI_SIZES.confirmDialogWidth}
      title={t(rejecting ? 'certifications.rejectTitle' : 'certifications.certifyTitle')}
      okText={t(rejecting ? 'certifications.reject' : 'certifications.certify')}
      okButtonProps={{ danger: rejecting, loading: review.isPending }}
      cancelText={t('common.cancel', { ns: 'admin' })}
      onOk={() => form.submit()}
      onCancel={onClose}
    >
      <p>{t('certifications.who', { name: decision.request.schoolName })}</p>
      <Form form={form} layout="vertical" onFinish={(values) => review.mutate(values)} initialValues={{ reason: '' }}>
        <Form.Item
          name="reason"
          label={t('certifications.reason')}
          rules={[
            { required: rejecting, whitespace: true, message: t('certifications.reasonRequired') },
            { max: LIMITS.remark, message: t('certifications.reasonMax', { max: LIMITS.remark }) },
          ]}
        >
          <Input.TextArea rows={3} maxLength={LIMITS.remark} showCount />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** Teacher certification requests waiting for review, in the administrator's scope. */
export function CertificationsPage() {
  const { t } = useTranslation('security');
  const pending = useQuery({
    queryKey: [SECURITY_API.pendingCertifications],
    queryFn: () => api.get<TTeacherCertification[]>(SECURITY_API.pendingCertifications),
  });
  const [decision, setDecision] = useState<Decision | null>(null);
  return (
    <AdminShell screen="certifications">
      <Table<TTeacherCertification>
        rowKey="id"
        loading={pending.isFetching}
        dataSource={pending.data ?? []}
        locale={{ emptyText: <Empty description={t('certifications.empty')} /> }}
        columns={[
          { title: t('certifications.sent'), dataIndex: 'createdAt', render: (v: string) => formatDateTime(v) },
          { title: t('certifications.school'), dataIndex: 'schoolName' },
          {
            title: t('certifications.region'),
            dataIndex: 'region',
            render: (v: 'mainland' | 'other') => t(`certifications.regions.${v}`),
          },
          {
            title: t('certifications.document'),
            key: 'document',
            render: (_, r) => (r.region === 'mainland' ? `${r.teacherNumber} · ${r.idNumber}` : r.documentNumber),
          },
          {
            title: t('certifications.contact'),
            key: 'contact',
            render: (_, r) => r.phone || r.contact,
          },
          {
            title: t('common.actions', { ns: 'admin' }),
            key: 'actions',
            render: (_, request) => (
              <Space size={0}>
                <Button type="link" onClick={() => setDecision({ request, status: 'certified' })}>
                  {t('certifications.certify')}
                </Button>
                <Button type="link" danger onClick={() => setDecision({ request, status: 'rejected' })}>
                  {t('certifications.reject')}
                </Button>
              </Space>
            ),
          },
        ]}
      />
      {decision && <DecisionDialog decision={decision} onClose={() => setDecision(null)} />}
    </AdminShell>
  );
}
