import { CheckCircleFilled, CloseCircleFilled, LoadingOutlined } from '@ant-design/icons';
import type { TCheckResult, TCheckTestResult } from '@aiedu/contracts';
import { Alert } from 'antd';
import { useEffect, useState, type CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import { NamedIcon } from '../../ui/named-icons';
import './experiment-check.css';

/** Each test of a check: passed or not, its name and points, and for a failed one its hint and error. */
export function CheckTestList({ tests }: { tests: TCheckTestResult[] }) {
  const { t } = useTranslation('course');
  return (
    <ul className="check-tests">
      {tests.map((test, i) => (
        <li key={i} className={`check-tests__item check-tests__item--${test.passed ? 'passed' : 'failed'}`}>
          <span className="check-tests__icon">
            <NamedIcon
              icon={test.passed ? <CheckCircleFilled /> : <CloseCircleFilled />}
              name={t(test.passed ? 'check.testPassed' : 'check.testFailed')}
            />
          </span>
          <span className="check-tests__name">{test.name}</span>
          <span className="check-tests__points">{t('check.points', { count: test.points })}</span>
          {!test.passed && test.message && <span className="check-tests__message">{test.message}</span>}
        </li>
      ))}
    </ul>
  );
}

/** Seconds since `since`, counted while shown. */
function useElapsed(since: string) {
  const started = Date.parse(since);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(timer);
  }, []);
  return Number.isFinite(started) ? Math.max(0, Math.round((now - started) / 1000)) : 0;
}

function CheckRunning({ check, notebook }: { check: TCheckResult; notebook: string }) {
  const { t } = useTranslation('course');
  const seconds = useElapsed(check.createdAt);
  return (
    <p className="check-result__running">
      <LoadingOutlined aria-hidden="true" /> {t('check.running', { notebook })}{' '}
      <span className="check-result__elapsed">{t('check.elapsed', { seconds })}</span>
    </p>
  );
}

/**
 * One check, running or ended: the notebook being run; then the score out of 100, each test, and why a check
 * that could not finish stopped, in plain words, with the notebook's first error below.
 */
export function CheckResultView({
  check,
  notebook,
  timeoutSeconds,
}: {
  check: TCheckResult;
  /** The notebook the check runs. */
  notebook: string;
  /** The check's time limit, when known (else the run's duration stands for it). */
  timeoutSeconds?: number;
}) {
  const { t } = useTranslation('course');
  if (check.status === 'running') return <CheckRunning check={check} notebook={notebook} />;
  const score = check.score ?? 0;
  const seconds = timeoutSeconds ?? Math.round((check.durationMs ?? 0) / 1000);
  return (
    <div className="check-result">
      {check.status === 'error' ? (
        <Alert
          type="error"
          showIcon
          title={t('check.error')}
          description={check.reason ? t(`check.reasons.${check.reason}`, { seconds, notebook }) : undefined}
        />
      ) : (
        <div className="check-result__head">
          {/* A ring drawn by CSS: a progress bar of its own, without the decorative drawing antd's circle adds. */}
          <div
            className={`check-result__ring${check.status === 'passed' ? ' check-result__ring--passed' : ''}`}
            style={{ '--score': `${score}%` } as CSSProperties}
            role="progressbar"
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={score}
            aria-label={t('check.scoreLabel', { score })}
          >
            <span className="check-result__score">
              {score}
              <small>/100</small>
            </span>
          </div>
          <p className="check-result__title">{t(check.status === 'passed' ? 'check.passed' : 'check.failed')}</p>
        </div>
      )}
      {check.detail && (
        <p className="check-result__detail">
          {t('check.detail')} <code>{check.detail}</code>
        </p>
      )}
      {check.tests.length > 0 && <CheckTestList tests={check.tests} />}
    </div>
  );
}
