import { useCallback, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { PATHS } from '../../app/paths';
import { useCurrentScreen } from '../../app/screen';
import { readSession, useLoggedIn, type Session } from '../../app/session';
import type { SignStep } from '../../app/sign-dialogs';
import { LinkButton } from '../../ui/link-button';
import { signInLanding } from '../products/product-access';
import { safeReturnPath } from './return-path';
import { SignPanel } from './sign-panel';
import './sign.css';

const STEP_PATHS: Record<SignStep, string> = {
  login: PATHS.login,
  signUp: PATHS.register,
  reset: PATHS.resetPassword,
};

/** The page's frame: its title as the one heading, and a card of the dialog's width. */
export function SignCard({ lead, children }: { lead?: string; children: ReactNode }) {
  const { t } = useTranslation('sign');
  const screen = useCurrentScreen() ?? 'login';
  return (
    <div className="page sign-page">
      <section className="sign-page__card" aria-labelledby="sign-page-title">
        <h1 id="sign-page-title">{t(screen, { ns: 'screens' })}</h1>
        {lead && <p className="sign-page__lead">{lead}</p>}
        {children}
      </section>
    </div>
  );
}

interface SignPageProps {
  step: SignStep;
  mode?: 'user' | 'super';
  /** Where a signed-in user goes when the address names no return path. */
  landing: (session: Session) => string;
  /** Query parameter holding the return path. */
  returnParam?: 'from' | 'targetUrl';
}

/**
 * A sign-in page: the dialog's forms on a page of their own. Moving between login, sign-up and
 * reset moves between their pages, keeping the query (`r`, `from`).
 */
function SignPage({ step, mode = 'user', landing, returnParam = 'from' }: SignPageProps) {
  const { t } = useTranslation('sign');
  const navigate = useNavigate();
  const { search } = useLocation();
  const [params] = useSearchParams();
  const loggedIn = useLoggedIn();
  const target = safeReturnPath(params.get(returnParam));

  const signedIn = () => void navigate(target ?? landing(readSession()), { replace: true });
  const toLogin = useCallback(() => void navigate({ pathname: PATHS.login, search }), [navigate, search]);

  if (loggedIn) {
    return (
      <SignCard lead={t('page.alreadySignedIn')}>
        <LinkButton kind="primary" size="large" to={target ?? landing(readSession())}>
          {t('page.continue')}
        </LinkButton>
      </SignCard>
    );
  }
  return (
    <SignCard lead={t(mode === 'super' ? 'page.superLead' : 'page.lead')}>
      <SignPanel
        step={step}
        mode={mode}
        onStepChange={(next) => void navigate({ pathname: STEP_PATHS[next], search })}
        onSignedIn={signedIn}
        onResetDone={toLogin}
      />
    </SignCard>
  );
}

/** `/portal/sign/login` and `/user/sign/login`. */
export function LoginPage() {
  return <SignPage step="login" landing={signInLanding} />;
}

/** `/portal/sign/register`. */
export function RegisterPage() {
  return <SignPage step="signUp" landing={signInLanding} />;
}

/** `/portal/sign/reset-password`: after 'reset password done', the sign-in page. */
export function ResetPasswordPage() {
  return <SignPage step="reset" landing={signInLanding} />;
}

/** `/pjPortal/super/sign/login`: the same sign-in with an empty customer code; then the super administrator's pages. */
export function SuperLoginPage() {
  return (
    <SignPage
      step="login"
      mode="super"
      landing={(session) => (session.isSuper ? PATHS.superHome : PATHS.learnerHome)}
    />
  );
}

/**
 * `/pjedu/login?targetUrl=…&clientId=…`: where the API client sends a user whose session ended.
 * After signing in the user returns to `targetUrl` when it is a page of this site.
 */
export function SingleSignOnPage() {
  return <SignPage step="login" landing={signInLanding} returnParam="targetUrl" />;
}
