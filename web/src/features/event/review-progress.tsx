import { ShareAltOutlined, UndoOutlined } from '@ant-design/icons';
import { EVENT_LIMITS, UI_SIZES, type TJudge, type TReviewProgress, type TSubmittedScore } from '@aiedu/contracts';
import { Card, Empty, Form, Input, Modal, Progress, Skeleton } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../app/feedback';
import { Button } from '../../ui/button';
import { reviewCalls, useReviewMutation } from './review-api';
import { Refusal } from './review-kit';

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

/**
 * One round's groups: their works, those every judge has scored, and each judge's submitted scores (reopened one by
 * one while the round is open). Works enter the review by the assignment, in the first round only; later rounds get
 * theirs when the round before is closed.
 */
export function ReviewProgress({
  eventId,
  progress,
  roundLabel,
}: {
  eventId: string;
  /** The round's groups; nothing while they load. */
  progress: TReviewProgress | undefined;
  /** The round's name, when the review has several. */
  roundLabel: string | null;
}) {
  const { t } = useTranslation('eventReview');
  const assign = useReviewMutation(reviewCalls.assign);
  const [reopening, setReopening] = useState<{ judge: TJudge; score: TSubmittedScore } | null>(null);
  const closed = progress ? progress.round < progress.currentRound : false;
  const groupTitle = (group: number) =>
    roundLabel ? t('progress.roundGroup', { round: roundLabel, group }) : t('progress.group', { group });
  return (
    <section className="review-section" aria-labelledby="progress-title">
      <h2 id="progress-title">{roundLabel ? t('progress.titleRound', { round: roundLabel }) : t('progress.title')}</h2>
      {progress?.round === 1 && progress.currentRound === 1 && (
        <div className="review-toolbar">
          <Button
            kind="primary"
            icon={<ShareAltOutlined />}
            loading={assign.isPending}
            onClick={() => assign.mutate(eventId, { onSuccess: () => toast.success(t('progress.assigned')) })}
          >
            {t('progress.assign')}
          </Button>
          <span className="review-muted">{t('progress.unassigned', { works: progress.unassigned })}</span>
        </div>
      )}
      <Refusal error={assign.error} />
      {!progress && <Skeleton active />}
      {progress?.groups.length === 0 && <Empty description={t('progress.noGroups')} />}
      <div className="review-groups">
        {progress?.groups.map((g) => (
          <Card key={g.group} title={groupTitle(g.group)} size="small">
            <p>{t('progress.works', { done: g.done, total: g.works })}</p>
            <Progress percent={g.works ? Math.round((100 * g.done) / g.works) : 0} aria-label={groupTitle(g.group)} />
            <ul className="review-judge-list">
              {g.judges.map((j) => (
                <li key={j.id}>
                  {t('progress.judge', { name: j.realName || j.username, submitted: j.submitted, total: g.works })}
                  {(j.scores ?? []).length > 0 && (
                    <ul>
                      {(j.scores ?? []).map((s) => (
                        <li key={s.id}>
                          {s.workName} · {s.total ?? '—'}{' '}
                          {!closed && (
                            <Button
                              size="small"
                              kind="ghost"
                              icon={<UndoOutlined />}
                              aria-label={t('progress.reopenOne', {
                                judge: j.realName || j.username,
                                work: s.workName,
                              })}
                              onClick={() => setReopening({ judge: j, score: s })}
                            >
                              {t('progress.reopen')}
                            </Button>
                          )}
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
