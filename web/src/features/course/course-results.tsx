import { LIMITS, type TAttempt } from '@aiedu/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Input, InputNumber } from 'antd';
import { Table } from '../../ui/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../app/api';
import { formatDateTime } from '../../ui/dates';
import { AttemptChecks, hasChecks } from './check-attempt';
import { ExperimentCopies } from './experiment-copies';

/**
 * Scores a short answer or experiment: 0–100 and a comment. Until the teacher scores it, an automatic check's score
 * stands in the box, to take or change.
 */
function GradeForm({ attempt, onDone }: { attempt: TAttempt; onDone: () => void }) {
  const { t } = useTranslation('course');
  const [score, setScore] = useState<number | null>(attempt.score ?? attempt.autoScore);
  const [comment, setComment] = useState(attempt.comment);
  const [busy, setBusy] = useState(false);
  const save = async () => {
    if (score === null) return;
    setBusy(true);
    try {
      await api.put(`/api/v1/courses/attempts/${attempt.id}/grade`, { score, comment });
      onDone();
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="course-grade">
      <InputNumber
        aria-label={t('record.score')}
        min={LIMITS.scoreMin}
        max={LIMITS.scoreMax}
        precision={0}
        value={score}
        onChange={(v) => setScore(v)}
      />
      <Input
        aria-label={t('record.comment')}
        placeholder={t('record.comment')}
        value={comment}
        onChange={(e) => setComment(e.target.value)}
      />
      <Button type="primary" onClick={save} loading={busy} disabled={score === null}>
        {t('results.grade')}
      </Button>
    </div>
  );
}

/**
 * Every learner's attempts for the course's teachers; written answers are graded here, experiments' automatic checks
 * shown test by test, experiment copies opened.
 */
export function CourseResults({ courseId }: { courseId: string }) {
  const { t } = useTranslation('course');
  const client = useQueryClient();
  const key = ['course', 'results', courseId];
  const results = useQuery({
    queryKey: key,
    queryFn: () => api.get<TAttempt[]>(`/api/v1/courses/${courseId}/results`),
  });
  const refresh = () => void client.invalidateQueries({ queryKey: key });
  return (
    <section className="course-results" aria-labelledby="course-results-title">
      <h2 id="course-results-title">{t('results.title')}</h2>
      <Table<TAttempt>
        rowKey="id"
        loading={results.isPending}
        dataSource={results.data ?? []}
        pagination={{ pageSize: 20, hideOnSinglePage: true }}
        locale={{ emptyText: t('results.empty') }}
        expandable={{
          rowExpandable: (a) => a.answers.some((x) => x.text) || hasChecks(a),
          expandedRowRender: (a) => (
            <>
              <ul>
                {a.answers
                  .filter((x) => x.text)
                  .map((x) => (
                    <li key={x.questionId}>{x.text}</li>
                  ))}
              </ul>
              <AttemptChecks attempt={a} />
            </>
          ),
        }}
        columns={[
          { title: t('results.learner'), dataIndex: 'learnerName' },
          {
            title: t('record.when'),
            dataIndex: 'createdAt',
            render: (v: string) => formatDateTime(v),
          },
          {
            title: t('record.score'),
            key: 'score',
            render: (_: unknown, a: TAttempt) => (
              <>
                {a.status === 'pending' || hasChecks(a) || a.answers.some((x) => x.text !== undefined) ? (
                  <GradeForm attempt={a} onDone={refresh} />
                ) : (
                  a.score
                )}
                {a.autoScore !== null && (
                  <div className="check-auto-score">{t('check.autoScore', { score: a.autoScore })}</div>
                )}
              </>
            ),
          },
          { title: t('record.comment'), dataIndex: 'comment' },
        ]}
      />
      <ExperimentCopies courseId={courseId} />
    </section>
  );
}
