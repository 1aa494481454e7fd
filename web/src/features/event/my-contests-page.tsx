import { TrophyOutlined } from '@ant-design/icons';
import type { TMyContest } from '@aiedu/contracts';
import { Empty, Skeleton, Space, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { SignInRequired } from '../../app/sign-in-required';
import { LinkButton } from '../../ui/link-button';
import { Table } from '../../ui/table';
import { eventPaths } from './event-api';
import { EventError, EventStateTag, RegistrationStateTag, phaseDates } from './event-labels';
import { useMyContests } from './event-list-api';
import './event.css';

/** The ways on from one contest, by the parts the caller plays in it. */
function ContestLinks({ contest }: { contest: TMyContest }) {
  const { t } = useTranslation('event');
  const id = contest.event.id;
  const name = contest.event.name;
  return (
    <Space wrap size={4}>
      {contest.roles.includes('team') && (
        <>
          <LinkButton size="small" to={eventPaths.declaration(id)} aria-label={t('mine.declarationOf', { name })}>
            {t('detail.declaration')}
          </LinkButton>
          <LinkButton size="small" to={eventPaths.works(id)} aria-label={t('mine.worksOf', { name })}>
            {t('detail.myWorks')}
          </LinkButton>
        </>
      )}
      {contest.roles.includes('judge') && (
        <LinkButton size="small" to={eventPaths.judging(id)} aria-label={t('mine.judgingOf', { name })}>
          {t('detail.judging')}
        </LinkButton>
      )}
      {contest.roles.includes('organiser') && (
        <LinkButton size="small" to={eventPaths.qualification(id)} aria-label={t('mine.qualificationOf', { name })}>
          {t('detail.qualification')}
        </LinkButton>
      )}
    </Space>
  );
}

function Contests() {
  const { t } = useTranslation('event');
  const mine = useMyContests();
  if (mine.isLoading) return <Skeleton active />;
  if (mine.isError) return <EventError error={mine.error} />;
  const contests = mine.data ?? [];
  if (!contests.length)
    return (
      <Empty image={<TrophyOutlined className="event-muted" />} description={t('mine.empty')}>
        <LinkButton kind="primary" to={eventPaths.list}>
          {t('mine.browse')}
        </LinkButton>
      </Empty>
    );
  return (
    <Table<TMyContest>
      rowKey={(c) => c.event.id}
      dataSource={contests}
      pagination={{ pageSize: 20, hideOnSinglePage: true }}
      scroll={{ x: 'max-content' }}
      columns={[
        {
          title: t('mine.event'),
          key: 'event',
          render: (_, c) => (
            <>
              <Link to={eventPaths.detail(c.event.id)}>{c.event.name}</Link>
              <div className="event-muted">
                {t(`phases.${c.event.phase}`)} ·{' '}
                {phaseDates(c.event.phases, c.event.phase === 'before' ? 'registration' : c.event.phase)}
              </div>
            </>
          ),
        },
        { title: t('mine.state'), key: 'state', render: (_, c) => <EventStateTag state={c.event.state} /> },
        {
          title: t('mine.roles'),
          key: 'roles',
          render: (_, c) => (
            <Space wrap size={4}>
              {c.roles.map((role) => (
                <Tag key={role}>{t(`roles.${role}`)}</Tag>
              ))}
            </Space>
          ),
        },
        {
          title: t('mine.registration'),
          key: 'registration',
          render: (_, c) => (c.registrationState ? <RegistrationStateTag state={c.registrationState} /> : '—'),
        },
        { title: t('results.rank'), key: 'rank', render: (_, c) => c.rank ?? '—' },
        { title: t('results.award'), key: 'award', render: (_, c) => c.award ?? '—' },
        { title: t('qualification.actions'), key: 'links', render: (_, c) => <ContestLinks contest={c} /> },
      ]}
    />
  );
}

/** The caller's contests: as a team member, a judge or an organiser, with where they stand and the way on. */
export function MyContestsPage() {
  const { t } = useTranslation('event');
  return (
    <SignInRequired title={t('mine.title')}>
      <div className="page event-page">
        <header className="event-head">
          <div>
            <h1>{t('mine.title')}</h1>
            <p className="event-muted">{t('mine.lead')}</p>
          </div>
        </header>
        <Contests />
      </div>
    </SignInRequired>
  );
}
