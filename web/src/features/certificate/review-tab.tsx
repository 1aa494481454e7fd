import { CERT_LIMITS, type TCertReviewItem } from '@aiedu/contracts';
import { Button, Empty, Form, Input, Modal, Space, type TableColumnsType } from 'antd';
import { Table } from '../../ui/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../ui/dates';
import { certCalls, useIssuingMutation, type useReviewQueue } from './cert-api';
import { ReviewHistory } from './issuance-list';

/** An auditor's queue: pending issuances, approved at once or refused with a reason; each with its history. */
export function ReviewTab({ queue }: { queue: ReturnType<typeof useReviewQueue> }) {
  const { t } = useTranslation('certificate');
  const [refusing, setRefusing] = useState<TCertReviewItem | null>(null);
  const [form] = Form.useForm<{ reason: string }>();
  const approve = useIssuingMutation(
    (item: TCertReviewItem) => certCalls.decide({ certIssId: item.id, decision: 'approve' }),
    t('review.approved'),
  );
  const refuse = useIssuingMutation(
    ({ item, reason }: { item: TCertReviewItem; reason: string }) =>
      certCalls.decide({ certIssId: item.id, decision: 'refuse', reason }),
    t('review.refused'),
  );
  const columns: TableColumnsType<TCertReviewItem> = [
    { title: t('fields.template'), dataIndex: 'certName' },
    { title: t('fields.awardFor'), dataIndex: 'awardFor' },
    { title: t('fields.issueDate'), dataIndex: 'issueDate' },
    { title: t('fields.holders'), dataIndex: 'holderCount' },
    { title: t('fields.issuedBy'), dataIndex: 'issuerName' },
    { title: t('review.sentAt'), key: 'createdAt', render: (_, r) => formatDateTime(r.createdAt) },
    {
      title: t('common.actions'),
      key: 'actions',
      render: (_, r) => (
        <Space size={0} wrap>
          <Button
            type="link"
            loading={approve.isPending && approve.variables?.id === r.id}
            onClick={() => approve.mutate(r)}
          >
            {t('review.approve')}
          </Button>
          <Button type="link" danger onClick={() => setRefusing(r)}>
            {t('review.refuse')}
          </Button>
        </Space>
      ),
    },
  ];
  if (!queue.isPending && !queue.data?.length) return <Empty description={t('review.empty')} />;
  return (
    <>
      <Table
        rowKey="id"
        columns={columns}
        dataSource={queue.data ?? []}
        loading={queue.isFetching}
        expandable={{ expandedRowRender: (r) => <ReviewHistory certIssId={r.id} /> }}
      />
      <Modal
        open={Boolean(refusing)}
        title={refusing ? t('review.refuseTitle', { name: refusing.certName }) : ''}
        okText={t('review.refuse')}
        cancelText={t('common.cancel')}
        okButtonProps={{ danger: true, htmlType: 'submit', form: 'cert-refuse' }}
        confirmLoading={refuse.isPending}
        onCancel={() => setRefusing(null)}
        destroyOnHidden
      >
        <Form
          id="cert-refuse"
          form={form}
          layout="vertical"
          onFinish={({ reason }) =>
            refusing && refuse.mutate({ item: refusing, reason: reason.trim() }, { onSuccess: () => setRefusing(null) })
          }
        >
          <Form.Item
            name="reason"
            label={t('review.reason')}
            rules={[{ required: true, whitespace: true, message: t('review.reasonRequired') }]}
          >
            <Input.TextArea rows={3} maxLength={CERT_LIMITS.reason} showCount />
          </Form.Item>
        </Form>
      </Modal>
    </>
  );
}
