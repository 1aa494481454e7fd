import type { TAttempt, TLearnerSection } from '@aiedu/contracts';
import { Alert, Button, Checkbox, Input, Radio } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { submitAttempt } from './course-api';
import { checkBeforeSubmit, checkedQuestions, ExperimentCheck } from './experiment-check';
import { ExperimentStart } from './experiment-start';

type Task = TLearnerSection['tasks'][number];
type Answers = Record<string, { choices?: number[]; text?: string }>;

/**
 * One task: choice questions are graded when submitted; written answers and experiments wait for the teacher,
 * unless an automatic check scores the experiment. An experiment is done in the learner's own copy of its project,
 * which enrolled learners start (and check) here; submitting first checks an experiment not checked in the last
 * minute.
 */
export function TaskQuiz({ task, enrolled, onSubmitted }: { task: Task; enrolled: boolean; onSubmitted?: () => void }) {
  const { t } = useTranslation('course');
  const [answers, setAnswers] = useState<Answers>({});
  const [result, setResult] = useState<TAttempt | null>(null);
  const [busy, setBusy] = useState<'checking' | 'submitting' | null>(null);
  const client = useQueryClient();
  const set = (id: string, value: Answers[string]) => setAnswers((a) => ({ ...a, [id]: value }));

  const submit = async () => {
    const checked = enrolled ? checkedQuestions(task.questions) : [];
    try {
      if (checked.some((q) => q.experiment?.projectId)) {
        setBusy('checking');
        await checkBeforeSubmit(client, task.id, checked);
      }
      setBusy('submitting');
      const body = Object.entries(answers).map(([questionId, a]) => ({ questionId, ...a }));
      setResult(await submitAttempt(task.id, body));
      onSubmitted?.();
    } finally {
      setBusy(null);
    }
  };
  const verdict = (id: string) => {
    const credit = result?.credits[id];
    if (credit === undefined) return null;
    const [key, type] =
      credit >= 1
        ? (['quiz.correct', 'success'] as const)
        : credit > 0
          ? (['quiz.partly', 'warning'] as const)
          : (['quiz.wrong', 'error'] as const);
    return <Alert type={type} showIcon title={t(key)} className="course-quiz__verdict" />;
  };

  return (
    <section className="course-quiz" aria-labelledby={`task-${task.id}`}>
      <h3 id={`task-${task.id}`}>{task.title}</h3>
      <ol className="course-quiz__questions">
        {task.questions.map((q) => (
          <li key={q.id}>
            <fieldset className="course-quiz__question">
              <legend>{q.prompt}</legend>
              {q.type === 'single' && (
                <Radio.Group
                  aria-label={q.prompt}
                  onChange={(e) => set(q.id, { choices: [e.target.value as number] })}
                  options={(q.options ?? []).map((label, value) => ({ label, value }))}
                  className="course-quiz__options"
                />
              )}
              {q.type === 'multiple' && (
                <Checkbox.Group
                  aria-label={q.prompt}
                  onChange={(values) => set(q.id, { choices: values as number[] })}
                  options={(q.options ?? []).map((label, value) => ({ label, value }))}
                  className="course-quiz__options"
                />
              )}
              {q.type === 'short' && (
                <Input.TextArea
                  aria-label={q.prompt}
                  placeholder={t('quiz.answerPlaceholder')}
                  rows={3}
                  onChange={(e) => set(q.id, { text: e.target.value })}
                />
              )}
              {q.type === 'experiment' && (
                <>
                  {enrolled && <ExperimentStart taskId={task.id} question={q} />}
                  {enrolled && <ExperimentCheck taskId={task.id} question={q} />}
                  <Input.TextArea
                    aria-label={t('quiz.experimentNote')}
                    placeholder={t('quiz.experimentNote')}
                    rows={2}
                    onChange={(e) => set(q.id, { text: e.target.value })}
                  />
                </>
              )}
              {verdict(q.id)}
            </fieldset>
          </li>
        ))}
      </ol>
      <div role="status" aria-live="polite">
        {result?.status === 'graded' && (
          <p className="course-quiz__score">{t('quiz.score', { score: result.score ?? 0 })}</p>
        )}
        {result?.status === 'pending' && <Alert type="info" showIcon title={t('quiz.pending')} />}
      </div>
      <Button type="primary" size="large" onClick={submit} loading={busy !== null}>
        {t(busy === 'checking' ? 'check.thenSubmit' : 'quiz.submit')}
      </Button>
    </section>
  );
}
