import { EVENT_RUN_STATES, type EventRunState, type TEvent, type TRun } from '@aiedu/contracts';
import { Empty, Radio, Select, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../ui/dates';
import { Table } from '../../ui/table';
import { useAllRuns } from './review-api';
import { RUN_COLORS } from './work-runs';

const PAGE_SIZE = 20;

/** How long a finished run took in its sandbox (its wait in the queue left out). */
function tookOf(run: TRun): number | null {
  return run.startedAt && run.finishedAt ? Math.max(0, Date.parse(run.finishedAt) - Date.parse(run.startedAt)) : null;
}

/**
 * The organisers' view of an auto-scored track's runs: the queue at a glance (how many runs wait, run, scored or
 * failed), and every team's runs newest first with the score or the reason it failed, and whether the platform was
 * at fault (such runs do not count against the team's day). It refreshes while runs wait or run.
 */
export function ReviewRunsTab({ event }: { event: TEvent }) {
  const { t } = useTranslation('eventReview');
  const tracks = event.tracks.filter((tr) => tr.kind === 'auto');
  const [trackId, setTrackId] = useState(tracks[0]?.id ?? '');
  const [state, setState] = useState<EventRunState | 'all'>('all');
  const [page, setPage] = useState(1);
  const runs = useAllRuns({
    eventId: event.id,
    trackId,
    state: state === 'all' ? undefined : state,
    page,
    size: PAGE_SIZE,
  });
  const counts = runs.data?.counts;
  const all = counts ? Object.values(counts).reduce((a, b) => a + b, 0) : undefined;
  const track = tracks.find((tr) => tr.id === trackId);
  return (
    <section className="review-section" aria-labelledby="all-runs-title">
      <h2 id="all-runs-title">{t('allRuns.title', { track: track?.name ?? '' })}</h2>
      <p className="review-muted">{t('allRuns.lead')}</p>
      <div className="review-toolbar">
        {tracks.length > 1 && (
          <Select
            className="review-select"
            aria-label={t('allRuns.track')}
            value={trackId}
            onChange={(value) => {
              setTrackId(value);
              setPage(1);
            }}
            options={tracks.map((tr) => ({ value: tr.id, label: tr.name }))}
          />
        )}
        <Radio.Group
          aria-label={t('allRuns.stateFilter')}
          optionType="button"
          value={state}
          onChange={(e) => {
            setState(e.target.value as EventRunState | 'all');
            setPage(1);
          }}
          options={[
            { value: 'all', label: t('allRuns.all', { n: all ?? 0 }) },
            ...EVENT_RUN_STATES.map((s) => ({
              value: s,
              label: t('allRuns.inState', { state: t(`runStates.${s}`), n: counts?.[s] ?? 0 }),
            })),
          ]}
        />
      </div>
      <Table<TRun>
        rowKey="id"
        dataSource={runs.data?.list ?? []}
        loading={runs.isFetching && !runs.data}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: runs.isPending ? <span /> : <Empty description={t('allRuns.empty')} /> }}
        pagination={{
          current: page,
          pageSize: PAGE_SIZE,
          total: runs.data?.total ?? 0,
          hideOnSinglePage: true,
          onChange: setPage,
        }}
        columns={[
          { title: t('allRuns.team'), dataIndex: 'teamName' },
          { title: t('runs.queuedAt'), key: 'at', render: (_, r) => formatDateTime(r.queuedAt) },
          {
            title: t('runs.state'),
            key: 'state',
            render: (_, r) => (
              <>
                <Tag color={RUN_COLORS[r.state]}>{t(`runStates.${r.state}`)}</Tag>
                {r.error && <div className="review-muted">{r.error}</div>}
                {r.platformFault && <div className="review-muted">{t('allRuns.platformFault')}</div>}
              </>
            ),
          },
          { title: t('runs.score'), key: 'score', render: (_, r) => r.score ?? '—' },
          {
            title: t('allRuns.took'),
            key: 'took',
            render: (_, r) => {
              const took = tookOf(r);
              if (took === null) return '—';
              return took < 60_000
                ? t('allRuns.seconds', { count: Math.round(took / 1000) })
                : t('allRuns.minutes', { count: Math.round(took / 60_000) });
            },
          },
        ]}
      />
    </section>
  );
}
