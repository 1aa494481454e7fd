import { LockOutlined } from '@ant-design/icons';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../ui/button';
import { StatusCard } from '../ui/status-card';
import { useLoggedIn } from './session';
import { openLoginDialog } from './sign-dialogs';

/** A page for signed-in people: a visitor is asked to sign in (spec 6) and comes back here after. */
export function SignInRequired({ title, children }: { title: string; children: ReactNode }) {
  const { t } = useTranslation();
  const loggedIn = useLoggedIn();
  if (loggedIn) return children;
  return (
    <div className="page">
      <StatusCard
        icon={<LockOutlined />}
        title={title}
        lead={t('signInRequired.lead')}
        action={
          <Button kind="primary" size="large" onClick={() => openLoginDialog()}>
            {t('header.login')}
          </Button>
        }
      />
    </div>
  );
}
