import { useSyncExternalStore } from 'react';

/**
 * The sign-in dialogs any page can open (their code loads on first use, see sign-dialogs-host.tsx):
 * the login dialog, and the forced password change that blocks everything after a sign-in with an
 * administrator-set password (login answer `mustChangePassword`, or error 1118 on any call).
 */

export type SignStep = 'login' | 'signUp' | 'reset';

export interface LoginDialogOptions {
  /** The step the dialog opens on (default: login). */
  step?: SignStep;
  /** Where to go after signing in; defaults to the page's `?from=`, else the dialog just closes. */
  from?: string;
}

interface SignDialogsState {
  login: LoginDialogOptions | null;
  passwordChange: boolean;
}

let state: SignDialogsState = { login: null, passwordChange: false };
const listeners = new Set<() => void>();
/** The element that had focus when a dialog opened: it gets it back when the dialog closes. */
let returnFocus: HTMLElement | null = null;

function update(change: Partial<SignDialogsState>): void {
  state = { ...state, ...change };
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function rememberFocus(): void {
  const active = document.activeElement;
  returnFocus = active instanceof HTMLElement && active !== document.body ? active : null;
}

function restoreFocus(): void {
  const target = returnFocus;
  returnFocus = null;
  // After React has removed the dialog.
  if (target) window.setTimeout(() => target.isConnected && target.focus(), 0);
}

export function openLoginDialog(options: LoginDialogOptions = {}): void {
  if (!state.login && !state.passwordChange) rememberFocus();
  update({ login: options });
}

export function closeLoginDialog(): void {
  if (!state.login) return;
  update({ login: null });
  if (!state.passwordChange) restoreFocus();
}

/** Opens the blocking password change; asking again while it is open changes nothing. */
export function requirePasswordChange(): void {
  if (state.passwordChange) return;
  if (!state.login) rememberFocus();
  update({ passwordChange: true });
}

export function finishPasswordChange(): void {
  update({ passwordChange: false });
  restoreFocus();
}

export function useSignDialogs(): SignDialogsState {
  return useSyncExternalStore(subscribe, () => state);
}

const LOGIN_DIALOG = { open: openLoginDialog, close: closeLoginDialog } as const;

/** For any feature: `useLoginDialog().open({ from: '/pjedu/courses' })` asks the visitor to sign in. */
export function useLoginDialog(): typeof LOGIN_DIALOG {
  return LOGIN_DIALOG;
}
