import { FastForwardOutlined, PoweroffOutlined, ThunderboltOutlined } from '@ant-design/icons';
import type { TProject, TRuntimeStatus } from '@aiedu/contracts';
import { Alert, Tag, Typography } from 'antd';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ApiError, serverDiskFull } from '../../app/api-client';
import { Button } from '../../ui/button';
import { useRuntimeAvailability } from './project-api';
import { projectEditorPath } from '../../app/paths';

const STATE_COLOURS: Record<string, string> = {
  RUNNING: 'success',
  BOOTING: 'processing',
  STOPPING: 'processing',
  FAILED: 'error',
};

export interface TopBarProps {
  project: TProject;
  runtime: TRuntimeStatus | undefined;
  startError: unknown;
  onStart(): void;
  onStop(): void;
  onRunAll(): void;
}

/** Project name, version, runtime type and state, this week's compute balance, Run all, Start/Stop. */
export function EditorTopBar({ project, runtime, startError, onStart, onStop, onRunAll }: TopBarProps) {
  const { t, i18n } = useTranslation('project');
  const availability = useRuntimeAvailability();
  const state = runtime?.state ?? 'NA';
  const running = state === 'RUNNING';
  const busy = state === 'BOOTING' || state === 'STOPPING';
  const refusal = startError instanceof ApiError && typeof startError.body === 'object' ? startError.body : null;
  const running_ = (refusal?.data as { running?: { projectId: string; name: string }[] } | null)?.running ?? [];
  const resets = runtime
    ? new Intl.DateTimeFormat(i18n.language.replace('_CHS', '-CN').replace('_CHT', '-TW'), {
        weekday: 'long',
        hour: '2-digit',
        minute: '2-digit',
      }).format(new Date(runtime.balance.resetsAt))
    : '';
  const notInstalled = availability.data && availability.data.state !== 'ready';
  // The AI environment's packages: a start installs them where the server may, so only a running or failed
  // installation keeps Start from being pressed.
  const ai =
    project.environment === 'ai' && availability.data?.ai?.state !== 'ready' ? availability.data?.ai : undefined;
  const aiBlocks = ai?.state === 'installing' || ai?.state === 'failed';
  // A refusal for missing packages says nothing the banner above it does not.
  const shownRefusal = refusal && (notInstalled || ai) && ['3101', '3102'].includes(refusal.errorCode) ? null : refusal;

  return (
    <header className="editor-top-bar">
      <div className="editor-top-bar__title">
        <h1>{project.name}</h1>
        <Tag>{project.latestVersion ? t('editor.version', { version: project.latestVersion }) : t('editor.draft')}</Tag>
        <Tag>{t(`runtime.${runtime?.runtimeType ?? project.runtimeType}`)}</Tag>
        <Tag
          color={project.environment === 'ai' ? 'purple' : undefined}
          title={t(`environment.option.${project.environment}`)}
          data-environment={project.environment}
        >
          {t(`environment.short.${project.environment}`)}
        </Tag>
        <Tag
          color={STATE_COLOURS[state] ?? 'default'}
          role="status"
          aria-label={t('runtime.stateLabel')}
          data-runtime-state={state}
        >
          {t(`runtime.state.${state}`)}
        </Tag>
        {runtime && (
          <span className="editor-top-bar__balance" title={t('runtime.resets', { date: resets })}>
            {t('runtime.balance', { minutes: runtime.balance.remainingMinutes })}
          </span>
        )}
      </div>
      {project.canEdit && (
        <div className="editor-top-bar__actions">
          <Button icon={<FastForwardOutlined />} disabled={!running} onClick={onRunAll}>
            {t('notebook.runAll')}
          </Button>
          {running || state === 'STOPPING' ? (
            <Button icon={<PoweroffOutlined />} loading={busy} onClick={onStop}>
              {t('runtime.stop')}
            </Button>
          ) : (
            <Button
              kind="primary"
              icon={<ThunderboltOutlined />}
              loading={busy}
              disabled={Boolean(notInstalled) || aiBlocks}
              onClick={onStart}
            >
              {t('runtime.start')}
            </Button>
          )}
        </div>
      )}
      {notInstalled && (
        <Alert
          className="editor-top-bar__alert"
          type={availability.data!.state === 'installing' ? 'info' : 'warning'}
          showIcon
          title={t(availability.data!.state === 'installing' ? 'runtime.installing' : 'runtime.notInstalled')}
          description={
            availability.data!.state === 'installing' ? (
              availability.data!.progress
            ) : (
              <Typography.Text code copyable>
                {availability.data!.command}
              </Typography.Text>
            )
          }
        />
      )}
      {!notInstalled && ai && (
        <Alert
          className="editor-top-bar__alert"
          type={ai.state === 'installing' ? 'info' : 'warning'}
          showIcon
          title={t(
            `environment.${ai.state === 'installing' ? 'aiInstalling' : ai.state === 'failed' ? 'aiFailed' : 'aiMissing'}`,
          )}
          description={
            ai.state === 'installing' ? (
              ai.progress
            ) : (
              <Typography.Text code copyable>
                {ai.command}
              </Typography.Text>
            )
          }
        />
      )}
      {shownRefusal && (
        <Alert
          className="editor-top-bar__alert"
          type="error"
          showIcon
          title={shownRefusal.errorMsg}
          description={
            serverDiskFull(shownRefusal.data) ? (
              t('runtime.serverDiskFull')
            ) : running_.length ? (
              <span>
                {t('runtime.runningElsewhere')}{' '}
                {running_.map((r) => (
                  <Link key={r.projectId} to={projectEditorPath(r.projectId)}>
                    {r.name}
                  </Link>
                ))}
              </span>
            ) : null
          }
        />
      )}
      {!refusal && availability.data?.diskFull && !running && project.canEdit && runtime?.stopReason !== 'diskFull' && (
        <Alert className="editor-top-bar__alert" type="warning" showIcon title={t('runtime.serverDiskFull')} />
      )}
      {!refusal && runtime?.stopReason && runtime.stopReason !== 'user' && state !== 'RUNNING' && (
        <Alert
          className="editor-top-bar__alert"
          type="warning"
          showIcon
          title={t(`runtime.stopReason.${runtime.stopReason}`)}
        />
      )}
    </header>
  );
}
