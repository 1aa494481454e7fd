import {
  AuditOutlined,
  EditOutlined,
  FileTextOutlined,
  FormOutlined,
  SettingOutlined,
  StarOutlined,
  UserAddOutlined,
} from '@ant-design/icons';
import type { TEvent } from '@aiedu/contracts';
import { Alert, Skeleton, Space, Tabs, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { useLoggedIn } from '../../app/session';
import { formatDateTime } from '../../ui/dates';
import { LinkButton } from '../../ui/link-button';
import { useTabsMore } from '../../ui/named-icons';
import { eventPaths, useEvent } from './event-api';
import {
  EventError,
  EventMarkdown,
  EventStateTag,
  PHASE_DATES,
  phaseAt,
  phaseDates,
  registrationOpenAt,
} from './event-labels';
import { EventLadder, EventResults } from './event-results';
import '../course/course.css';
import './event.css';

/** The phases in order, the current one (by the server's clock) marked as the current step. */
export function PhaseTimeline({ event }: { event: TEvent }) {
  const { t } = useTranslation('event');
  const current = phaseAt(event.phases, event.serverTime);
  return (
    <>
      <ol className="event-phases" aria-label={t('detail.phases')}>
        {PHASE_DATES.map(({ phase }) => (
          <li key={phase} aria-current={phase === current ? 'step' : undefined}>
            <span className="event-phases__name">
              {t(`phases.${phase}`)} {phase === current && <Tag color="blue">{t('detail.now')}</Tag>}
            </span>
            <span className="event-muted">{phaseDates(event.phases, phase)}</span>
          </li>
        ))}
      </ol>
      <p className="event-muted">
        {current === 'before' ? t('detail.notOpenYet') : null}{' '}
        {t('detail.serverTime', { date: formatDateTime(event.serverTime) })}
      </p>
    </>
  );
}

/** What the caller may do here: a team registers and declares, a judge scores, an organiser audits and manages. */
function ViewerActions({ event }: { event: TEvent }) {
  const { t } = useTranslation('event');
  const loggedIn = useLoggedIn();
  const { viewer } = event;
  const registering = registrationOpenAt(event.phases, event.serverTime);
  const canRegister = registering && !viewer.registrationId && !viewer.organiser && (!loggedIn || viewer.eligible);
  return (
    <div className="event-actions">
      {canRegister && (
        <LinkButton kind="primary" size="large" icon={<UserAddOutlined />} to={eventPaths.declaration(event.id)}>
          {t('detail.register')}
        </LinkButton>
      )}
      {viewer.registrationId && (
        <>
          <LinkButton kind="primary" icon={<FormOutlined />} to={eventPaths.declaration(event.id)}>
            {t('detail.declaration')}
          </LinkButton>
          <LinkButton icon={<FileTextOutlined />} to={eventPaths.works(event.id)}>
            {t('detail.myWorks')}
          </LinkButton>
        </>
      )}
      {viewer.judge && (
        <LinkButton
          kind={viewer.registrationId || viewer.organiser ? 'secondary' : 'primary'}
          icon={<StarOutlined />}
          to={eventPaths.judging(event.id)}
        >
          {t('detail.judging')}
        </LinkButton>
      )}
      {viewer.organiser && (
        <>
          <LinkButton kind="primary" icon={<AuditOutlined />} to={eventPaths.qualification(event.id)}>
            {t('detail.qualification')}
          </LinkButton>
          <LinkButton icon={<SettingOutlined />} to={eventPaths.reviews(event.id)}>
            {t('detail.reviews')}
          </LinkButton>
          <LinkButton icon={<EditOutlined />} to={eventPaths.edit(event.id)}>
            {t('detail.edit')}
          </LinkButton>
        </>
      )}
      {loggedIn && registering && !viewer.eligible && !viewer.registrationId && !viewer.organiser && (
        <Alert type="info" showIcon title={t('detail.notEligible')} />
      )}
    </div>
  );
}

/** What the event is: its description, tracks, who may take part, team sizes and awards. */
function About({ event }: { event: TEvent }) {
  const { t } = useTranslation('event');
  const { stages, grades } = event.eligibility;
  return (
    <>
      {event.description && (
        <section className="event-section" aria-labelledby="event-description">
          <h2 id="event-description">{t('detail.description')}</h2>
          <EventMarkdown source={event.description} />
        </section>
      )}
      <section className="event-section" aria-labelledby="event-timeline">
        <h2 id="event-timeline">{t('detail.phases')}</h2>
        <PhaseTimeline event={event} />
      </section>
      <section className="event-section" aria-labelledby="event-rules">
        <h2 id="event-rules">{t('detail.rules')}</h2>
        <dl className="event-definition">
          <dt>{t('detail.tracks')}</dt>
          <dd>
            <Space wrap size={4}>
              {event.tracks.map((track) => (
                <Tag key={track.id} color="blue">
                  {track.name} · {t(`trackKinds.${track.kind}`)}
                </Tag>
              ))}
            </Space>
          </dd>
          <dt>{t('detail.eligibility')}</dt>
          <dd>
            {stages.length ? stages.map((s) => t(`stages.${s}`)).join(', ') : t('detail.anyStage')}
            {' · '}
            {grades.length ? grades.map((g) => t('form.grade', { grade: g })).join(', ') : t('detail.anyGrade')}
          </dd>
          <dt>{t('detail.team')}</dt>
          <dd>
            {t('detail.applicants', { min: event.teamMin, max: event.teamMax })} ·{' '}
            {t('detail.mentors', { min: event.mentorMin, max: event.mentorMax })}
          </dd>
          {event.awards.length > 0 && (
            <>
              <dt>{t('detail.awards')}</dt>
              <dd>{event.awards.map((a) => t('detail.award', { name: a.name, count: a.count })).join(' · ')}</dd>
            </>
          )}
          <dt>{t('detail.tieRule')}</dt>
          <dd>{t(`tieRules.${event.tieRule}`)}</dd>
        </dl>
      </section>
    </>
  );
}

function Detail({ event }: { event: TEvent }) {
  const { t } = useTranslation('event');
  const more = useTabsMore();
  const ladders = event.tracks.filter((track) => track.kind === 'auto');
  const tabs = [
    { key: 'about', label: t('detail.about'), children: <About event={event} /> },
    ...(event.resultsPublished
      ? [{ key: 'results', label: t('detail.results'), children: <EventResults event={event} /> }]
      : []),
    ...ladders.map((track) => ({
      key: `ladder-${track.id}`,
      label: t('detail.ladder', { track: track.name }),
      children: <EventLadder eventId={event.id} track={track} />,
    })),
  ];
  return (
    <div className="page event-page">
      {event.coverUrl && <img src={event.coverUrl} alt="" className="event-detail__cover" />}
      <header className="event-head">
        <div>
          <h1>{event.name}</h1>
          <Space wrap size={4}>
            <EventStateTag state={event.state} />
            <Tag>{t(`phases.${phaseAt(event.phases, event.serverTime)}`)}</Tag>
          </Space>
          <p className="event-muted">
            {event.organiserName} · {t('list.teams', { count: event.teamCount })}
          </p>
        </div>
        <ViewerActions event={event} />
      </header>
      <Tabs defaultActiveKey={event.resultsPublished ? 'results' : 'about'} more={more} items={tabs} />
    </div>
  );
}

/** An event's page, public: what it is, its phases by the server's clock, results and ladders, and the caller's actions. */
export function EventDetailPage() {
  const { eventId } = useParams();
  const detail = useEvent(eventId);
  if (detail.isLoading)
    return (
      <div className="page">
        <Skeleton active />
      </div>
    );
  return detail.data ? (
    <Detail event={detail.data} />
  ) : (
    <div className="page">
      <EventError error={detail.error} />
    </div>
  );
}
