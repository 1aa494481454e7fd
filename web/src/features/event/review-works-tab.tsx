import { CheckOutlined, CloseOutlined } from '@ant-design/icons';
import { EVENT_LIMITS, UI_SIZES, WORK_STATES, type TEvent, type TWork, type WorkState } from '@aiedu/contracts';
import { Empty, Form, Input, Modal, Select, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../app/feedback';
import { Button } from '../../ui/button';
import { formatDateTime } from '../../ui/dates';
import { SearchInput } from '../../ui/named-icons';
import { Table } from '../../ui/table';
import { reviewCalls, useReviewMutation, useWorkAdmin } from './review-api';
import { Refusal, WorkStateTag } from './review-kit';

const PAGE_SIZE = 20;

/** Refusing a work: the reason its team reads. */
function RefuseWork({ work, onClose }: { work: TWork; onClose: () => void }) {
  const { t } = useTranslation('eventReview');
  const [form] = Form.useForm<{ reason: string }>();
  const audit = useReviewMutation(reviewCalls.audit);
  const refuse = async ({ reason }: { reason: string }) => {
    try {
      await audit.mutateAsync({ workId: work.id, decision: 'refuse', reason: reason.trim() });
      toast.success(t('audit.refused', { name: work.name }));
      onClose();
    } catch {
      // Shown by <Refusal> below.
    }
  };
  return (
    <Modal
      open
      width={UI_SIZES.confirmDialogWidth}
      title={t('audit.refuseTitle', { name: work.name })}
      okText={t('audit.refuse')}
      okButtonProps={{ danger: true, loading: audit.isPending }}
      cancelText={t('common.cancel')}
      onOk={() => form.submit()}
      onCancel={onClose}
    >
      <Form form={form} layout="vertical" initialValues={{ reason: '' }} onFinish={(v) => void refuse(v)}>
        <Form.Item
          name="reason"
          label={t('audit.reason')}
          rules={[{ required: true, whitespace: true, message: t('audit.reasonRequired') }]}
        >
          <Input.TextArea rows={3} maxLength={EVENT_LIMITS.reason} showCount />
        </Form.Item>
      </Form>
      <Refusal error={audit.error} />
    </Modal>
  );
}

/** Every work of the event by state and track: submitted ones are accepted for review or refused with a reason. */
export function ReviewWorksTab({ event }: { event: TEvent }) {
  const { t } = useTranslation('eventReview');
  const [state, setState] = useState<WorkState | undefined>('SUBMITTED');
  const [trackId, setTrackId] = useState<string>();
  const [keyword, setKeyword] = useState<string>();
  const [page, setPage] = useState(1);
  const [refusing, setRefusing] = useState<TWork | null>(null);
  const works = useWorkAdmin(event.id, { page, size: PAGE_SIZE, state, trackId, keyword });
  const audit = useReviewMutation(reviewCalls.audit);
  const accept = (work: TWork) =>
    audit.mutate(
      { workId: work.id, decision: 'accept' },
      { onSuccess: () => toast.success(t('audit.accepted', { name: work.name })) },
    );
  const trackName = (id: string) => event.tracks.find((tr) => tr.id === id)?.name ?? id;
  return (
    <>
      <div className="review-toolbar">
        <Select<WorkState | undefined>
          className="review-select"
          aria-label={t('audit.stateFilter')}
          value={state}
          allowClear
          placeholder={t('audit.allStates')}
          onChange={(value) => {
            setState(value);
            setPage(1);
          }}
          options={WORK_STATES.map((s) => ({ value: s, label: t(`workStates.${s}`) }))}
        />
        {event.tracks.length > 1 && (
          <Select<string | undefined>
            className="review-select"
            aria-label={t('audit.trackFilter')}
            value={trackId}
            allowClear
            placeholder={t('audit.allTracks')}
            onChange={(value) => {
              setTrackId(value);
              setPage(1);
            }}
            options={event.tracks.map((tr) => ({ value: tr.id, label: tr.name }))}
          />
        )}
        <SearchInput
          className="review-select"
          aria-label={t('audit.search')}
          placeholder={t('audit.search')}
          allowClear
          onSearch={(value) => {
            setKeyword(value.trim() || undefined);
            setPage(1);
          }}
        />
      </div>
      <Refusal error={audit.error} />
      <Table<TWork>
        rowKey="id"
        dataSource={works.data?.list ?? []}
        loading={works.isFetching}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: works.isPending ? <span /> : <Empty description={t('audit.empty')} /> }}
        pagination={{
          current: page,
          pageSize: PAGE_SIZE,
          total: works.data?.total ?? 0,
          hideOnSinglePage: true,
          onChange: setPage,
        }}
        columns={[
          { title: t('works.name'), dataIndex: 'name' },
          { title: t('audit.team'), key: 'team', render: (_, w) => `${w.teamName} · ${w.schoolName}` },
          { title: t('audit.track'), key: 'track', render: (_, w) => trackName(w.trackId) },
          {
            title: t('works.state'),
            key: 'state',
            render: (_, w) => (
              <>
                <WorkStateTag state={w.state} round={w.reviewRound} />
                {w.failReason && <div className="review-muted">{w.failReason}</div>}
              </>
            ),
          },
          {
            title: t('works.submittedAt'),
            key: 'at',
            render: (_, w) => (w.submittedAt ? formatDateTime(w.submittedAt) : '—'),
          },
          {
            title: t('common.actions'),
            key: 'actions',
            render: (_, w) =>
              (w.state === 'SUBMITTED' || w.state === 'PENDING_REVIEW') && (
                <Space size={4} wrap>
                  {w.state === 'SUBMITTED' && (
                    <Button
                      size="small"
                      kind="primary"
                      icon={<CheckOutlined />}
                      aria-label={t('audit.acceptOne', { name: w.name })}
                      loading={audit.isPending && audit.variables.workId === w.id}
                      onClick={() => accept(w)}
                    >
                      {t('audit.accept')}
                    </Button>
                  )}
                  <Button
                    size="small"
                    danger
                    icon={<CloseOutlined />}
                    aria-label={t('audit.refuseOne', { name: w.name })}
                    onClick={() => setRefusing(w)}
                  >
                    {t('audit.refuse')}
                  </Button>
                </Space>
              ),
          },
        ]}
      />
      {refusing && <RefuseWork work={refusing} onClose={() => setRefusing(null)} />}
    </>
  );
}
