import { LockOutlined } from '@ant-design/icons';
import { useEffect, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../ui/button';
import { StatusCard } from '../ui/status-card';
import { useLoggedIn } from './session';
import { openLoginDialog } from './sign-dialogs';

export interface SignInCardProps {
  title: string;
  /** What signing in gives here; by default "Please log in to see this page." */
  lead?: string;
  /** The button's text; by default the header's "Log in". */
  action?: string;
  icon?: ReactNode;
}

/**
 * What a visitor sees on a page for signed-in people: spec 6 says they are prompted to log in, so the login dialog
 * opens as soon as the page shows, once; closing it leaves this card, whose button opens it again. Signing in in the
 * dialog keeps the visitor here, and the page renders for the user.
 */
export function SignInCard({ title, lead, action, icon = <LockOutlined /> }: SignInCardProps) {
  const { t } = useTranslation();
  useEffect(() => openLoginDialog(), []);
  return (
    <div className="page">
      <StatusCard
        icon={icon}
        title={title}
        lead={lead ?? t('signInRequired.lead')}
        action={
          <Button kind="primary" size="large" onClick={() => openLoginDialog()}>
            {action ?? t('header.login')}
          </Button>
        }
      />
    </div>
  );
}

/** A page for signed-in people: a visitor is asked to sign in (spec 6) and comes back here after. */
export function SignInRequired({ title, children }: { title: string; children: ReactNode }) {
  const loggedIn = useLoggedIn();
  return loggedIn ? children : <SignInCard title={title} />;
}
