import { LIMITS, type TScheduleSubmission, type TScheduleTask } from '@aiedu/contracts';
import { Button, Drawer, Input, InputNumber, Space, Tag } from 'antd';
import { Table } from '../../ui/table';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { loadNamespaces } from '../../app/i18n';
import { formatDateTime } from '../../ui/dates';
import { AttemptChecks, hasChecks } from '../course/check-attempt';
import { DueDialog } from './due-dialog';
import { scheduleCalls, useScheduleMutation, useSubmissions } from './schedule-api';

type Draft = { score: number | null; comment: string };

/**
 * Every student's latest answer to a task: short answers and experiments are scored 0–100 with a comment, one by
 * one or all changed at once (an automatic check's score, when there is one, is offered first: saving takes it,
 * changing it overrides it; its tests are listed under the answer); choice questions are graded already. A
 * student's task may be reopened with a due time of their own.
 */
export function SubmissionsDrawer({
  task,
  readOnly,
  onClose,
}: {
  task: TScheduleTask;
  readOnly: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation('schedule');
  const submissions = useSubmissions(task.id);
  const [drafts, setDrafts] = useState<Record<string, Draft>>({});
  const [reopening, setReopening] = useState<TScheduleSubmission | null>(null);
  // The automatic checks' tests are listed with the course's texts.
  useEffect(() => void loadNamespaces(['course']), []);
  const manual = task.questionTypes.some((q) => q === 'short' || q === 'experiment');
  const draftOf = (row: TScheduleSubmission): Draft =>
    drafts[row.attempt!.id] ?? { score: row.attempt!.score ?? row.attempt!.autoScore, comment: row.attempt!.comment };
  const save = useScheduleMutation(
    (ids: string[]) =>
      scheduleCalls.score(
        task.id,
        ids.map((attemptId) => {
          const draft = draftOf((submissions.data ?? []).find((row) => row.attempt?.id === attemptId)!);
          return { attemptId, score: draft.score!, comment: draft.comment };
        }),
      ),
    () => setDrafts({}),
  );
  const edit = (row: TScheduleSubmission, change: Partial<Draft>) =>
    setDrafts((d) => ({ ...d, [row.attempt!.id]: { ...draftOf(row), ...change } }));
  /** An answer with an automatic check's score and none of the teacher's: saving it as it stands takes that score. */
  const offered = (row: TScheduleSubmission) => row.attempt?.score === null && row.attempt.autoScore !== null;
  const changed = (row: TScheduleSubmission) =>
    Boolean(row.attempt) && (Boolean(drafts[row.attempt!.id]) || offered(row)) && draftOf(row).score !== null;
  const ready = (submissions.data ?? []).filter(changed).map((row) => row.attempt!.id);
  const scoring = manual && !readOnly;

  return (
    <Drawer
      open
      width={960}
      title={t('answers.title', { title: task.title })}
      onClose={onClose}
      extra={
        scoring && (
          <Button
            type="primary"
            disabled={ready.length === 0}
            loading={save.isPending}
            onClick={() => save.mutate(ready)}
          >
            {t('answers.saveAll', { count: ready.length })}
          </Button>
        )
      }
    >
      <Table<TScheduleSubmission>
        rowKey="userId"
        loading={submissions.isPending}
        dataSource={submissions.data ?? []}
        pagination={false}
        scroll={{ x: 'max-content' }}
        expandable={{
          rowExpandable: (row) => Boolean(row.attempt && hasChecks(row.attempt)),
          expandedRowRender: (row) => row.attempt && <AttemptChecks attempt={row.attempt} />,
        }}
        columns={[
          {
            title: t('answers.student'),
            key: 'student',
            render: (_, row) => (
              <>
                <div>{row.name}</div>
                <div className="schedule-muted">{row.className ?? row.username}</div>
              </>
            ),
          },
          {
            title: t('answers.answer'),
            key: 'answer',
            render: (_, row) =>
              row.attempt ? (
                <div className="schedule-answer">
                  {row.attempt.answers
                    .map((a) => a.text)
                    .filter(Boolean)
                    .join('\n') || t('answers.choicesOnly')}
                  <div className="schedule-muted">
                    {formatDateTime(row.attempt.createdAt)} · {t('answers.attempts', { count: row.attempts })}
                  </div>
                </div>
              ) : (
                <Tag>{t('answers.none')}</Tag>
              ),
          },
          {
            title: t('answers.score'),
            key: 'score',
            render: (_, row) =>
              !row.attempt ? null : scoring ? (
                <Space direction="vertical" size={4}>
                  <InputNumber
                    aria-label={t('answers.scoreOf', { name: row.name })}
                    min={LIMITS.scoreMin}
                    max={LIMITS.scoreMax}
                    precision={0}
                    value={draftOf(row).score}
                    onChange={(score) => edit(row, { score: score ?? null })}
                  />
                  {row.attempt.autoScore !== null && (
                    <span className="schedule-muted">{t('answers.autoScore', { score: row.attempt.autoScore })}</span>
                  )}
                </Space>
              ) : (
                <>
                  {row.attempt.score ?? t('answers.pending')}
                  {row.attempt.autoScore !== null && (
                    <div className="schedule-muted">{t('answers.autoScore', { score: row.attempt.autoScore })}</div>
                  )}
                </>
              ),
          },
          {
            title: t('answers.comment'),
            key: 'comment',
            render: (_, row) =>
              row.attempt && scoring ? (
                <Input.TextArea
                  aria-label={t('answers.commentOf', { name: row.name })}
                  maxLength={LIMITS.description}
                  autoSize
                  value={draftOf(row).comment}
                  onChange={(e) => edit(row, { comment: e.target.value })}
                />
              ) : (
                row.attempt?.comment || null
              ),
          },
          {
            title: t('answers.due'),
            key: 'due',
            render: (_, row) => (
              <>
                {row.dueAt ? formatDateTime(row.dueAt) : t('tasks.noDue')}
                {row.reopened && <Tag className="schedule-tag-gap">{t('answers.reopened')}</Tag>}
              </>
            ),
          },
          {
            title: t('tasks.actions'),
            key: 'actions',
            render: (_, row) =>
              !readOnly && (
                <Space size={0} wrap>
                  {scoring && row.attempt && (
                    <Button type="link" disabled={!changed(row)} onClick={() => save.mutate([row.attempt!.id])}>
                      {t('answers.save')}
                    </Button>
                  )}
                  <Button type="link" onClick={() => setReopening(row)}>
                    {t('answers.reopen')}
                  </Button>
                </Space>
              ),
          },
        ]}
      />
      {reopening && (
        <DueDialog
          title={t('answers.reopenTitle', { name: reopening.name })}
          initial={reopening.dueAt}
          onSave={(dueAt) => scheduleCalls.reopen(task.id, { userId: reopening.userId, dueAt })}
          onClose={() => setReopening(null)}
        />
      )}
    </Drawer>
  );
}
