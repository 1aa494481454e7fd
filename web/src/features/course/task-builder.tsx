import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { QUESTION_TYPES, type TQuestion, type TSection } from '@aiedu/contracts';
import { Alert, Button, Input, Select } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { checkDraftOf, checkOf, checkProblems, type CheckDraft } from './check-draft';
import { CheckEditor } from './check-editor';
import { TemplatePicker } from './template-picker';

interface Draft {
  /** The question's id once saved: learners' answers name it, so an edit keeps it. */
  id?: string;
  type: (typeof QUESTION_TYPES)[number];
  prompt: string;
  options: string;
  answer: number[];
  projectId: string | null;
  /** An experiment's automatic check, kept while switched off. */
  check: CheckDraft;
}

type Task = TSection['tasks'][number];

const blank = (): Draft => ({
  type: 'single',
  prompt: '',
  options: '',
  answer: [],
  projectId: null,
  check: checkDraftOf(null),
});

const draftOf = (q: TQuestion): Draft => ({
  id: q.id,
  type: q.type,
  prompt: q.prompt,
  options: 'options' in q ? q.options.join('\n') : '',
  answer: 'answer' in q ? q.answer : [],
  projectId: q.type === 'experiment' ? q.projectId : null,
  check: checkDraftOf(q.type === 'experiment' ? q.check : null),
});

const optionsOf = (d: Draft) =>
  d.options
    .split('\n')
    .map((o) => o.trim())
    .filter(Boolean);

/** Questions to save: saved ones keep their ids, new ones get the first `q<n>` no other question of the task has. */
function toQuestions(drafts: Draft[]): TQuestion[] {
  const taken = new Set(drafts.flatMap((d) => (d.id ? [d.id] : [])));
  let next = 1;
  const freshId = () => {
    while (taken.has(`q${next}`)) next++;
    taken.add(`q${next}`);
    return `q${next}`;
  };
  return drafts.map((d) => {
    const id = d.id ?? freshId();
    const options = optionsOf(d);
    if (d.type === 'single') return { id, type: 'single', prompt: d.prompt, options, answer: d.answer.slice(0, 1) };
    if (d.type === 'multiple') return { id, type: 'multiple', prompt: d.prompt, options, answer: d.answer };
    if (d.type === 'short') return { id, type: 'short', prompt: d.prompt };
    const check = checkOf(d.check);
    // Without a check, `check` is left out: the server reads it as none (and removes a saved one).
    return {
      id,
      type: 'experiment',
      prompt: d.prompt,
      projectId: d.projectId,
      ...(check ? { check } : {}),
    } as TQuestion;
  });
}

/**
 * Writes a task, or changes a saved one (`task`): questions of the four types; for choice questions, the options
 * and which are right; for experiments, the template project and an automatic check.
 */
export function TaskBuilder({
  task,
  onSave,
  onCancel,
}: {
  task?: Task;
  onSave: (task: { title: string; questions: TQuestion[] }) => Promise<unknown>;
  onCancel?: () => void;
}) {
  const { t } = useTranslation('course');
  const [title, setTitle] = useState(task?.title ?? '');
  const [drafts, setDrafts] = useState<Draft[]>(task ? task.questions.map(draftOf) : [blank()]);
  const [busy, setBusy] = useState(false);
  const [showProblems, setShowProblems] = useState(false);
  const change = (i: number, patch: Partial<Draft>) =>
    setDrafts((all) => all.map((d, j) => (i === j ? { ...d, ...patch } : d)));
  const heading = task ? t('editor.editTask', { title: task.title }) : t('editor.addQuiz');

  const checksWrong = drafts.some((d) => d.type === 'experiment' && checkProblems(d.check).any);

  const save = async () => {
    if (checksWrong) {
      setShowProblems(true);
      return;
    }
    setBusy(true);
    try {
      await onSave({ title: title.trim() || task?.title || t('editor.addQuiz'), questions: toQuestions(drafts) });
      if (!task) {
        setTitle('');
        setDrafts([blank()]);
      }
    } catch {
      // The refusal was shown where every refusal is; the task stays as written, to be corrected.
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="course-task-builder" aria-label={heading}>
      <h3>{heading}</h3>
      <Input
        aria-label={t('editor.taskTitle')}
        placeholder={t('editor.taskTitle')}
        value={title}
        onChange={(e) => setTitle(e.target.value)}
      />
      {drafts.map((d, i) => {
        const options = optionsOf(d);
        return (
          <fieldset key={i} className="course-task-builder__question">
            <legend>{`${t('editor.questionPrompt')} ${i + 1}`}</legend>
            {drafts.length > 1 && (
              <Button
                type="text"
                className="course-task-builder__remove"
                icon={<DeleteOutlined />}
                aria-label={t('editor.removeQuestion', { number: i + 1 })}
                onClick={() => setDrafts((all) => all.filter((_, j) => j !== i))}
              />
            )}
            <Select
              aria-label={t('editor.questionType')}
              value={d.type}
              onChange={(type) => change(i, { type, answer: [] })}
              options={QUESTION_TYPES.map((q) => ({ value: q, label: t(`editor.types.${q}`) }))}
            />
            <Input
              aria-label={t('editor.questionPrompt')}
              placeholder={t('editor.questionPrompt')}
              value={d.prompt}
              onChange={(e) => change(i, { prompt: e.target.value })}
            />
            {(d.type === 'single' || d.type === 'multiple') && (
              <>
                <Input.TextArea
                  aria-label={t('editor.options')}
                  placeholder={t('editor.options')}
                  rows={3}
                  value={d.options}
                  onChange={(e) => change(i, { options: e.target.value })}
                />
                <Select
                  aria-label={t('editor.rightOptions')}
                  placeholder={t('editor.rightOptions')}
                  mode={d.type === 'multiple' ? 'multiple' : undefined}
                  value={d.type === 'multiple' ? d.answer : d.answer[0]}
                  onChange={(v: number | number[]) => change(i, { answer: Array.isArray(v) ? v : [v] })}
                  options={options.map((label, value) => ({ label, value }))}
                />
              </>
            )}
            {d.type === 'experiment' && (
              <>
                <TemplatePicker value={d.projectId} onChange={(projectId) => change(i, { projectId })} />
                <CheckEditor
                  draft={d.check}
                  onChange={(patch) =>
                    setDrafts((all) => all.map((x, j) => (i === j ? { ...x, check: { ...x.check, ...patch } } : x)))
                  }
                  showProblems={showProblems}
                  onInvalid={() => setShowProblems(true)}
                  taskId={task?.id}
                  questionId={d.id}
                />
              </>
            )}
          </fieldset>
        );
      })}
      {showProblems && checksWrong && <Alert type="error" showIcon title={t('check.problems.summary')} />}
      <div className="course-task-builder__actions">
        <Button icon={<PlusOutlined />} onClick={() => setDrafts((all) => [...all, blank()])}>
          {t('editor.addQuestion')}
        </Button>
        <Button type="primary" onClick={() => void save()} loading={busy}>
          {t('editor.saveTask')}
        </Button>
        {onCancel && <Button onClick={onCancel}>{t('editor.cancel')}</Button>}
      </div>
    </section>
  );
}
