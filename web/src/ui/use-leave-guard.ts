import { UI_SIZES } from '@aiedu/contracts';
import { Modal } from 'antd';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useBlocker } from 'react-router';

export interface LeaveTexts {
  title: string;
  body: string;
  leave: string;
  stay: string;
}

/**
 * Unsaved changes of a form page: leaving it inside the app asks first (with `texts`), and so does closing the tab.
 * Render `host` in the page; call `setDirty` as the form changes and after it is saved.
 */
export function useLeaveGuard(texts: LeaveTexts) {
  const [modal, host] = Modal.useModal();
  const [dirty, setDirtyState] = useState(false);
  // Read when a navigation starts, so one right after a save (before the next render) is not held back.
  const dirtyNow = useRef(false);
  const setDirty = useCallback((value: boolean) => {
    dirtyNow.current = value;
    setDirtyState(value);
  }, []);
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) => dirtyNow.current && currentLocation.pathname !== nextLocation.pathname,
  );
  const { title, body, leave, stay } = texts;
  useEffect(() => {
    if (blocker.state !== 'blocked') return;
    void modal.confirm({
      width: UI_SIZES.confirmDialogWidth,
      title,
      content: body,
      okText: leave,
      cancelText: stay,
      onOk: () => blocker.proceed(),
      onCancel: () => blocker.reset(),
    });
  }, [blocker, modal, title, body, leave, stay]);
  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);
  return { host, setDirty };
}
