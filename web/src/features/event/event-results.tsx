import type { TEvent, TEventTrack, TLadderRow, TResultRow } from '@aiedu/contracts';
import { Alert, Empty, Skeleton } from 'antd';
import { useTranslation } from 'react-i18next';
import { currentLanguage, HTML_LANG } from '../../app/i18n';
import { formatDateTime } from '../../ui/dates';
import { Table } from '../../ui/table';
import { serverMessage } from '../../app/api-client';
import { useEventResults, useLadder } from './event-list-api';

const score = (value: number) => value.toLocaleString(HTML_LANG[currentLanguage()], { maximumFractionDigits: 2 });

/**
 * The published ranking: rank, team, school, work, track, the review round reached (when there were several), score
 * and award, with the tie rule said above it.
 */
export function EventResults({ event }: { event: TEvent }) {
  const { t } = useTranslation('event');
  const results = useEventResults(event.id, event.resultsPublished);
  const trackName = (id: string) => event.tracks.find((track) => track.id === id)?.name ?? id;
  if (results.isLoading) return <Skeleton active />;
  if (results.isError)
    return <Alert type="error" showIcon title={serverMessage(results.error) ?? t('common.failed')} />;
  const data = results.data;
  if (!data) return null;
  const roundName = (round: number) => data.rounds[round - 1]?.trim() || t('results.roundN', { n: round });
  return (
    <>
      <p className="event-muted">
        {t('results.published', { date: formatDateTime(data.publishedAt) })} · {t(`tieRules.${data.tieRule}`)}
      </p>
      <Table<TResultRow>
        rowKey="workId"
        dataSource={data.rows}
        pagination={false}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: <Empty description={t('results.empty')} /> }}
        columns={[
          { title: t('results.rank'), dataIndex: 'rank' },
          { title: t('results.team'), dataIndex: 'teamName' },
          { title: t('results.school'), dataIndex: 'schoolName' },
          { title: t('results.work'), dataIndex: 'workName' },
          ...(event.tracks.length > 1
            ? [
                {
                  title: t('results.track'),
                  key: 'track',
                  render: (_: unknown, row: TResultRow) => trackName(row.trackId),
                },
              ]
            : []),
          ...(data.rounds.length > 1
            ? [
                {
                  title: t('results.round'),
                  key: 'round',
                  render: (_: unknown, row: TResultRow) => roundName(row.round),
                },
              ]
            : []),
          { title: t('results.score'), key: 'score', render: (_: unknown, row: TResultRow) => score(row.score) },
          { title: t('results.award'), key: 'award', render: (_: unknown, row: TResultRow) => row.award ?? '—' },
        ]}
      />
    </>
  );
}

/** An auto-scored track's ladder: the top teams by personal best, public. */
export function EventLadder({ eventId, track }: { eventId: string; track: TEventTrack }) {
  const { t } = useTranslation('event');
  const ladder = useLadder(eventId, track.id);
  if (ladder.isLoading) return <Skeleton active />;
  if (ladder.isError) return <Alert type="error" showIcon title={serverMessage(ladder.error) ?? t('common.failed')} />;
  const higher = ladder.data?.higherIsBetter ?? track.higherIsBetter;
  return (
    <>
      <p className="event-muted">
        {t('ladder.lead')} · {t(higher ? 'ladder.higherBetter' : 'ladder.lowerBetter')}
      </p>
      <Table<TLadderRow>
        rowKey="registrationId"
        dataSource={ladder.data?.rows ?? []}
        pagination={false}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: <Empty description={t('ladder.empty')} /> }}
        columns={[
          { title: t('results.rank'), dataIndex: 'rank' },
          { title: t('results.team'), dataIndex: 'teamName' },
          { title: t('results.school'), dataIndex: 'schoolName' },
          { title: t('ladder.best'), key: 'best', render: (_: unknown, row: TLadderRow) => score(row.best) },
          { title: t('ladder.runs'), dataIndex: 'runs' },
          {
            title: t('ladder.bestAt'),
            key: 'bestAt',
            render: (_: unknown, row: TLadderRow) => formatDateTime(row.bestAt),
          },
        ]}
      />
    </>
  );
}
