import { CheckOutlined, SaveOutlined } from '@ant-design/icons';
import { EVENT_LIMITS, UI_SIZES, type TJudgingItem, type TReviewSettingsView, type TSaveScore } from '@aiedu/contracts';
import { Alert, Form, Input, InputNumber, Modal, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { toast } from '../../app/feedback';
import { Button } from '../../ui/button';
import { formatDateTime } from '../../ui/dates';
import { judgingCalls, useScoreMutation, weightedTotal } from './judging-api';
import { Refusal } from './review-kit';

interface ScoreValues {
  scores: Record<string, number | null>;
  overall: number | null;
  comment: string;
}

const scoreRule = { type: 'number' as const, min: 0, max: 100 };

/**
 * A judge's score of one work: 0–100 per criterion (the weighted total shown as it is typed) or one overall score,
 * and a comment. Saved as a draft as often as wished; submitted once, final, after a confirmation saying so. A
 * submitted score, and any score of a closed review round, is shown read-only.
 */
export function ScoreForm({
  item,
  settings,
  onSubmitted,
}: {
  item: TJudgingItem;
  settings: TReviewSettingsView;
  /** After a submission: the judge moves on to the next work not scored yet. */
  onSubmitted: () => void;
}) {
  const { t } = useTranslation('eventReview');
  const [form] = Form.useForm<ScoreValues>();
  const [modal, host] = Modal.useModal();
  const save = useScoreMutation(judgingCalls.save);
  const submit = useScoreMutation(judgingCalls.submit);
  const score = item.score;
  const final = score?.state === 'submitted';
  const readOnly = final || item.closed;
  const byCriteria = settings.scoringType === 'criteria';
  const values = Form.useWatch([], form) as ScoreValues | undefined;
  const total = byCriteria ? weightedTotal(settings.criteria, values?.scores ?? {}) : (values?.overall ?? null);

  const body = (v: ScoreValues): TSaveScore => ({
    workId: item.work.id,
    scores: byCriteria ? settings.criteria.map((c) => ({ criterionId: c.id, score: v.scores[c.id] ?? 0 })) : [],
    overall: byCriteria ? null : v.overall,
    comment: v.comment ?? '',
  });
  const saveDraft = async () => {
    submit.reset();
    try {
      await save.mutateAsync(body(form.getFieldsValue(true) as ScoreValues));
      toast.success(t('score.savedDraft'));
    } catch {
      // Shown by <Refusal> below.
    }
  };
  const confirmSubmit = async () => {
    let v: ScoreValues;
    try {
      v = await form.validateFields();
    } catch {
      return;
    }
    save.reset();
    void modal.confirm({
      width: UI_SIZES.confirmDialogWidth,
      title: t('score.confirmTitle', { name: item.work.name }),
      content: t('score.confirmBody'),
      okText: t('score.submit'),
      cancelText: t('common.cancel'),
      onOk: async () => {
        try {
          await submit.mutateAsync(body(v));
          toast.success(t('score.submitted'));
          onSubmitted();
        } catch {
          // Shown by <Refusal> below.
        }
      },
    });
  };

  return (
    <section aria-labelledby="score-title">
      {host}
      <h2 id="score-title">{t('score.title')}</h2>
      {final && (
        <Alert
          type="success"
          showIcon
          title={t('score.final', { at: score.submittedAt ? formatDateTime(score.submittedAt) : '' })}
        />
      )}
      {item.closed && <Alert type="info" showIcon title={t('score.roundClosed')} />}
      {score?.state === 'reopened' && !item.closed && (
        <Alert type="warning" showIcon title={t('score.reopened', { reason: score.reopenReason ?? '' })} />
      )}
      <Form<ScoreValues>
        form={form}
        layout="vertical"
        disabled={readOnly}
        // Submitting (after the confirmation) is the form's submission; saving a draft is the other button.
        onFinish={() => void confirmSubmit()}
        initialValues={{
          scores: Object.fromEntries(
            settings.criteria.map((c) => [c.id, score?.scores.find((s) => s.criterionId === c.id)?.score ?? null]),
          ),
          overall: score?.overall ?? null,
          comment: score?.comment ?? '',
        }}
      >
        {byCriteria ? (
          settings.criteria.map((c) => (
            <Form.Item
              key={c.id}
              name={['scores', c.id]}
              label={t('score.criterion', { name: c.name, weight: c.weight })}
              rules={[{ required: true, message: t('score.required') }, scoreRule]}
            >
              <InputNumber min={0} max={100} />
            </Form.Item>
          ))
        ) : (
          <Form.Item
            name="overall"
            label={t('score.overall')}
            rules={[{ required: true, message: t('score.required') }, scoreRule]}
          >
            <InputNumber min={0} max={100} />
          </Form.Item>
        )}
        <p className="review-total" role="status" data-testid="score-total">
          {total === null ? t('score.totalPending') : t('score.total', { total })}
        </p>
        <Form.Item name="comment" label={t('score.comment')}>
          <Input.TextArea rows={4} maxLength={EVENT_LIMITS.comment} showCount />
        </Form.Item>
        {!readOnly && (
          <Space wrap>
            <Button icon={<SaveOutlined />} loading={save.isPending} onClick={() => void saveDraft()}>
              {t('score.saveDraft')}
            </Button>
            <Button kind="primary" icon={<CheckOutlined />} loading={submit.isPending} htmlType="submit">
              {t('score.submit')}
            </Button>
          </Space>
        )}
      </Form>
      {!item.closed && <p className="review-muted">{t('score.finalHint')}</p>}
      <Refusal error={save.error ?? submit.error} />
    </section>
  );
}
