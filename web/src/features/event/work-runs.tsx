import { StopOutlined, UploadOutlined } from '@ant-design/icons';
import { EVENT_LIMITS, type EventRunState, type TEventTrack, type TRun } from '@aiedu/contracts';
import { Empty, Select, Skeleton, Space, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../ui/button';
import { formatDateTime } from '../../ui/dates';
import { formatBytes } from '../../ui/sizes';
import { STATUS_COLORS } from '../../ui/status-colors';
import { Table } from '../../ui/table';
import { Refusal } from './review-kit';
import { runCalls, useMyProjects, useProjectFiles, useRunMutation, useRuns } from './works-api';

export const RUN_COLORS: Record<EventRunState, string> = {
  queued: STATUS_COLORS.neutral,
  running: STATUS_COLORS.processing,
  scored: STATUS_COLORS.success,
  failed: STATUS_COLORS.error,
  cancelled: STATUS_COLORS.neutral,
};

/** Sends predictions from one of the caller's projects: the project, then one of its files. */
function FromProject({ eventId, trackId }: { eventId: string; trackId: string }) {
  const { t } = useTranslation('eventReview');
  const [projectId, setProjectId] = useState<string>();
  const [path, setPath] = useState<string>();
  const projects = useMyProjects(true);
  const files = useProjectFiles(projectId);
  const send = useRunMutation(runCalls.fromProject);
  return (
    <Space wrap align="start">
      <Select
        className="review-select"
        placeholder={t('runs.project')}
        aria-label={t('runs.project')}
        value={projectId}
        onChange={(value) => {
          setProjectId(value);
          setPath(undefined);
        }}
        options={(projects.data?.list ?? []).map((p) => ({ value: p.id, label: p.name }))}
      />
      <Select
        className="review-select"
        placeholder={t('runs.file')}
        aria-label={t('runs.file')}
        value={path}
        disabled={!projectId}
        loading={files.isLoading}
        onChange={setPath}
        options={(files.data ?? []).map((p) => ({ value: p, label: p }))}
      />
      <Button
        disabled={!projectId || !path}
        loading={send.isPending}
        onClick={() => projectId && path && send.mutate({ eventId, trackId, projectId, path })}
      >
        {t('runs.sendFile')}
      </Button>
      <Refusal error={send.error} />
    </Space>
  );
}

/**
 * A team's submissions to an auto-scored track: send a predictions file (or a project's file), the runs with their
 * states and scores, the runs counted today out of the daily limit, the team's best; a queued run can be cancelled.
 */
export function WorkRuns({ eventId, track }: { eventId: string; track: TEventTrack }) {
  const { t } = useTranslation('eventReview');
  const runs = useRuns(eventId, track.id);
  const upload = useRunMutation(runCalls.upload);
  const cancel = useRunMutation(runCalls.cancel);
  if (runs.isLoading) return <Skeleton active />;
  const view = runs.data;
  return (
    <section className="review-section" aria-labelledby="runs-title">
      <h2 id="runs-title">{t('runs.title', { track: track.name })}</h2>
      {view && (
        <p data-testid="runs-summary">
          {t('runs.usedToday', { used: view.usedToday, limit: view.dailyRuns })}
          {' · '}
          {view.best === null ? t('runs.noBest') : t('runs.best', { score: view.best })}
        </p>
      )}
      <div className="review-toolbar">
        <label className="review-file-pick">
          <UploadOutlined aria-hidden="true" /> {t('runs.upload')}
          <input
            type="file"
            disabled={upload.isPending}
            onChange={(e) => {
              const file = e.target.files?.[0];
              if (file) upload.mutate({ eventId, trackId: track.id, file });
              e.target.value = '';
            }}
          />
        </label>
        <span className="review-muted">
          {t('runs.uploadHint', { size: formatBytes(EVENT_LIMITS.predictionsBytes) })}
        </span>
      </div>
      <Refusal error={upload.error} />
      <FromProject eventId={eventId} trackId={track.id} />
      <Table<TRun>
        className="review-section"
        rowKey="id"
        dataSource={view?.runs ?? []}
        pagination={false}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: <Empty description={t('runs.empty')} /> }}
        columns={[
          { title: t('runs.queuedAt'), key: 'at', render: (_, r) => formatDateTime(r.queuedAt) },
          {
            title: t('runs.state'),
            key: 'state',
            render: (_, r) => (
              <>
                <Tag color={RUN_COLORS[r.state]}>{t(`runStates.${r.state}`)}</Tag>
                {r.error && <div className="review-muted">{r.error}</div>}
                {!r.counted && r.state !== 'queued' && r.state !== 'running' && (
                  <div className="review-muted">{t('runs.notCounted')}</div>
                )}
              </>
            ),
          },
          { title: t('runs.score'), key: 'score', render: (_, r) => r.score ?? '—' },
          {
            title: t('common.actions'),
            key: 'actions',
            render: (_, r) =>
              r.state === 'queued' && (
                <Button
                  size="small"
                  danger
                  icon={<StopOutlined />}
                  loading={cancel.isPending && cancel.variables === r.id}
                  aria-label={t('runs.cancelOne', { at: formatDateTime(r.queuedAt) })}
                  onClick={() => cancel.mutate(r.id)}
                >
                  {t('runs.cancel')}
                </Button>
              ),
          },
        ]}
      />
    </section>
  );
}
