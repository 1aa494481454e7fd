import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { UI_SIZES, type TEvent, type TJudge } from '@aiedu/contracts';
import { Empty, Form, Input, InputNumber, Modal, Select, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../app/feedback';
import { Button } from '../../ui/button';
import { Table } from '../../ui/table';
import { reviewCalls, useJudges, useReviewMutation, useReviewProgress, useReviewSettings } from './review-api';
import { Refusal, roundNamesOf, useRoundName } from './review-kit';
import { ReviewProgress } from './review-progress';
import { RoundBar } from './review-round-bar';

/** Adding a judge by username to a group of a round not closed yet (the round shown, or the one being judged). */
function AddJudge({
  eventId,
  rounds,
  firstOpen,
  round,
  roundName,
}: {
  eventId: string;
  rounds: number;
  /** The round being judged: the rounds before it are closed. */
  firstOpen: number;
  round: number;
  roundName: (round: number) => string;
}) {
  const { t } = useTranslation('eventReview');
  const [form] = Form.useForm<{ username: string; group: number; round?: number }>();
  const add = useReviewMutation(reviewCalls.addJudge);
  const open = Array.from({ length: rounds - firstOpen + 1 }, (_, i) => firstOpen + i);
  const initialRound = Math.max(round, firstOpen);
  return (
    <Form
      form={form}
      layout="inline"
      className="review-toolbar"
      initialValues={{ username: '', group: 1, round: initialRound }}
      onFinish={(v) =>
        add.mutate(
          { eventId, username: v.username.trim(), group: v.group, round: v.round ?? initialRound },
          {
            onSuccess: (judge) => {
              const name = judge.realName || judge.username;
              toast.success(
                rounds > 1
                  ? t('judges.addedRound', { name, group: judge.group, round: roundName(judge.round) })
                  : t('judges.added', { name, group: judge.group }),
              );
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
      {/* The only round still open needs no picking. */}
      {open.length > 1 && (
        <Form.Item name="round" label={t('judges.round')}>
          <Select
            className="review-select-narrow"
            aria-label={t('judges.round')}
            options={open.map((n) => ({ value: n, label: roundName(n) }))}
          />
        </Form.Item>
      )}
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

/**
 * The judges by group (added by username, removed), then the assignment of works and each group's progress. A review
 * of several rounds shows one round at a time (the one being judged at first), and closes it from here.
 */
export function ReviewJudgesTab({ event }: { event: TEvent }) {
  const { t } = useTranslation('eventReview');
  const [picked, setPicked] = useState<number>();
  const progress = useReviewProgress(event.id, picked);
  const settings = useReviewSettings(event.id);
  const judges = useJudges(event.id);
  const remove = useReviewMutation(reviewCalls.removeJudge);
  const [modal, host] = Modal.useModal();
  const roundName = useRoundName(roundNamesOf(settings.data));
  const rounds = progress.data?.rounds ?? 1;
  const current = progress.data?.currentRound ?? 1;
  const shown = picked ?? progress.data?.round ?? current;
  const several = rounds > 1;
  const closed = shown < current;
  // While another round loads, the groups of the one before are not shown as its.
  const shownProgress = progress.data?.round === shown ? progress.data : undefined;
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
      {several && progress.data && (
        <RoundBar
          eventId={event.id}
          progress={progress.data}
          shown={shown}
          advance={settings.data?.rounds[current - 1]?.advance ?? 0}
          roundName={roundName}
          onPick={setPicked}
        />
      )}
      <AddJudge
        key={`${shown}-${current}-${rounds}`}
        eventId={event.id}
        rounds={rounds}
        firstOpen={current}
        round={shown}
        roundName={roundName}
      />
      <Refusal error={remove.error} />
      {several && <h2>{t('judges.ofRound', { round: roundName(shown) })}</h2>}
      <Table<TJudge>
        rowKey="id"
        dataSource={(judges.data ?? []).filter((j) => j.round === shown)}
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
            // A closed round's judges stay with the scores they gave.
            render: (_, j) =>
              closed ? (
                '—'
              ) : (
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
      <ReviewProgress eventId={event.id} progress={shownProgress} roundLabel={several ? roundName(shown) : null} />
    </>
  );
}
