import { TIMINGS, type TLoginResponse } from '@aiedu/contracts';
import { Result, Tabs, type TabsProps } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { SignStep } from '../../app/sign-dialogs';
import { CodeLoginForm } from './code-login-form';
import { PasswordLoginForm } from './password-login-form';
import { ResetPasswordForm } from './reset-password-form';
import { SignUpForm } from './sign-up-form';
import './sign.css';
import { useTabsMore } from '../../ui/named-icons';

export interface SignPanelProps {
  step: SignStep;
  onStepChange: (step: SignStep) => void;
  /** 'super': password sign-in only, no customer code, no sign-up or reset. */
  mode?: 'user' | 'super';
  onSignedIn: (login: TLoginResponse) => void;
  /** Runs 3 s after 'reset password done' shows (the dialog reloads the page). */
  onResetDone: () => void;
}

/**
 * The sign-in forms shared by the login dialog and the sign-in pages (spec section 2): steps
 * login → sign-up → reset; the login step has two tabs (password, phone code), the other steps one
 * tab titled after them.
 */
export function SignPanel({ step, onStepChange, mode = 'user', onSignedIn, onResetDone }: SignPanelProps) {
  const { t } = useTranslation('sign');
  const [loginTab, setLoginTab] = useState('password');
  const [resetDone, setResetDone] = useState(false);
  const more = useTabsMore();

  useEffect(() => {
    if (!resetDone) return undefined;
    const timer = window.setTimeout(onResetDone, TIMINGS.resetDoneMs);
    return () => window.clearTimeout(timer);
  }, [resetDone, onResetDone]);

  if (resetDone) {
    return (
      <div role="status">
        <Result status="success" title={t('reset.doneTitle')} subTitle={t('reset.doneBody')} />
      </div>
    );
  }

  const user = mode === 'user';
  let items: TabsProps['items'];
  if (step === 'signUp' && user) {
    items = [{ key: 'signUp', label: t('tabs.signUp'), children: <SignUpForm onSignedIn={onSignedIn} /> }];
  } else if (step === 'reset' && user) {
    items = [
      { key: 'reset', label: t('tabs.reset'), children: <ResetPasswordForm onReset={() => setResetDone(true)} /> },
    ];
  } else {
    items = [
      {
        key: 'password',
        label: t('tabs.password'),
        children: <PasswordLoginForm mode={mode} onSignedIn={onSignedIn} />,
      },
      ...(user ? [{ key: 'code', label: t('tabs.code'), children: <CodeLoginForm onSignedIn={onSignedIn} /> }] : []),
    ];
  }
  const onLogin = step === 'login' || !user;

  return (
    <div className="sign-panel">
      <Tabs
        size="large"
        more={more}
        activeKey={onLogin ? loginTab : step}
        onChange={(key) => setLoginTab(key)}
        items={items}
      />
      {user && (
        <div className="sign-panel__links">
          {onLogin ? (
            <>
              <button type="button" className="sign-link" onClick={() => onStepChange('signUp')}>
                {t('links.signUp')}
              </button>
              <button type="button" className="sign-link" onClick={() => onStepChange('reset')}>
                {t('links.forgot')}
              </button>
            </>
          ) : (
            <button type="button" className="sign-link" onClick={() => onStepChange('login')}>
              {t('links.backToLogin')}
            </button>
          )}
        </div>
      )}
    </div>
  );
}
