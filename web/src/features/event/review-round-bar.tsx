import { CheckCircleOutlined, StepForwardOutlined } from '@ant-design/icons';
import { UI_SIZES, type TReviewProgress } from '@aiedu/contracts';
import { Modal, Segmented, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { toast } from '../../app/feedback';
import { Button } from '../../ui/button';
import { STATUS_COLORS } from '../../ui/status-colors';
import { reviewCalls, useReviewMutation } from './review-api';
import { Refusal } from './review-kit';

/**
 * The rounds of a review of several: which one the judges and groups below are of, whether it is closed, being
 * judged or still to come, and closing the one being judged when another follows.
 */
export function RoundBar({
  eventId,
  progress,
  shown,
  advance,
  roundName,
  onPick,
}: {
  eventId: string;
  progress: TReviewProgress;
  shown: number;
  /** How many works of each track go on from the round being judged to the next. */
  advance: number;
  roundName: (round: number) => string;
  /** Another round picked; nothing for the round being judged. */
  onPick: (round: number | undefined) => void;
}) {
  const { t } = useTranslation('eventReview');
  const { currentRound: current, rounds } = progress;
  const state = shown < current ? 'closed' : shown === current ? 'current' : 'later';
  // Closing the round being judged makes its scores final and gives its best works to the next round's groups.
  const close = useReviewMutation(reviewCalls.closeRound);
  const [modal, host] = Modal.useModal();
  const names = { round: roundName(current), next: roundName(current + 1) };
  const confirmClose = () =>
    close.mutate(eventId, {
      onSuccess: (result) => {
        toast.success(
          t('rounds.closed', {
            round: roundName(result.round),
            next: roundName(result.round + 1),
            advanced: result.advanced,
            stayed: result.stayed,
          }),
        );
        onPick(undefined);
      },
    });
  const confirm = () =>
    void modal.confirm({
      width: UI_SIZES.confirmDialogWidth,
      title: t('rounds.closeTitle', names),
      content: t('rounds.closeBody', { ...names, count: advance }),
      okText: t('rounds.closeOk'),
      cancelText: t('common.cancel'),
      onOk: confirmClose,
    });
  return (
    <div className="review-rounds">
      {host}
      <div className="review-toolbar">
        <Segmented<number>
          aria-label={t('rounds.switch')}
          value={shown}
          onChange={(round) => onPick(round === current ? undefined : round)}
          options={Array.from({ length: rounds }, (_, i) => ({
            value: i + 1,
            label: roundName(i + 1),
            icon: i + 1 < current ? <CheckCircleOutlined aria-hidden="true" /> : undefined,
          }))}
        />
        <Tag
          color={
            state === 'closed' ? STATUS_COLORS.neutral : state === 'current' ? STATUS_COLORS.processing : undefined
          }
        >
          {t(`rounds.states.${state}`)}
        </Tag>
        {state === 'current' && current < rounds && (
          <Button kind="primary" icon={<StepForwardOutlined />} loading={close.isPending} onClick={confirm}>
            {t('rounds.close', names)}
          </Button>
        )}
      </div>
      <p className="review-muted">{t(`rounds.stateHints.${state}`, { round: roundName(shown) })}</p>
      <Refusal
        error={close.error}
        explain={{ '4511': t('rounds.refusals.4511', names), '4512': t('rounds.refusals.4512', names) }}
      />
    </div>
  );
}
