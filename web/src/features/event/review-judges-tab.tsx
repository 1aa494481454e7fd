import { DeleteOutlined, PlusOutlined, ShareAltOutlined, UndoOutlined } from '@ant-design/icons';
import { EVENT_LIMITS, UI_SIZES, type TEvent, type TJudge, type TSubmittedScore } from '@aiedu/contracts';
import { Card, Empty, Form, Input, InputNumber, Modal, Progress, Skeleton, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../app/feedback';
import { Button } from '../../ui/button';
import { Table } from '../../ui/table';
import { reviewCalls, useJudges, useReviewMutation, useReviewProgress } from './review-api';
import { Refusal } from './review-kit';

/** Adding a judge by username to a group. */
function AddJudge({ eventId }: { eventId: string }) {
  const { t } = useTranslation('eventReview');
  const [form] = Form.useForm<{ username: string; group: number }>();
  const add = useReviewMutation(reviewCalls.addJudge);
  return (
    <Form
      form={form}
      layout="inline"
      className="review-toolbar"
      initialValues={{ username: '', group: 1 }}
      onFinish={({ username, group }) =>
        add.mutate(
          { eventId, username: username.trim(), group },
          {
            onSuccess: (judge) => {
              toast.success(t('judges.added', { name: judge.realName || judge.username, group: judge.group }));
              form.resetFields(['username']);
            },
          },
        )
      }
    >
      <Form.Item
        name="username"
        label={t('judges.username')}
        rules={[{ required: true, whitespace: true, message: t('judges.usernameRequired') }]}
      >
        <Input maxLength={50} autoComplete="off" />
      </Form.Item>
      <Form.Item name="group" label={t('judges.group')} rules={[{ required: true }]}>
        <InputNumber min={1} max={100} precision={0} />
      </Form.Item>
      <Button kind="primary" htmlType="submit" icon={<PlusOutlined />} loading={add.isPending}>
        {t('judges.add')}
      </Button>
      <Refusal error={add.error} />
    </Form>
  );
}

/** Reopening one judge's submitted score: the reason is logged and shown to the judge. */
function ReopenScore({ judge, score, onClose }: { judge: TJudge; score: TSubmittedScore; onClose: () => void }) {
  const { t } = useTranslation('eventReview');
  const [form] = Form.useForm<{ reason: string }>();
  const reopen = useReviewMutation(reviewCalls.reopen);
  return (
    <Modal
      open
      width={UI_SIZES.confirmDialogWidth}
      title={t('progress.reopenTitle', { judge: judge.realName || judge.username, work: score.workName })}
      okText={t('progress.reopen')}
      okButtonProps={{ loading: reopen.isPending }}
      cancelText={t('common.cancel')}
      onOk={() => form.submit()}
      onCancel={onClose}
    >
      <p>{t('progress.reopenBody')}</p>
      <Form
        form={form}
        layout="vertical"
        initialValues={{ reason: '' }}
        onFinish={({ reason }) =>
          reopen.mutate(
            { scoreId: score.id, reason: reason.trim() },
            {
              onSuccess: () => {
                toast.success(t('progress.reopened', { work: score.workName }));
                onClose();
              },
            },
          )
        }
      >
        <Form.Item
          name="reason"
          label={t('progress.reason')}
          rules={[{ required: true, whitespace: true, message: t('progress.reasonRequired') }]}
        >
          <Input.TextArea rows={3} maxLength={EVENT_LIMITS.reason} showCount />
        </Form.Item>
      </Form>
      <Refusal error={reopen.error} />
    </Modal>
  );
}

/** Each group's works, those every judge has scored, and each judge's submitted scores (any can be reopened). */
function ReviewProgress({ eventId }: { eventId: string }) {
  const { t } = useTranslation('eventReview');
  const progress = useReviewProgress(eventId);
  const assign = useReviewMutation(reviewCalls.assign);
  const [reopening, setReopening] = useState<{ judge: TJudge; score: TSubmittedScore } | null>(null);
  return (
    <section className="review-section" aria-labelledby="progress-title">
      <h2 id="progress-title">{t('progress.title')}</h2>
      <div className="review-toolbar">
        <Button
          kind="primary"
          icon={<ShareAltOutlined />}
          loading={assign.isPending}
          onClick={() => assign.mutate(eventId, { onSuccess: () => toast.success(t('progress.assigned')) })}
        >
          {t('progress.assign')}
        </Button>
        {progress.data && (
          <span className="review-muted">{t('progress.unassigned', { works: progress.data.unassigned })}</span>
        )}
      </div>
      <Refusal error={assign.error} />
      {progress.isLoading && <Skeleton active />}
      {progress.data?.groups.length === 0 && <Empty description={t('progress.noGroups')} />}
      <div className="review-groups">
        {progress.data?.groups.map((g) => (
          <Card key={g.group} title={t('progress.group', { group: g.group })} size="small">
            <p>{t('progress.works', { done: g.done, total: g.works })}</p>
            <Progress
              percent={g.works ? Math.round((100 * g.done) / g.works) : 0}
              aria-label={t('progress.group', { group: g.group })}
            />
            <ul className="review-judge-list">
              {g.judges.map((j) => (
                <li key={j.id}>
                  {t('progress.judge', { name: j.realName || j.username, submitted: j.submitted, total: g.works })}
                  {(j.scores ?? []).length > 0 && (
                    <ul>
                      {(j.scores ?? []).map((s) => (
                        <li key={s.id}>
                          {s.workName} · {s.total ?? '—'}{' '}
                          <Button
                            size="small"
                            kind="ghost"
                            icon={<UndoOutlined />}
                            aria-label={t('progress.reopenOne', { judge: j.realName || j.username, work: s.workName })}
                            onClick={() => setReopening({ judge: j, score: s })}
                          >
                            {t('progress.reopen')}
                          </Button>
                        </li>
                      ))}
                    </ul>
                  )}
                </li>
              ))}
            </ul>
          </Card>
        ))}
      </div>
      {reopening && <ReopenScore {...reopening} onClose={() => setReopening(null)} />}
    </section>
  );
}

/** The judges by group (added by username, removed), then the assignment of works and each group's progress. */
export function ReviewJudgesTab({ event }: { event: TEvent }) {
  const { t } = useTranslation('eventReview');
  const judges = useJudges(event.id);
  const remove = useReviewMutation(reviewCalls.removeJudge);
  const [modal, host] = Modal.useModal();
  const confirmRemove = (judge: TJudge) =>
    void modal.confirm({
      width: UI_SIZES.confirmDialogWidth,
      title: t('judges.removeTitle', { name: judge.realName || judge.username }),
      content: t('judges.removeBody'),
      okText: t('judges.remove'),
      okButtonProps: { danger: true },
      cancelText: t('common.cancel'),
      onOk: () => remove.mutate(judge.id),
    });
  return (
    <>
      {host}
      <AddJudge eventId={event.id} />
      <Refusal error={remove.error} />
      <Table<TJudge>
        rowKey="id"
        dataSource={judges.data ?? []}
        loading={judges.isFetching}
        pagination={false}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: judges.isPending ? <span /> : <Empty description={t('judges.empty')} /> }}
        columns={[
          { title: t('judges.group'), dataIndex: 'group', sorter: (a, b) => a.group - b.group },
          { title: t('judges.username'), dataIndex: 'username' },
          { title: t('judges.name'), dataIndex: 'realName' },
          { title: t('judges.school'), key: 'school', render: (_, j) => j.schoolName || '—' },
          {
            title: t('common.actions'),
            key: 'actions',
            render: (_, j) => (
              <Space>
                <Button
                  size="small"
                  danger
                  icon={<DeleteOutlined />}
                  aria-label={t('judges.removeOne', { name: j.username })}
                  loading={remove.isPending && remove.variables === j.id}
                  onClick={() => confirmRemove(j)}
                >
                  {t('judges.remove')}
                </Button>
              </Space>
            ),
          },
        ]}
      />
      <ReviewProgress eventId={event.id} />
    </>
  );
}
