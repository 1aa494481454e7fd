import { ArrowLeftOutlined, ArrowRightOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';

/** Keys of the teach view: arrows and a presenter's clicker (Page Up / Page Down). */
const NEXT_KEYS = ['ArrowRight', 'PageDown'];
const PREVIOUS_KEYS = ['ArrowLeft', 'PageUp'];
/** Where those keys already mean something: typing, tabs, players, dialogs. */
const OWN_KEYS =
  'input, textarea, select, [contenteditable="true"], [role="tab"], [role="slider"], [role="radio"], ' +
  '[role="menuitem"], [role="option"], [role="dialog"] *, video, audio';

/** Moves a section on or back with the keyboard, wherever the page's focus does not use the key itself. */
export function useStepKeys(onStep: (delta: -1 | 1) => void) {
  const step = useRef(onStep);
  useEffect(() => {
    step.current = onStep;
  });
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
      const delta = NEXT_KEYS.includes(event.key) ? 1 : PREVIOUS_KEYS.includes(event.key) ? -1 : 0;
      if (!delta) return;
      if (event.target instanceof Element && event.target.closest(OWN_KEYS)) return;
      event.preventDefault();
      step.current(delta);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}

/** Previous and next section, with the keys that do the same, and a polite word of where the view is now. */
export function StepButtons({
  hasPrevious,
  hasNext,
  title,
  onStep,
}: {
  hasPrevious: boolean;
  hasNext: boolean;
  title: string | null;
  onStep: (delta: -1 | 1) => void;
}) {
  const { t } = useTranslation('classroom');
  return (
    <div className="classroom-steps">
      <Button
        size="large"
        icon={<ArrowLeftOutlined aria-hidden="true" />}
        disabled={!hasPrevious}
        aria-keyshortcuts="ArrowLeft PageUp"
        onClick={() => onStep(-1)}
      >
        {t('steps.previous')}
      </Button>
      <span className="classroom-muted classroom-steps__hint">{t('steps.hint')}</span>
      <Button
        type="primary"
        size="large"
        disabled={!hasNext}
        aria-keyshortcuts="ArrowRight PageDown"
        onClick={() => onStep(1)}
      >
        {t('steps.next')} <ArrowRightOutlined aria-hidden="true" />
      </Button>
      <span className="visually-hidden" role="status" aria-live="polite">
        {title ? t('steps.showing', { title }) : ''}
      </span>
    </div>
  );
}
