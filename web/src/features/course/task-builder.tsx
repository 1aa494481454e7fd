import { PlusOutlined } from '@ant-design/icons';
import { QUESTION_TYPES, type TQuestion } from '@aiedu/contracts';
import { Button, Input, Select } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TemplatePicker } from './template-picker';

interface Draft {
  type: (typeof QUESTION_TYPES)[number];
  prompt: string;
  options: string;
  answer: number[];
  projectId: string | null;
}

const blank = (): Draft => ({ type: 'single', prompt: '', options: '', answer: [], projectId: null });

function toQuestion(d: Draft, index: number): TQuestion {
  const id = `q${index + 1}`;
  const options = d.options
    .split('\n')
    .map((o) => o.trim())
    .filter(Boolean);
  if (d.type === 'single') return { id, type: 'single', prompt: d.prompt, options, answer: d.answer.slice(0, 1) };
  if (d.type === 'multiple') return { id, type: 'multiple', prompt: d.prompt, options, answer: d.answer };
  if (d.type === 'short') return { id, type: 'short', prompt: d.prompt };
  return { id, type: 'experiment', prompt: d.prompt, projectId: d.projectId };
}

/** Writes a task: questions of the four types; for choice questions, the options and which are right. */
export function TaskBuilder({
  onSave,
}: {
  onSave: (task: { title: string; questions: TQuestion[] }) => Promise<unknown>;
}) {
  const { t } = useTranslation('course');
  const [title, setTitle] = useState('');
  const [drafts, setDrafts] = useState<Draft[]>([blank()]);
  const [busy, setBusy] = useState(false);
  const change = (i: number, patch: Partial<Draft>) =>
    setDrafts((all) => all.map((d, j) => (i === j ? { ...d, ...patch } : d)));

  const save = async () => {
    setBusy(true);
    try {
      await onSave({ title: title.trim() || t('editor.addQuiz'), questions: drafts.map(toQuestion) });
      setTitle('');
      setDrafts([blank()]);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="course-task-builder" aria-label={t('editor.addQuiz')}>
      <h3>{t('editor.addQuiz')}</h3>
      <Input
        aria-label={t('editor.taskTitle')}
        placeholder={t('editor.taskTitle')}
        value={title}
        onChange={(e) => setTitle(e.target.value)}
      />
      {drafts.map((d, i) => {
        const options = d.options
          .split('\n')
          .map((o) => o.trim())
          .filter(Boolean);
        return (
          <fieldset key={i} className="course-task-builder__question">
            <legend>{`${t('editor.questionPrompt')} ${i + 1}`}</legend>
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
              <TemplatePicker value={d.projectId} onChange={(projectId) => change(i, { projectId })} />
            )}
          </fieldset>
        );
      })}
      <div className="course-task-builder__actions">
        <Button icon={<PlusOutlined />} onClick={() => setDrafts((all) => [...all, blank()])}>
          {t('editor.addQuestion')}
        </Button>
        <Button type="primary" onClick={save} loading={busy}>
          {t('editor.saveTask')}
        </Button>
      </div>
    </section>
  );
}
