import { lazy, Suspense, useSyncExternalStore } from 'react';

/**
 * Toasts and the system notice for code outside React (the API client). Their code (antd message,
 * Modal, QR code) loads on first use, not with every page: a toast asked for before that is queued.
 * Each brings its own AntdScope, so both follow the theme and the language.
 */

export interface Toast {
  type: 'error' | 'warning' | 'success';
  text: string;
}

const state = { toastsWanted: false, noticeOpen: false };
const listeners = new Set<() => void>();
let pending: Toast[] = [];
let deliver: ((toast: Toast) => void) | null = null;

function update(change: Partial<typeof state>): void {
  Object.assign(state, change);
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function push(toast: Toast): void {
  if (deliver) return deliver(toast);
  pending.push(toast);
  if (!state.toastsWanted) update({ toastsWanted: true });
}

export const toast = {
  error: (text: string) => push({ type: 'error', text }),
  warning: (text: string) => push({ type: 'warning', text }),
  success: (text: string) => push({ type: 'success', text }),
};

/** Called by the toast host once mounted: shows what was queued, then everything as it comes. */
export function bindToasts(show: (toast: Toast) => void): () => void {
  deliver = show;
  const queued = pending;
  pending = [];
  queued.forEach(show);
  return () => {
    if (deliver === show) deliver = null;
  };
}

/** Opens the blocking system notice; a second blocked request while it is open changes nothing. */
export function showSystemNotice(): void {
  if (!state.noticeOpen) update({ noticeOpen: true });
}

const ToastHost = lazy(() => import('./toast-host').then((m) => ({ default: m.ToastHost })));
const SystemNoticeDialog = lazy(() =>
  import('./system-notice-dialog').then((m) => ({ default: m.SystemNoticeDialog })),
);

export function FeedbackHost() {
  const toastsWanted = useSyncExternalStore(subscribe, () => state.toastsWanted);
  const noticeOpen = useSyncExternalStore(subscribe, () => state.noticeOpen);
  return (
    <>
      <Suspense fallback={null}>{toastsWanted && <ToastHost />}</Suspense>
      <Suspense fallback={null}>
        {noticeOpen && <SystemNoticeDialog onClose={() => update({ noticeOpen: false })} />}
      </Suspense>
    </>
  );
}
