import { ArrowLeftOutlined } from '@ant-design/icons';
import {
  ROUND_REFUSALS,
  type RoundRefusal,
  type TEvent,
  type TReviewSettingsView,
  type WorkState,
} from '@aiedu/contracts';
import { Alert, Skeleton, Tag } from 'antd';
import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { currentLanguage, HTML_LANG } from '../../app/i18n';
import { SignInRequired } from '../../app/sign-in-required';
import { LinkButton } from '../../ui/link-button';
import { STATUS_COLORS } from '../../ui/status-colors';
import { eventPaths, useEvent } from './event-api';
import { EventError } from './event-labels';
import { ApiError, serverMessage } from '../../app/api-client';
import { refusalCode } from './works-api';
import './event-review.css';

const WORK_COLORS: Record<WorkState, string> = {
  DRAFT: STATUS_COLORS.neutral,
  SUBMITTED: STATUS_COLORS.processing,
  PENDING_REVIEW: STATUS_COLORS.warning,
  IN_REVIEW: STATUS_COLORS.processing,
  AUDITED: STATUS_COLORS.success,
  FAIL: STATUS_COLORS.error,
  CLOSED: STATUS_COLORS.neutral,
};

/** A calendar day (`YYYY-MM-DD`) as people of the current language write it. */
export function formatDay(day: string): string {
  return new Intl.DateTimeFormat(HTML_LANG[currentLanguage()], { dateStyle: 'medium', timeZone: 'UTC' }).format(
    new Date(`${day}T00:00:00Z`),
  );
}

/** A work's state; for a work in review or reviewed past the first round, the round it reached beside it. */
export function WorkStateTag({ state, round = 1 }: { state: WorkState; round?: number }) {
  const { t } = useTranslation('eventReview');
  const reached = round > 1 && (state === 'IN_REVIEW' || state === 'AUDITED');
  return (
    <>
      <Tag color={WORK_COLORS[state]}>{t(`workStates.${state}`)}</Tag>
      {reached && <Tag>{t('rounds.round', { n: round })}</Tag>}
    </>
  );
}

/** The refusals this feature explains in its own words, before the server's message. */
const KNOWN_REFUSALS = ['4501', '4506', '4507', '4508', '4511', '4512', '4513'] as const;
type KnownRefusal = (typeof KNOWN_REFUSALS)[number];

/** The review rounds' refusals of 4503 (the event's state), told apart by the reason the server gives with them. */

function roundReason(error: unknown) {
  if (!(error instanceof ApiError) || typeof error.body !== 'object' || error.body.errorCode !== '4503') return null;
  const reason = (error.body.data as { reason?: unknown } | null)?.reason;
  return (Object.keys(ROUND_REFUSALS) as RoundRefusal[]).find((key) => ROUND_REFUSALS[key] === reason) ?? null;
}

/**
 * A refusal of the server next to the action that met it: what happened in our words for the codes this feature
 * knows (the deadline passed, assignment impossible, scores missing, a final score, a round closed or rounds left),
 * then the server's own message. `explain` words some codes for the action at hand (closing a round is not
 * publishing the results).
 */
export function Refusal({ error, explain }: { error: unknown; explain?: Partial<Record<string, string>> }) {
  const { t } = useTranslation('eventReview');
  if (!error) return <div role="alert" />;
  const code = refusalCode(error);
  const reason = roundReason(error);
  const known =
    (code && explain?.[code]) ||
    (reason && t(`roundRefusals.${reason}`)) ||
    (KNOWN_REFUSALS.find((c) => c === code) && t(`refusals.${code as KnownRefusal}`));
  return (
    <div role="alert">
      <Alert
        type="error"
        showIcon
        title={known || serverMessage(error) || t('common.failed')}
        description={known ? serverMessage(error) : undefined}
      />
    </div>
  );
}

/** The names of the review's rounds in order, '' for one the organisers did not name. */
export const roundNamesOf = (settings: TReviewSettingsView | null | undefined): string[] =>
  settings ? [settings.roundName, ...settings.rounds.map((round) => round.name)] : [];

/** A round as people read it: the organisers' name for it, or "Round n". */
export function useRoundName(names: readonly string[]) {
  const { t } = useTranslation('eventReview');
  return (round: number) => names[round - 1]?.trim() || t('rounds.round', { n: round });
}

/**
 * The server's clock: the browser's clock moved by the offset `serverTime` had from it when it arrived, ticking every
 * second. Give the component that uses it `key={serverTime}` so a newer answer sets the offset again.
 */
export function useServerNow(serverTime: string): number {
  const [offset] = useState(() => Date.parse(serverTime) - Date.now());
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(timer);
  }, []);
  return now + offset;
}

/** Time left until `deadline` by the server's clock, as days, hours, minutes and seconds; null once passed. */
export function Countdown({ deadline, serverTime }: { deadline: string; serverTime: string }) {
  const { t } = useTranslation('eventReview');
  const now = useServerNow(serverTime);
  const left = Math.floor((Date.parse(deadline) - now) / 1000);
  if (left <= 0) return <Alert type="warning" showIcon title={t('works.deadlinePassed')} />;
  const parts = {
    days: Math.floor(left / 86_400),
    hours: Math.floor((left % 86_400) / 3600),
    minutes: Math.floor((left % 3600) / 60),
    seconds: left % 60,
  };
  return (
    <p className="review-countdown" data-testid="countdown">
      {t('works.countdown', parts)}
    </p>
  );
}

/**
 * A signed-in screen of one event: the event loads (a skeleton meanwhile), and one who may not be here (`allowed`)
 * reads why; the header links back to the event.
 */
export function EventScreen({
  eventId,
  title,
  lead,
  allowed,
  refusal,
  children,
}: {
  eventId: string | undefined;
  title: string;
  lead?: string;
  allowed: (event: TEvent) => boolean;
  refusal: string;
  children: (event: TEvent) => ReactNode;
}) {
  const { t } = useTranslation('eventReview');
  const event = useEvent(eventId);
  let body: ReactNode;
  if (event.isLoading) body = <Skeleton active />;
  else if (!event.data) body = <EventError error={event.error} />;
  else if (!allowed(event.data)) body = <EventError error={null} reason={refusal} title={t('common.cannotOpen')} />;
  else
    body = (
      <>
        <header className="review-head">
          <LinkButton kind="ghost" icon={<ArrowLeftOutlined />} to={eventPaths.detail(event.data.id)}>
            {event.data.name}
          </LinkButton>
          <h1>{title}</h1>
          {lead && <p className="review-muted">{lead}</p>}
        </header>
        {children(event.data)}
      </>
    );
  return (
    <SignInRequired title={title}>
      <div className="page review-page">{body}</div>
    </SignInRequired>
  );
}
