import { FilePdfOutlined, LeftOutlined, LinkOutlined, RightOutlined } from '@ant-design/icons';
import type { TEvent, TJudgingItem, TReviewSettingsView } from '@aiedu/contracts';
import { Empty, Segmented, Skeleton, Space, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { Button } from '../../ui/button';
import { STATUS_COLORS } from '../../ui/status-colors';
import { StoredLink } from '../../ui/stored-link';
import { Table } from '../../ui/table';
import { useJudging } from './judging-api';
import { useReviewSettings } from './review-api';
import { EventScreen, formatDay, Refusal, roundNamesOf, useRoundName } from './review-kit';
import { ScoreForm } from './score-form';
import { WorkVideo } from './work-video';

const scored = (item: TJudgingItem) => item.score?.state === 'submitted';

/** The review's rules and the organisers' manual and review sheet (the server's own signed addresses). */
function ReviewRules({ settings }: { settings: TReviewSettingsView }) {
  const { t } = useTranslation('eventReview');
  return (
    <details className="review-section">
      <summary>{t('judging.rules')}</summary>
      {settings.rules && <p className="review-rules">{settings.rules}</p>}
      {settings.date && <p>{t('judging.date', { date: formatDay(settings.date) })}</p>}
      <Space wrap>
        {settings.manualUrl && (
          <a href={settings.manualUrl} target="_blank" rel="noreferrer">
            <FilePdfOutlined aria-hidden="true" /> {t('judging.manual')}
          </a>
        )}
        {settings.sheetUrl && (
          <a href={settings.sheetUrl} target="_blank" rel="noreferrer">
            <FilePdfOutlined aria-hidden="true" /> {t('judging.sheet')}
          </a>
        )}
      </Space>
    </details>
  );
}

/** What the judge looks at: the work's cover, description, link, video and the frozen project version. */
function WorkMaterials({ item }: { item: TJudgingItem }) {
  const { t } = useTranslation('eventReview');
  const { work } = item;
  return (
    <article aria-labelledby="work-title">
      <h2 id="work-title">{work.name}</h2>
      {work.coverUrl && (
        <img className="review-cover" src={work.coverUrl} alt={t('judging.cover', { name: work.name })} />
      )}
      <div>
        {work.tags.map((tag) => (
          <Tag key={tag}>{tag}</Tag>
        ))}
      </div>
      <p className="review-rules">{work.description || t('judging.noDescription')}</p>
      <dl className="review-facts">
        <dt>{t('judging.link')}</dt>
        <dd>
          {work.link ? (
            <StoredLink href={work.link} target="_blank" rel="noreferrer">
              <LinkOutlined aria-hidden="true" /> {work.link}
            </StoredLink>
          ) : (
            '—'
          )}
        </dd>
        <dt>{t('judging.project')}</dt>
        <dd>
          {work.projectName
            ? t('judging.projectVersion', { name: work.projectName, version: work.projectVersion ?? '—' })
            : '—'}
        </dd>
      </dl>
      {work.hasVideo && <WorkVideo workId={work.id} title={work.name} videoUrl={work.videoUrl} />}
    </article>
  );
}

/** The rounds a judge's works are of, in order, and the one to show first: the last still open, else the last. */
function roundsOf(items: TJudgingItem[]) {
  const rounds = [...new Set(items.map((item) => item.round))].sort((a, b) => a - b);
  const open = rounds.filter((round) => items.some((item) => item.round === round && !item.closed));
  return { rounds, first: open.at(-1) ?? rounds.at(-1) ?? 1 };
}

function Judging({ event }: { event: TEvent }) {
  const { t } = useTranslation('eventReview');
  const items = useJudging(event.id);
  const settings = useReviewSettings(event.id);
  const [picked, setPicked] = useState<number>();
  const [index, setIndex] = useState(0);
  const roundName = useRoundName(roundNamesOf(settings.data));
  if (items.isLoading || settings.isLoading) return <Skeleton active />;
  if (items.error || settings.error) return <Refusal error={items.error ?? settings.error} />;
  const all = items.data ?? [];
  if (all.length === 0) return <Empty description={t('judging.empty')} />;
  if (!settings.data) return <Empty description={t('judging.noSettings')} />;
  const { rounds, first } = roundsOf(all);
  const round = picked !== undefined && rounds.includes(picked) ? picked : first;
  // A work that went on is listed once per round: the judge scores one round at a time.
  const list = all.filter((item) => item.round === round);
  const closed = list.some((item) => item.closed);
  const named = rounds.length > 1 || round > 1 || settings.data.rounds.length > 0 || settings.data.roundName !== '';
  const current = list[Math.min(index, list.length - 1)]!;
  const done = list.filter(scored).length;
  return (
    <>
      {named && (
        <div className="review-toolbar">
          <h2 className="review-round-title">{roundName(round)}</h2>
          {closed && <Tag color={STATUS_COLORS.neutral}>{t('judging.roundClosed')}</Tag>}
          {rounds.length > 1 && (
            <Segmented<number>
              aria-label={t('judging.roundSwitch')}
              value={round}
              onChange={(value) => {
                setPicked(value);
                setIndex(0);
              }}
              options={rounds.map((n) => ({ value: n, label: roundName(n) }))}
            />
          )}
        </div>
      )}
      <div className="review-toolbar">
        <strong data-testid="judging-progress">{t('judging.progress', { done, total: list.length })}</strong>
        <Button icon={<LeftOutlined />} disabled={index === 0} onClick={() => setIndex(index - 1)}>
          {t('judging.previous')}
        </Button>
        <Button icon={<RightOutlined />} disabled={index >= list.length - 1} onClick={() => setIndex(index + 1)}>
          {t('judging.next')}
        </Button>
      </div>
      <ReviewRules settings={settings.data} />
      <div className="review-judging review-section">
        <WorkMaterials item={current} />
        <ScoreForm
          key={`${current.round}-${current.work.id}-${current.score?.state ?? ''}`}
          item={current}
          settings={settings.data}
          onSubmitted={() => {
            const next = list.findIndex((item, i) => item !== current && i > index && !scored(item));
            if (next >= 0) setIndex(next);
          }}
        />
      </div>
      <Table<TJudgingItem>
        className="review-section"
        rowKey={(item) => `${item.round}-${item.work.id}`}
        dataSource={list}
        pagination={false}
        scroll={{ x: 'max-content' }}
        columns={[
          { title: t('judging.work'), key: 'name', render: (_, item) => item.work.name },
          {
            title: t('judging.state'),
            key: 'state',
            render: (_, item) => (
              <Tag color={scored(item) ? STATUS_COLORS.success : STATUS_COLORS.neutral}>
                {t(scored(item) ? 'judging.scored' : 'judging.notScored')}
              </Tag>
            ),
          },
          { title: t('judging.total'), key: 'total', render: (_, item) => item.score?.total ?? '—' },
          {
            title: t('common.actions'),
            key: 'open',
            render: (_, item) => (
              <Button
                size="small"
                aria-label={t('judging.openOne', { name: item.work.name })}
                onClick={() => setIndex(list.indexOf(item))}
              >
                {t('judging.open')}
              </Button>
            ),
          },
        ]}
      />
    </>
  );
}

/** A judge's works: one at a time with its materials beside the score form; the list says which are scored. */
export function JudgingPage() {
  const { t } = useTranslation('eventReview');
  const { eventId } = useParams();
  return (
    <EventScreen
      eventId={eventId}
      title={t('judging.title')}
      lead={t('judging.lead')}
      allowed={(event) => event.viewer.judge}
      refusal={t('judging.judgesOnly')}
    >
      {(event) => <Judging event={event} />}
    </EventScreen>
  );
}
