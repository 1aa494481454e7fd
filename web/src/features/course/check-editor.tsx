import {
  ArrowDownOutlined,
  ArrowUpOutlined,
  DeleteOutlined,
  ExperimentOutlined,
  PaperClipOutlined,
  PlusOutlined,
  UploadOutlined,
} from '@ant-design/icons';
import { CHECK_LIMITS, type TCheckResult } from '@aiedu/contracts';
import { useMutation } from '@tanstack/react-query';
import { Alert, Button, Input, InputNumber, Switch } from 'antd';
import { lazy, Suspense, useId, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../app/api-client';
import { formatBytes } from '../../ui/sizes';
import {
  blankTest,
  checkOf,
  checkProblems,
  solutionProblem,
  totalPoints,
  type CheckDraft,
  type CheckProblems,
  type Problem,
  type TestDraft,
} from './check-draft';
import { CheckResultView } from './check-result';
import { trialCheck, usePolledCheck } from './course-api';
import './experiment-check.css';

// The code editor (CodeMirror with Python) loads only when an author writes a test.
const CodeEditor = lazy(() => import('../project/notebook/code-editor').then((m) => ({ default: m.CodeEditor })));

/** A labelled control with its problem below it, read out with it. */
function Field({
  label,
  problem,
  hint,
  children,
}: {
  label: string;
  problem?: string | null;
  hint?: string;
  children: (props: { id: string; 'aria-invalid'?: boolean; 'aria-describedby'?: string }) => ReactNode;
}) {
  const id = useId();
  const described = [hint ? `${id}-hint` : '', problem ? `${id}-problem` : ''].filter(Boolean).join(' ');
  return (
    <div className="course-field">
      <label htmlFor={id}>{label}</label>
      {children({ id, 'aria-invalid': problem ? true : undefined, 'aria-describedby': described || undefined })}
      {hint && (
        <span id={`${id}-hint`} className="check-editor__hint">
          {hint}
        </span>
      )}
      {problem && (
        <span id={`${id}-problem`} className="check-editor__problem">
          {problem}
        </span>
      )}
    </div>
  );
}

/** Reads a chosen file as text. */
const readText = (file: File) =>
  typeof file.text === 'function'
    ? file.text()
    : new Promise<string>((resolve, reject) => {
        const reader = new FileReader();
        reader.onload = () => resolve(String(reader.result));
        reader.onerror = () => reject(reader.error ?? new Error('unreadable'));
        reader.readAsText(file);
      });

function TestEditor({
  test,
  number,
  count,
  problems,
  onChange,
  onMove,
  onRemove,
}: {
  test: TestDraft;
  number: number;
  count: number;
  problems: Partial<Record<'name' | 'hint' | 'points' | 'code', Problem>> | undefined;
  onChange: (patch: Partial<TestDraft>) => void;
  onMove: (delta: -1 | 1) => void;
  onRemove: () => void;
}) {
  const { t } = useTranslation('course');
  const problem = (p?: Problem) => (p ? t(`check.problems.${p.key}`, p.values) : null);
  const codeLabel = t('check.testCode');
  return (
    <li>
      <fieldset className="check-editor__test">
        <legend>{t('check.test', { number })}</legend>
        <div className="check-editor__test-tools">
          <Button
            type="text"
            icon={<ArrowUpOutlined />}
            aria-label={t('check.moveUp', { number })}
            disabled={number === 1}
            onClick={() => onMove(-1)}
          />
          <Button
            type="text"
            icon={<ArrowDownOutlined />}
            aria-label={t('check.moveDown', { number })}
            disabled={number === count}
            onClick={() => onMove(1)}
          />
          <Button
            type="text"
            icon={<DeleteOutlined />}
            aria-label={t('check.removeTest', { number })}
            disabled={count === 1}
            onClick={onRemove}
          />
        </div>
        <div className="check-editor__row">
          <Field label={t('check.testName')} problem={problem(problems?.name)}>
            {(props) => (
              <Input
                {...props}
                maxLength={CHECK_LIMITS.testName}
                value={test.name}
                onChange={(e) => onChange({ name: e.target.value })}
              />
            )}
          </Field>
          <Field label={t('check.testPoints')} problem={problem(problems?.points)}>
            {(props) => (
              <InputNumber
                {...props}
                min={1}
                max={100}
                precision={0}
                value={test.points}
                onChange={(points) => onChange({ points: points ?? null })}
              />
            )}
          </Field>
        </div>
        <Field label={t('check.testHint')} problem={problem(problems?.hint)} hint={t('check.testHintHint')}>
          {(props) => (
            <Input
              {...props}
              maxLength={CHECK_LIMITS.hint}
              value={test.hint}
              onChange={(e) => onChange({ hint: e.target.value })}
            />
          )}
        </Field>
        <div className="course-field">
          <span className="check-editor__label">{codeLabel}</span>
          <Suspense
            fallback={
              <Input.TextArea className="check-editor__code" aria-label={codeLabel} value={test.code} readOnly />
            }
          >
            <CodeEditor value={test.code} language="python" label={codeLabel} onChange={(code) => onChange({ code })} />
          </Suspense>
          <span className="check-editor__hint">{t('check.testCodeHint')}</span>
          {problems?.code && <span className="check-editor__problem">{problem(problems.code)}</span>}
        </div>
      </fieldset>
    </li>
  );
}

/** The reference solution: chosen as an .ipynb file, read here, checked to be a notebook. */
function SolutionField({ draft, onChange }: { draft: CheckDraft; onChange: (patch: Partial<CheckDraft>) => void }) {
  const { t } = useTranslation('course');
  const input = useRef<HTMLInputElement>(null);
  const [refused, setRefused] = useState<string | null>(null);
  const choose = async (file: File | undefined) => {
    if (!file) return;
    const text = await readText(file);
    const problem = solutionProblem(text);
    if (problem) {
      setRefused(t(`check.${problem}`, { name: file.name, max: formatBytes(CHECK_LIMITS.solutionChars) }));
      return;
    }
    setRefused(null);
    onChange({ solution: text, solutionName: file.name });
  };
  return (
    <div className="course-field">
      <span className="check-editor__label">{t('check.solution')}</span>
      {draft.solution !== null ? (
        <p className="check-editor__solution">
          <PaperClipOutlined aria-hidden="true" />{' '}
          {t('check.solutionFile', {
            name: draft.solutionName ?? t('check.solutionSaved'),
            size: formatBytes(new Blob([draft.solution]).size),
          })}{' '}
          ·{' '}
          <Button
            type="link"
            className="check-editor__inline"
            aria-label={t('check.removeSolution')}
            onClick={() => onChange({ solution: null, solutionName: null })}
          >
            {t('check.remove')}
          </Button>
        </p>
      ) : (
        <div>
          <input
            ref={input}
            type="file"
            accept=".ipynb,application/x-ipynb+json"
            className="visually-hidden"
            tabIndex={-1}
            aria-label={t('check.solutionUpload')}
            onChange={(e) => {
              void choose(e.target.files?.[0]);
              e.target.value = '';
            }}
          />
          <Button icon={<UploadOutlined aria-hidden="true" />} onClick={() => input.current?.click()}>
            {t('check.solutionUpload')}
          </Button>
        </div>
      )}
      <span className="check-editor__hint">{t('check.solutionHint')}</span>
      {refused && (
        <span className="check-editor__problem" role="alert">
          {refused}
        </span>
      )}
    </div>
  );
}

/** "Try against template / solution": the draft runs in the template's sandbox; the result shows as learners see it. */
function CheckTrial({
  draft,
  taskId,
  questionId,
  onInvalid,
}: {
  draft: CheckDraft;
  taskId?: string;
  questionId?: string;
  onInvalid: () => void;
}) {
  const { t } = useTranslation('course');
  const [trial, setTrial] = useState<{ check: TCheckResult; notebook: string; timeoutSeconds: number } | null>(null);
  const current = usePolledCheck(trial?.check);
  const tryIt = useMutation({
    mutationFn: ({ against }: { against: 'template' | 'solution' }) =>
      trialCheck(taskId!, { questionId: questionId!, against, check: checkOf(draft)! }),
    onSuccess: (check) =>
      setTrial({ check, notebook: draft.notebook.trim(), timeoutSeconds: draft.timeoutSeconds ?? 0 }),
  });
  if (!taskId || !questionId) return <p className="check-editor__hint">{t('check.saveFirst')}</p>;
  const start = (against: 'template' | 'solution') => {
    if (checkProblems(draft).any) return onInvalid();
    tryIt.mutate({ against });
  };
  const running = tryIt.isPending || current?.status === 'running';
  const refusal =
    tryIt.error instanceof ApiError && typeof tryIt.error.body === 'object' ? tryIt.error.body.errorMsg : null;
  return (
    <div className="check-editor__trial">
      <div className="check-editor__trial-actions">
        <Button icon={<ExperimentOutlined aria-hidden="true" />} disabled={running} onClick={() => start('template')}>
          {t('check.tryTemplate')}
        </Button>
        <Button
          icon={<ExperimentOutlined aria-hidden="true" />}
          disabled={running || draft.solution === null}
          onClick={() => start('solution')}
        >
          {t('check.trySolution')}
        </Button>
      </div>
      <span className="check-editor__hint">{t('check.tryHint')}</span>
      <div role="status" aria-live="polite">
        {refusal && !running && <Alert type="error" showIcon title={refusal} />}
        {current && (
          <>
            {current.trial && <p className="check-editor__trial-title">{t(`check.trialAgainst.${current.trial}`)}</p>}
            <CheckResultView check={current} notebook={trial!.notebook} timeoutSeconds={trial!.timeoutSeconds} />
          </>
        )}
      </div>
    </div>
  );
}

/**
 * An experiment question's automatic check, off until switched on: the notebook checked and its time limit, the
 * hidden tests (name, hint, points, Python code), a reference solution, and trials against the template and the
 * solution once the task is saved. `showProblems` shows every problem, as after a refused save.
 */
export function CheckEditor({
  draft,
  onChange,
  showProblems,
  onInvalid,
  taskId,
  questionId,
}: {
  draft: CheckDraft;
  onChange: (patch: Partial<CheckDraft>) => void;
  showProblems: boolean;
  onInvalid: () => void;
  taskId?: string;
  questionId?: string;
}) {
  const { t } = useTranslation('course');
  const switchId = useId();
  const found = checkProblems(draft);
  const shown: CheckProblems = showProblems ? found : { test: {}, any: false };
  const problem = (p?: Problem) => (p ? t(`check.problems.${p.key}`, p.values) : null);
  const setTest = (key: number, patch: Partial<TestDraft>) =>
    onChange({ tests: draft.tests.map((x) => (x.key === key ? { ...x, ...patch } : x)) });
  const move = (index: number, delta: -1 | 1) => {
    const tests = [...draft.tests];
    const [test] = tests.splice(index, 1);
    tests.splice(index + delta, 0, test!);
    onChange({ tests });
  };

  return (
    <fieldset className="check-editor">
      <legend>{t('check.section')}</legend>
      <div className="check-editor__switch">
        <Switch id={switchId} checked={draft.enabled} onChange={(enabled) => onChange({ enabled })} />
        <label htmlFor={switchId}>{t('check.enable')}</label>
      </div>
      <span className="check-editor__hint">{t('check.enableHint')}</span>
      {draft.enabled && (
        <>
          <div className="check-editor__row">
            <Field label={t('check.notebook')} problem={problem(shown.notebook)} hint={t('check.notebookHint')}>
              {(props) => (
                <Input
                  {...props}
                  maxLength={CHECK_LIMITS.notebookPath}
                  value={draft.notebook}
                  onChange={(e) => onChange({ notebook: e.target.value })}
                />
              )}
            </Field>
            <Field label={t('check.timeout')} problem={problem(shown.timeout)}>
              {(props) => (
                <InputNumber
                  {...props}
                  min={CHECK_LIMITS.timeoutSecondsMin}
                  max={CHECK_LIMITS.timeoutSecondsMax}
                  precision={0}
                  value={draft.timeoutSeconds}
                  onChange={(timeoutSeconds) => onChange({ timeoutSeconds: timeoutSeconds ?? null })}
                />
              )}
            </Field>
          </div>
          <h4 className="check-editor__tests-title">{t('check.tests')}</h4>
          <ol className="check-editor__tests">
            {draft.tests.map((test, i) => (
              <TestEditor
                key={test.key}
                test={test}
                number={i + 1}
                count={draft.tests.length}
                problems={shown.test[test.key]}
                onChange={(patch) => setTest(test.key, patch)}
                onMove={(delta) => move(i, delta)}
                onRemove={() => onChange({ tests: draft.tests.filter((x) => x.key !== test.key) })}
              />
            ))}
          </ol>
          <div className="check-editor__total">
            <Button
              icon={<PlusOutlined aria-hidden="true" />}
              disabled={draft.tests.length >= CHECK_LIMITS.tests}
              onClick={() => onChange({ tests: [...draft.tests, blankTest()] })}
            >
              {t('check.addTest')}
            </Button>
            <span>{t('check.total', { count: totalPoints(draft) })}</span>
          </div>
          {shown.tests && <span className="check-editor__problem">{problem(shown.tests)}</span>}
          <SolutionField draft={draft} onChange={onChange} />
          <CheckTrial draft={draft} taskId={taskId} questionId={questionId} onInvalid={onInvalid} />
        </>
      )}
    </fieldset>
  );
}
