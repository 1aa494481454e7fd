import { PlusOutlined, TrophyOutlined } from '@ant-design/icons';
import { EDU_STAGES, EVENT_STATES, type EventState, type TEvent } from '@aiedu/contracts';
import { Card, Empty, Pagination, Select, Skeleton, Space, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { readSession } from '../../app/session';
import { useAdminAccess } from '../admin/admin-access';
import { LinkButton } from '../../ui/link-button';
import { SearchInput, usePageButtons } from '../../ui/named-icons';
import { eventPaths } from './event-api';
import { EventError, EventStateTag, phaseDates } from './event-labels';
import { useEventList, type EventListQuery } from './event-list-api';
import './event.css';

const PAGE_SIZE = 12;

/** `custcode`: the customer the visitor's link named, kept on the way to the detail. */
function EventCard({ event, custcode }: { event: TEvent; custcode: string | undefined }) {
  const { t } = useTranslation('event');
  return (
    <Card
      className="event-card"
      cover={
        event.coverUrl ? (
          <img src={event.coverUrl} alt="" className="event-card__cover" />
        ) : (
          <div className="event-card__cover event-card__cover--empty" aria-hidden="true">
            <TrophyOutlined />
          </div>
        )
      }
    >
      <h2 className="event-card__title">
        <Link
          to={
            custcode
              ? `${eventPaths.detail(event.id)}?custcode=${encodeURIComponent(custcode)}`
              : eventPaths.detail(event.id)
          }
        >
          {event.name}
        </Link>
      </h2>
      <Space wrap size={4}>
        <EventStateTag state={event.state} />
        {event.tracks.map((track) => (
          <Tag key={track.id} color="blue">
            {track.name}
          </Tag>
        ))}
      </Space>
      <p className="event-card__meta">
        {t(`phases.${event.phase}`)} ·{' '}
        {phaseDates(event.phases, event.phase === 'before' ? 'registration' : event.phase)}
      </p>
      <p className="event-card__meta">
        {event.organiserName} · {t('list.teams', { count: event.teamCount })}
      </p>
    </Card>
  );
}

/** State, track, stage and keyword of the list; every change goes back to the first page. */
function useListQuery() {
  // A visitor sees a customer's events by naming it: `?custcode=` of an institution's link, or the remembered code.
  const [search] = useSearchParams();
  const custcode = search.get('custcode') || readSession().custcode || undefined;
  const [query, setQuery] = useState<EventListQuery>({ page: 1, size: PAGE_SIZE, custcode });
  const change = (part: Partial<EventListQuery>) => setQuery((q) => ({ ...q, page: 1, ...part }));
  return { query, change, setPage: (page: number) => setQuery((q) => ({ ...q, page })) };
}

function EventList() {
  const { t } = useTranslation('event');
  const { query, change, setPage } = useListQuery();
  const list = useEventList(query);
  const itemRender = usePageButtons();
  // The tracks met so far, offered in the track filter (tracks are each event's own, with no catalogue).
  const [seen, setSeen] = useState<{ data: unknown; tracks: string[] }>({ data: undefined, tracks: [] });
  if (list.data && list.data !== seen.data) {
    const all = new Set([...seen.tracks, ...list.data.list.flatMap((e) => e.tracks.map((track) => track.name))]);
    setSeen({ data: list.data, tracks: [...all].sort((a, b) => a.localeCompare(b)) });
  }
  const filtered = Boolean(query.keyword || query.state || query.track || query.stage);
  return (
    <>
      <div className="event-filters" role="search">
        <SearchInput
          aria-label={t('list.search')}
          placeholder={t('list.search')}
          allowClear
          onSearch={(keyword) => change({ keyword: keyword.trim() || undefined })}
        />
        <Select
          aria-label={t('list.stateFilter')}
          value={query.state ?? ''}
          onChange={(state: EventState | '') => change({ state: state || undefined })}
          options={[
            { value: '', label: t('list.anyState') },
            ...EVENT_STATES.map((s) => ({ value: s, label: t(`states.${s}`) })),
          ]}
        />
        <Select
          aria-label={t('list.trackFilter')}
          showSearch
          value={query.track ?? ''}
          onChange={(track: string) => change({ track: track || undefined })}
          options={[
            { value: '', label: t('list.anyTrack') },
            ...seen.tracks.map((track) => ({ value: track, label: track })),
          ]}
        />
        <Select
          aria-label={t('list.stageFilter')}
          value={query.stage ?? ''}
          onChange={(stage: string) => change({ stage: stage || undefined })}
          options={[
            { value: '', label: t('list.anyStage') },
            ...EDU_STAGES.map((s) => ({ value: s, label: t(`stages.${s}`) })),
          ]}
        />
      </div>
      {list.isLoading ? (
        <Skeleton active />
      ) : list.isError ? (
        <EventError error={list.error} />
      ) : list.data?.list.length ? (
        <>
          <p className="event-muted" role="status">
            {t('list.total', { count: list.data.total })}
          </p>
          <ul className="event-grid">
            {list.data.list.map((event) => (
              <li key={event.id}>
                <EventCard event={event} custcode={query.custcode} />
              </li>
            ))}
          </ul>
          <Pagination
            current={query.page}
            pageSize={PAGE_SIZE}
            total={list.data.total}
            onChange={setPage}
            itemRender={itemRender}
            hideOnSinglePage
            showSizeChanger={false}
          />
        </>
      ) : (
        <Empty description={t(filtered ? 'list.noMatch' : 'list.empty')} />
      )}
    </>
  );
}

/** Every event the caller may see, public: searched and filtered on the server; organisers start a new one here. */
export function EventsPage() {
  const { t } = useTranslation('event');
  const organiser = useAdminAccess().can('event.manage');
  return (
    <div className="page event-page">
      <header className="event-head">
        <div>
          <h1>{t('list.title')}</h1>
          <p className="event-muted">{t('list.lead')}</p>
        </div>
        {organiser && (
          <LinkButton kind="primary" size="large" icon={<PlusOutlined />} to={eventPaths.create}>
            {t('list.create')}
          </LinkButton>
        )}
      </header>
      <EventList />
    </div>
  );
}
