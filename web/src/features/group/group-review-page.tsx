import {
  GROUP_LIMITS,
  GROUP_REQUEST_STATES,
  type GroupRequestState,
  type TGroupDetail,
  type TGroupJoinRequest,
} from '@aiedu/contracts';
import { Form, Input, Modal, Segmented, Space, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../app/feedback';
import { Button } from '../../ui/button';
import { formatDateTime } from '../../ui/dates';
import { groupCalls, useGroupMutation, useJoinRequests } from './group-api';
import { GroupShell } from './group-shell';
import { STATE_COLORS } from './my-requests-drawer';
import { PagedTable, usePaging } from './paged-table';

/** Refusing says why, if the owner wishes: the applicant reads the reason with the outcome. */
function RefuseDialog({
  group,
  request,
  onClose,
}: {
  group: TGroupDetail;
  request: TGroupJoinRequest;
  onClose: () => void;
}) {
  const { t } = useTranslation('group');
  const [form] = Form.useForm<{ reason: string }>();
  const refuse = useGroupMutation(
    (reason: string) => groupCalls.refuse(group.id, request.id, reason),
    () => {
      toast.success(t('review.refused', { name: request.username }));
      onClose();
    },
  );
  return (
    <Modal
      open
      title={t('review.refuseTitle', { name: request.realName || request.username })}
      okText={t('review.refuse')}
      cancelText={t('common.cancel')}
      confirmLoading={refuse.isPending}
      destroyOnHidden
      onCancel={onClose}
      okButtonProps={{ danger: true, htmlType: 'submit' }}
      // The form holds the dialog's buttons, so Enter and the OK button submit it as a form's own button does.
      modalRender={(dialog) => (
        <Form
          form={form}
          layout="vertical"
          initialValues={{ reason: '' }}
          onFinish={({ reason }) => refuse.mutate(reason.trim())}
        >
          {dialog}
        </Form>
      )}
    >
      <Form.Item name="reason" label={t('review.reason')} extra={t('review.reasonHelp')}>
        <Input.TextArea rows={3} maxLength={GROUP_LIMITS.refuseReason} showCount />
      </Form.Item>
    </Modal>
  );
}

/** The owner's review of requests to join by code: those waiting (approve, or refuse with a reason), and past ones. */
function Review({ group }: { group: TGroupDetail }) {
  const { t } = useTranslation('group');
  const [state, setState] = useState<GroupRequestState>('pending');
  const paging = usePaging();
  const requests = useJoinRequests(group.id, { ...paging.query, state });
  const [refusing, setRefusing] = useState<TGroupJoinRequest | null>(null);
  const approve = useGroupMutation(
    (r: TGroupJoinRequest) => groupCalls.approve(group.id, r.id),
    (_, r) => toast.success(t('review.approved', { name: r.username })),
  );
  return (
    <>
      {!group.joinReview && <p className="group-muted">{t('review.off')}</p>}
      <PagedTable<TGroupJoinRequest>
        paging={paging}
        query={requests}
        rowKey="id"
        toolbar={
          <Segmented<GroupRequestState>
            aria-label={t('review.stateLabel')}
            value={state}
            onChange={(value) => {
              setState(value);
              paging.turn(1, paging.query.size);
            }}
            options={GROUP_REQUEST_STATES.map((s) => ({ value: s, label: t(`requests.states.${s}`) }))}
          />
        }
        emptyText={t(`review.empty.${state}`)}
        columns={[
          { title: t('members.username'), dataIndex: 'username' },
          { title: t('members.name'), dataIndex: 'realName' },
          { title: t('members.school'), key: 'school', render: (_, r) => r.schoolName || '—' },
          { title: t('review.requestedAt'), key: 'at', render: (_, r) => formatDateTime(r.createdAt) },
          ...(state === 'pending'
            ? [
                {
                  title: t('common.actions'),
                  key: 'actions',
                  render: (_: unknown, r: TGroupJoinRequest) => (
                    <Space size={4} wrap>
                      <Button
                        size="small"
                        kind="primary"
                        aria-label={t('review.approveOne', { name: r.username })}
                        loading={approve.isPending && approve.variables?.id === r.id}
                        onClick={() => approve.mutate(r)}
                      >
                        {t('review.approve')}
                      </Button>
                      <Button
                        size="small"
                        danger
                        aria-label={t('review.refuseOne', { name: r.username })}
                        onClick={() => setRefusing(r)}
                      >
                        {t('review.refuse')}
                      </Button>
                    </Space>
                  ),
                },
              ]
            : [
                {
                  title: t('review.decision'),
                  key: 'decision',
                  render: (_: unknown, r: TGroupJoinRequest) => (
                    <>
                      <Tag color={STATE_COLORS[r.state]}>{t(`requests.states.${r.state}`)}</Tag>
                      {r.decidedAt && <span className="group-muted">{formatDateTime(r.decidedAt)}</span>}
                      {r.state === 'refused' && r.reason && <div>{r.reason}</div>}
                    </>
                  ),
                },
              ]),
        ]}
      />
      {refusing && <RefuseDialog group={group} request={refusing} onClose={() => setRefusing(null)} />}
    </>
  );
}

export function GroupReviewPage() {
  return <GroupShell part="review">{(group) => <Review group={group} />}</GroupShell>;
}
