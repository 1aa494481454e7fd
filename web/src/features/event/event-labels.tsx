import { StopOutlined } from '@ant-design/icons';
import {
  eventPhaseAt,
  openAt,
  type EventPhase,
  type EventState,
  type RegistrationState,
  type TEventPhases,
} from '@aiedu/contracts';
import { Tag } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { serverMessage } from '../../app/api-client';
import { formatDateTime } from '../../ui/dates';
import { LinkButton } from '../../ui/link-button';
import { StatusCard } from '../../ui/status-card';
import { STATUS_COLORS } from '../../ui/status-colors';
import { renderMarkdown } from '../course/markdown-view';
import { eventPaths } from './event-api';

const STATE_COLORS: Record<EventState, string> = {
  notStarted: STATUS_COLORS.neutral,
  inProgress: STATUS_COLORS.success,
  ended: STATUS_COLORS.warning,
};
export function EventStateTag({ state }: { state: EventState }) {
  const { t } = useTranslation('event');
  return <Tag color={STATE_COLORS[state]}>{t(`states.${state}`)}</Tag>;
}

const REGISTRATION_COLORS: Record<RegistrationState, string> = {
  inProgress: STATUS_COLORS.processing,
  pendingReview: STATUS_COLORS.warning,
  passed: STATUS_COLORS.success,
  ended: STATUS_COLORS.neutral,
};
export function RegistrationStateTag({ state }: { state: RegistrationState }) {
  const { t } = useTranslation('event');
  return <Tag color={REGISTRATION_COLORS[state]}>{t(`registrationStates.${state}`)}</Tag>;
}

/** The four dated phases, each with its start and (but the results) its end. */
export const PHASE_DATES = [
  { phase: 'registration', start: 'registrationStart', end: 'registrationEnd' },
  { phase: 'submission', start: 'submissionStart', end: 'submissionEnd' },
  { phase: 'review', start: 'reviewStart', end: 'reviewEnd' },
  { phase: 'results', start: 'resultsAt', end: null },
] as const satisfies readonly { phase: EventPhase; start: keyof TEventPhases; end: keyof TEventPhases | null }[];

/** The phase at the server's time (the contract's rule, applied to the answer's `serverTime`). */
export const phaseAt = (phases: TEventPhases, serverTime: string): EventPhase => eventPhaseAt(phases, serverTime);

/** Whether registration is open by the server's clock: submission may open while it still is. */
export const registrationOpenAt = (phases: TEventPhases, serverTime: string): boolean =>
  openAt(phases.registrationStart, phases.registrationEnd, serverTime);

/** A phase's dates as one line: "from – to", or the single moment of the results. */
export function phaseDates(phases: TEventPhases, phase: EventPhase): string {
  const dates = PHASE_DATES.find((p) => p.phase === phase);
  if (!dates) return '';
  const start = formatDateTime(phases[dates.start]);
  return dates.end ? `${start} – ${formatDateTime(phases[dates.end])}` : start;
}

/**
 * An event, or one of its screens, that cannot be opened: missing, or not the caller's to see; the server's reason
 * (or the screen's own) and the way back to the events.
 */
export function EventError({ error, reason, title }: { error: unknown; reason?: string; title?: string }) {
  const { t } = useTranslation('event');
  return (
    <StatusCard
      icon={<StopOutlined />}
      title={title ?? t('common.cannotOpen')}
      lead={reason || serverMessage(error) || t('common.missing')}
      action={
        <LinkButton kind="primary" size="large" to={eventPaths.list}>
          {t('common.toList')}
        </LinkButton>
      }
    />
  );
}

/** The organiser's Markdown under a section's h2, sanitised: its highest heading becomes an h3, so no level is skipped. */
export function EventMarkdown({ source }: { source: string }) {
  const html = useMemo(() => {
    const rendered = renderMarkdown(source);
    const levels = [...rendered.matchAll(/<h([3-6])[\s>]/g)].map((m) => Number(m[1]));
    const shift = levels.length ? Math.min(...levels) - 3 : 0;
    return shift
      ? rendered.replace(/<(\/?)h([3-6])([\s>])/g, (_m, close: string, level: string, rest: string) => {
          return `<${close}h${Number(level) - shift}${rest}`;
        })
      : rendered;
  }, [source]);
  return <div className="course-markdown" dangerouslySetInnerHTML={{ __html: html }} />;
}
