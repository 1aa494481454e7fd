import type { TAttempt } from '@aiedu/contracts';
import { useTranslation } from 'react-i18next';
import { CheckTestList } from './check-result';

/** Whether an answer's experiments took credit from automatic checks. */
export const hasChecks = (attempt: Pick<TAttempt, 'checks'>) => Object.keys(attempt.checks ?? {}).length > 0;

/**
 * The automatic checks an answer was scored with, for its teachers: per experiment its score and state, then each
 * test (passed or not, points, and the message of a failed one).
 */
export function AttemptChecks({ attempt }: { attempt: Pick<TAttempt, 'checks'> }) {
  const { t } = useTranslation('course');
  const checks = Object.entries(attempt.checks ?? {});
  if (checks.length === 0) return null;
  return (
    <div className="check-attempt">
      {checks.map(([questionId, check], i) => (
        <section key={questionId} className="check-attempt__check" aria-label={t('check.ofAnswer', { number: i + 1 })}>
          <p className="check-attempt__title">
            {t('check.ofAnswerScore', { number: i + 1, score: check.score })} · {t(`check.states.${check.status}`)}
          </p>
          <CheckTestList tests={check.tests} />
        </section>
      ))}
    </div>
  );
}
