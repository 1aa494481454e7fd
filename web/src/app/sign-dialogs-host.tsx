import { Component, lazy, Suspense, useId, type ErrorInfo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ShellButton } from '../ui/shell-button';
import { loadNamespaces } from './i18n';
import { closeLoginDialog, finishPasswordChange, useSignDialogs } from './sign-dialogs';
import './sign-dialogs-host.css';

// The dialogs' code and texts load when one first opens, never with the page behind it.
const LoginDialog = lazy(() =>
  Promise.all([import('../features/sign/login-dialog'), import('./antd-scope'), loadNamespaces(['sign'])]).then(
    ([m, scope]) => ({ default: scope.withAntdScope(m.LoginDialog) }),
  ),
);
const PasswordChangeDialog = lazy(() =>
  Promise.all([
    import('../features/sign/password-change-dialog'),
    import('./antd-scope'),
    loadNamespaces(['sign']),
  ]).then(([m, scope]) => ({ default: scope.withAntdScope(m.PasswordChangeDialog) })),
);

/** Mounted once in the layout: renders whichever sign-in dialog is open. */
export function SignDialogsHost() {
  const { login, passwordChange } = useSignDialogs();
  return (
    <>
      {login && (
        <DialogBoundary onClose={closeLoginDialog}>
          <Suspense fallback={null}>
            <LoginDialog options={login} onClose={closeLoginDialog} />
          </Suspense>
        </DialogBoundary>
      )}
      {passwordChange && (
        <DialogBoundary onClose={finishPasswordChange}>
          <Suspense fallback={null}>
            <PasswordChangeDialog onDone={finishPasswordChange} />
          </Suspense>
        </DialogBoundary>
      )}
    </>
  );
}

interface BoundaryProps {
  onClose: () => void;
  children: ReactNode;
}

/** Spec section 2: if the dialog fails to load or render, a fallback says "something went wrong". */
export class DialogBoundary extends Component<BoundaryProps, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error(error, info.componentStack);
  }

  override render() {
    return this.state.failed ? <DialogFailed onClose={this.props.onClose} /> : this.props.children;
  }
}

/** Plain markup, no component library: it must show even when a chunk failed to load. */
function DialogFailed({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const titleId = useId();
  return (
    <div className="dialog-failed" onKeyDown={(event) => event.key === 'Escape' && onClose()}>
      <div className="dialog-failed__box" role="alertdialog" aria-modal="true" aria-labelledby={titleId}>
        <h2 id={titleId}>{t('error.title')}</h2>
        <p>{t('error.body')}</p>
        <ShellButton kind="primary" autoFocus onClick={onClose}>
          {t('dialog.close')}
        </ShellButton>
      </div>
    </div>
  );
}
