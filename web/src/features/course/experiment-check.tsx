import { SafetyCertificateOutlined } from '@ant-design/icons';
import type { TCheckResult, TLearnerSection } from '@aiedu/contracts';
import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { Alert } from 'antd';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../app/api-client';
import { Button } from '../../ui/button';
import { formatDateTime } from '../../ui/dates';
import { DEFAULT_NOTEBOOK } from './check-draft';
import { CheckResultView } from './check-result';
import { checkKeys, latestCheck, runCheck, settleCheck, useLatestCheck, usePolledCheck } from './course-api';

type Question = TLearnerSection['tasks'][number]['questions'][number];

/** A check older than this is run again before its task is submitted. */
export const CHECK_FRESH_MS = 60_000;

/** The questions of a task whose experiment an automatic check scores, once the learner has a copy to check. */
export const checkedQuestions = (questions: Question[]) =>
  questions.filter((q) => q.type === 'experiment' && q.experiment?.checked && q.experiment.linked);

/**
 * Before a task is submitted, each started checked experiment gets a check no older than a minute: a running one is
 * waited for, an older (or missing) one run again. A refusal (too many checks, Python not installed) leaves the
 * latest check as it is; the submission goes on with it.
 */
export async function checkBeforeSubmit(client: QueryClient, taskId: string, questions: Question[]) {
  for (const q of checkedQuestions(questions)) {
    if (!q.experiment?.projectId) continue;
    const key = checkKeys.latest(taskId, q.id);
    try {
      let latest = client.getQueryData<TCheckResult | null>(key);
      if (latest === undefined)
        latest = await client.fetchQuery({ queryKey: key, queryFn: () => latestCheck(taskId, q.id) });
      if (latest) latest = await settleCheck(client, latest);
      const at = latest ? Date.parse(latest.finishedAt ?? latest.createdAt) : Number.NaN;
      if (!(Date.now() - at < CHECK_FRESH_MS)) {
        const started = await runCheck(taskId, q.id);
        client.setQueryData(key, started);
        await settleCheck(client, started);
      }
    } catch {
      // Shown where refusals are (a toast for 1109); the task is submitted with the latest check there is.
    }
  }
}

/** What a refusal of "Check my work" says: when the learner may check again, or the server's message. */
function useRefusal(error: unknown): string | null {
  const { t } = useTranslation('course');
  if (!(error instanceof ApiError) || typeof error.body !== 'object') return null;
  const { errorCode, errorMsg, data } = error.body;
  if (errorCode === '1109') {
    const { retryAfterSeconds = 10, perHour } = (data ?? {}) as { retryAfterSeconds?: number; perHour?: number };
    return perHour
      ? t('check.tooManyChecks', { perHour, minutes: Math.max(1, Math.ceil(retryAfterSeconds / 60)) })
      : t('check.oneAtATime', { seconds: retryAfterSeconds });
  }
  return errorMsg;
}

function CheckPanel({
  taskId,
  questionId,
  notebook,
  started,
}: {
  taskId: string;
  questionId: string;
  notebook: string;
  started: boolean;
}) {
  const { t } = useTranslation('course');
  const client = useQueryClient();
  const latest = useLatestCheck(taskId, questionId, started);
  const current = usePolledCheck(latest.data);
  const run = useMutation({
    mutationFn: () => runCheck(taskId, questionId),
    onSuccess: (check) => client.setQueryData(checkKeys.latest(taskId, questionId), check),
  });
  const refusal = useRefusal(run.error);
  const running = run.isPending || current?.status === 'running';
  return (
    <div className="check-panel">
      {started ? (
        <div className="check-panel__actions">
          <Button
            size="large"
            icon={<SafetyCertificateOutlined aria-hidden="true" />}
            loading={running}
            onClick={() => run.mutate()}
          >
            {t(current && current.status !== 'running' ? 'check.runAgain' : 'check.run')}
          </Button>
          <p className="course-experiment__hint">{t('check.hint', { notebook })}</p>
        </div>
      ) : (
        <p className="course-experiment__hint">{t('check.notStarted', { notebook })}</p>
      )}
      <div role="status" aria-live="polite">
        {refusal && !running && <Alert type="warning" showIcon title={refusal} />}
        {current && <CheckResultView check={current} notebook={notebook} />}
        {current && current.status !== 'running' && (
          <p className="check-panel__when">
            {t('check.checkedAt', { time: formatDateTime(current.finishedAt ?? current.createdAt) })}
          </p>
        )}
      </div>
    </div>
  );
}

/**
 * "Check my work" under an experiment an automatic check scores: the learner's notebook runs in their own copy,
 * then the hidden tests; the latest result stays shown. Before the experiment is started it says where the check
 * will run.
 */
export function ExperimentCheck({ taskId, question }: { taskId: string; question: Question }) {
  const experiment = question.experiment;
  if (!experiment?.checked || !experiment.linked) return null;
  return (
    <CheckPanel
      taskId={taskId}
      questionId={question.id}
      notebook={experiment.notebook ?? DEFAULT_NOTEBOOK}
      started={Boolean(experiment.projectId)}
    />
  );
}
