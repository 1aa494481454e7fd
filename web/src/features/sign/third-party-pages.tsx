import { CheckCircleOutlined, CloseCircleOutlined, LoadingOutlined } from '@ant-design/icons';
import { TIMINGS } from '@aiedu/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { browser } from '../../app/browser';
import { PATHS } from '../../app/paths';
import { LinkButton } from '../../ui/link-button';
import { StatusCard } from '../../ui/status-card';
import { completeLogin } from './complete-login';
import { safeReturnPath } from './return-path';
import { finishThirdPartyLogin, signInErrorMessage, startThirdPartyLogin } from './sign-api';
import './sign.css';

type Phase = { kind: 'working'; text: string } | { kind: 'failed'; message: string };

function ThirdPartyStatus({ phase }: { phase: Phase }) {
  const { t } = useTranslation('sign');
  if (phase.kind === 'working') {
    return (
      <div className="page" aria-busy="true">
        <StatusCard icon={<LoadingOutlined />} title={phase.text} />
      </div>
    );
  }
  return (
    <div className="page">
      <StatusCard
        icon={<CloseCircleOutlined />}
        title={t('thirdParty.failed')}
        lead={phase.message}
        action={
          <LinkButton kind="primary" size="large" to={PATHS.login}>
            {t('thirdParty.retry')}
          </LinkButton>
        }
      />
    </div>
  );
}

/**
 * Finishes a sign-in the provider sent back: the query goes to the server as it came, the session
 * is saved, and the browser goes to /iaif (spec section 2). Runs once even under StrictMode: a
 * provider's code is single use.
 */
function useFinishThirdParty(search: string, enabled: boolean): Phase | null {
  const { t } = useTranslation('sign');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const started = useRef(false);
  const [failure, setFailure] = useState<string | null>(null);

  useEffect(() => {
    if (!enabled || started.current) return;
    started.current = true;
    finishThirdPartyLogin(search)
      .then(async (login) => {
        await completeLogin(login, login.custcode, queryClient);
        const target = safeReturnPath(login.targetUrl);
        void navigate(
          { pathname: PATHS.thirdPartyLanding, search: target ? `?targetUrl=${encodeURIComponent(target)}` : '' },
          { replace: true },
        );
      })
      .catch((error: unknown) => setFailure(signInErrorMessage(error) ?? t('api.unknownError', { ns: 'common' })));
  }, [enabled, navigate, queryClient, search, t]);

  if (!enabled) return null;
  return failure === null ? { kind: 'working', text: t('thirdParty.finishing') } : { kind: 'failed', message: failure };
}

/**
 * `/portal/sign/thirdparty?type=…`: with `step=login` the provider's answer is in the query and the
 * sign-in finishes; without it the browser is sent to the customer's provider (`r` names the
 * customer, `targetUrl` or `from` where to come back to).
 */
export function ThirdPartyLoginPage() {
  const { t } = useTranslation('sign');
  const [params] = useSearchParams();
  const type = params.get('type');
  const finishing = params.get('step') === 'login' && Boolean(type);
  const finished = useFinishThirdParty(window.location.search, finishing);
  const started = useRef(false);
  const [failure, setFailure] = useState<string | null>(type ? null : t('thirdParty.missingType'));

  useEffect(() => {
    if (finishing || !type || started.current) return;
    started.current = true;
    const target = safeReturnPath(params.get('targetUrl') ?? params.get('from')) ?? '';
    startThirdPartyLogin(type, params.get('r') ?? '', target)
      .then(({ url }) => browser.assign(url))
      .catch((error: unknown) => setFailure(signInErrorMessage(error) ?? t('api.unknownError', { ns: 'common' })));
  }, [finishing, params, t, type]);

  if (finished) return <ThirdPartyStatus phase={finished} />;
  return (
    <ThirdPartyStatus
      phase={
        failure === null ? { kind: 'working', text: t('thirdParty.redirecting') } : { kind: 'failed', message: failure }
      }
    />
  );
}

/** `/user/sign/login/:type?code=…&state=…`: the address registered at the identity provider. */
export function ThirdPartyCallbackPage() {
  const { type } = useParams();
  const phase = useFinishThirdParty(window.location.search, Boolean(type));
  return <ThirdPartyStatus phase={phase ?? { kind: 'failed', message: '' }} />;
}

/** `/iaif`: where a successful third-party sign-in lands; it goes on to `targetUrl` or the learner's home. */
export function ThirdPartyLandingPage() {
  const { t } = useTranslation('sign');
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const target = safeReturnPath(params.get('targetUrl')) ?? PATHS.learnerHome;
  useEffect(() => {
    const timer = window.setTimeout(() => void navigate(target, { replace: true }), TIMINGS.profileRedirectMs);
    return () => window.clearTimeout(timer);
  }, [navigate, target]);
  return (
    <div className="page">
      <StatusCard
        icon={<CheckCircleOutlined />}
        title={t('thirdParty.done')}
        lead={t('thirdParty.doneBody')}
        action={
          <LinkButton kind="primary" size="large" to={target}>
            {t('thirdParty.continue')}
          </LinkButton>
        }
      />
    </div>
  );
}
