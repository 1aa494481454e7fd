import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../ui/button';
import type { SaveState } from './use-autosave';

/** "Saved 3 s ago", "Saving…", "Unsaved changes" or a failure, with a save button. */
export function SaveIndicator({ state, onSave }: { state: SaveState; onSave(): void }) {
  const { t } = useTranslation('project');
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(timer);
  }, []);
  const text =
    state.kind === 'saved'
      ? t('editor.savedAgo', { seconds: Math.max(0, Math.round((now - state.at) / 1000)) })
      : state.kind === 'saving'
        ? t('editor.saving')
        : state.kind === 'failed'
          ? t('editor.saveFailed')
          : t('editor.unsaved');
  return (
    <span className="save-indicator" data-save-state={state.kind}>
      <span aria-live="polite">{text}</span>
      <Button size="small" kind="ghost" disabled={state.kind === 'saved' || state.kind === 'saving'} onClick={onSave}>
        {t('editor.save')}
      </Button>
    </span>
  );
}
