import { LESSON_NOTE_MAX } from '@aiedu/contracts';
import { Button, Input, Tabs } from 'antd';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../ui/dates';
import { MarkdownView } from '../course/markdown-view';
import { useLessonNotes, useSaveNote } from './classroom-api';
import type { SectionPanelProps } from './classroom-outline';
import { useTabsMore } from '../../ui/named-icons';

/** Notes are saved this long after the teacher stops typing (and at once when they move to another section). */
export const NOTE_SAVE_DELAY_MS = 1_000;

type SaveState = 'idle' | 'unsaved' | 'saving' | 'saved' | 'failed';

/**
 * The teachers' private notes of one section (Markdown, written and previewed), shared by the schedule's teachers
 * and never shown to students. They save by themselves; the line below says whether they are saved.
 */
export function LessonNotes({ scheduleId, sectionId, readOnly }: SectionPanelProps) {
  const { t } = useTranslation('classroom');
  const tabsMore = useTabsMore();
  const notes = useLessonNotes(scheduleId);
  const saveNote = useSaveNote(scheduleId);
  const note = notes.data?.find((n) => n.sectionId === sectionId);
  const [draft, setDraft] = useState<string | null>(null);
  const [state, setState] = useState<SaveState>('idle');
  const body = draft ?? note?.body ?? '';
  /** What is typed and not saved yet: saved on a pause, and when the teacher moves on. */
  const unsaved = useRef<string | null>(null);
  const timer = useRef<number | undefined>(undefined);

  const save = useCallback(async () => {
    window.clearTimeout(timer.current);
    const text = unsaved.current;
    if (text === null) return;
    unsaved.current = null;
    setState('saving');
    try {
      await saveNote(sectionId, text);
      setState(unsaved.current === null ? 'saved' : 'unsaved');
    } catch {
      unsaved.current ??= text;
      setState('failed');
    }
  }, [saveNote, sectionId]);

  // Leaving the section (or the page) saves what is typed.
  useEffect(
    () => () => {
      window.clearTimeout(timer.current);
      if (unsaved.current !== null) void saveNote(sectionId, unsaved.current).catch(() => undefined);
    },
    [saveNote, sectionId],
  );

  const edit = (text: string) => {
    setDraft(text);
    unsaved.current = text;
    setState('unsaved');
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => void save(), NOTE_SAVE_DELAY_MS);
  };

  const status =
    state === 'saving'
      ? t('notes.saving')
      : state === 'failed'
        ? t('notes.failed')
        : state === 'unsaved'
          ? t('notes.unsaved')
          : note
            ? t('notes.savedBy', { name: note.updatedBy, time: formatDateTime(note.updatedAt) })
            : t('notes.none');

  return (
    <section className="classroom-notes" aria-labelledby="classroom-notes-title">
      <h2 id="classroom-notes-title" className="classroom-panel__title">
        {t('notes.title')}
      </h2>
      <p className="classroom-muted">{t('notes.private')}</p>
      <Tabs
        size="small"
        more={tabsMore}
        items={[
          {
            key: 'write',
            label: t('notes.write'),
            children: (
              <Input.TextArea
                aria-label={t('notes.label')}
                placeholder={t('notes.placeholder')}
                value={body}
                readOnly={readOnly || notes.isPending}
                maxLength={LESSON_NOTE_MAX}
                autoSize={{ minRows: 6, maxRows: 16 }}
                onChange={(e) => edit(e.target.value)}
                onBlur={() => void save()}
              />
            ),
          },
          {
            key: 'preview',
            label: t('notes.preview'),
            children: body.trim() ? (
              <div className="classroom-notes__preview">
                <MarkdownView source={body} />
              </div>
            ) : (
              <p className="classroom-muted">{t('notes.emptyPreview')}</p>
            ),
          },
        ]}
      />
      <p className="classroom-notes__state" role="status" aria-live="polite">
        {status}
        {state === 'failed' && (
          <Button type="link" onClick={() => void save()}>
            {t('notes.retry')}
          </Button>
        )}
      </p>
    </section>
  );
}
