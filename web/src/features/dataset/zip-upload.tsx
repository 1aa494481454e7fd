import { PauseOutlined, CaretRightOutlined, UploadOutlined } from '@ant-design/icons';
import { DATASET_API, DATASET_LIMITS, type TDatasetVersion } from '@aiedu/contracts';
import { Alert, Progress, Spin } from 'antd';
import { useEffect, useEffectEvent, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Upload as TusUpload } from 'tus-js-client';
import { serverDiskFull } from '../../app/api-client';
import { currentLanguage, HTML_LANG, i18n } from '../../app/i18n';
import { readSession } from '../../app/session';
import { Button } from '../../ui/button';
import { formatBytes } from '../../ui/sizes';
import { refusalOf, shouldRetry } from '../course/upload-refusal';
import { useDatasetVersion } from './dataset-api';

interface Progressing {
  name: string;
  sent: number;
  total: number;
  secondsLeft: number | null;
  paused: boolean;
}

const isZip = (file: File) => file.name.toLowerCase().endsWith('.zip');

/** Seconds left at the rate since the upload (or its resumption) started. */
function secondsLeft(startedAt: number, startedFrom: number, sent: number, total: number): number | null {
  const elapsed = (Date.now() - startedAt) / 1000;
  const rate = (sent - startedFrom) / elapsed;
  return elapsed > 1 && rate > 0 ? Math.ceil((total - sent) / rate) : null;
}

/**
 * What became of an uploaded zip: checked and unpacked on the server (processing), then ready with its files and
 * size, or failed with the server's reason (too many files, a zip bomb, an unsafe path, encrypted, not a zip, empty).
 */
export function VersionState({ version }: { version: TDatasetVersion }) {
  const { t } = useTranslation('dataset');
  if (version.state === 'processing')
    return (
      <Alert
        type="info"
        showIcon
        icon={<Spin size="small" />}
        title={t('upload.processing', { number: version.number })}
        description={t('upload.processingHint')}
      />
    );
  if (version.state === 'ready')
    return (
      <Alert
        type="success"
        showIcon
        title={t('upload.ready', {
          number: version.number,
          count: version.fileCount,
          size: formatBytes(version.totalBytes),
        })}
      />
    );
  return (
    <Alert
      type="error"
      showIcon
      title={t('upload.failed', { number: version.number })}
      description={version.failure?.errorMsg || t('upload.failedUnknown')}
    />
  );
}

function PolledVersion({
  datasetId,
  versionId,
  onSettled,
}: {
  datasetId: string;
  versionId: string;
  onSettled(): void;
}) {
  const version = useDatasetVersion(datasetId, versionId).data;
  const state = version?.state;
  const settle = useEffectEvent(onSettled);
  useEffect(() => {
    if (state && state !== 'processing') settle();
  }, [state]);
  return version ? <VersionState version={version} /> : <Spin size="small" />;
}

/**
 * Uploads a dataset's zip over tus, which makes a new version: 8 MB chunks with progress and time left, pause and
 * resume (also after a closed tab: tus-js-client remembers the upload in the browser), then the version's state.
 */
export function ZipUpload({ datasetId, onSettled }: { datasetId: string; onSettled(): void }) {
  const { t } = useTranslation('dataset');
  const upload = useRef<TusUpload | null>(null);
  const resumedFrom = useRef({ at: 0, from: 0 });
  const [progress, setProgress] = useState<Progressing | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const [versionId, setVersionId] = useState<string | null>(null);

  useEffect(() => () => void upload.current?.abort(), []);

  const start = (file: File) => {
    setFailed(null);
    setVersionId(null);
    if (!isZip(file)) return setFailed(t('archiveNotZip', { ns: 'errors' }));
    if (file.size === 0) return setFailed(t('archiveEmpty', { ns: 'errors' }));
    if (file.size > DATASET_LIMITS.zipBytes)
      return setFailed(t('upload.tooLarge', { size: formatBytes(DATASET_LIMITS.zipBytes) }));
    resumedFrom.current = { at: Date.now(), from: 0 };
    const tus = new TusUpload(file, {
      endpoint: DATASET_API.uploads,
      chunkSize: 8 * 1024 * 1024,
      retryDelays: [0, 1000, 3000, 5000],
      metadata: { datasetId, filename: file.name },
      headers: { language: currentLanguage() },
      // A large zip outlasts a token: each request carries the session's token of the moment.
      onBeforeRequest: (request) => request.setHeader('x-authorization', readSession().token ?? ''),
      removeFingerprintOnSuccess: true,
      onProgress: (sent, total) =>
        setProgress((p) => ({
          name: file.name,
          sent,
          total,
          paused: p?.paused ?? false,
          secondsLeft: secondsLeft(resumedFrom.current.at, resumedFrom.current.from, sent, total),
        })),
      onShouldRetry: shouldRetry,
      onError: (error) => {
        setProgress(null);
        upload.current = null;
        const refusal = refusalOf(error);
        if (serverDiskFull(refusal?.data)) setFailed(i18n.t('common:serverDiskFull'));
        else setFailed(refusal?.errorMsg || t('upload.interrupted'));
      },
      onSuccess: ({ lastResponse }) => {
        setProgress(null);
        upload.current = null;
        const id = lastResponse.getHeader('x-version-id');
        if (id) setVersionId(id);
        onSettled();
      },
    });
    upload.current = tus;
    setProgress({ name: file.name, sent: 0, total: file.size, paused: false, secondsLeft: null });
    void tus.findPreviousUploads().then((previous) => {
      if (previous[0]) tus.resumeFromPreviousUpload(previous[0]);
      tus.start();
    });
  };

  const pause = () => {
    void upload.current?.abort();
    setProgress((p) => p && { ...p, paused: true, secondsLeft: null });
  };
  const resume = () => {
    resumedFrom.current = { at: Date.now(), from: progress?.sent ?? 0 };
    upload.current?.start();
    setProgress((p) => p && { ...p, paused: false });
  };
  const percent = progress ? Math.floor((100 * progress.sent) / Math.max(1, progress.total)) : 0;

  return (
    <div className="zip-upload">
      <p className="zip-upload__rules">
        {t('upload.rules', {
          size: formatBytes(DATASET_LIMITS.zipBytes),
          entries: new Intl.NumberFormat(HTML_LANG[currentLanguage()]).format(DATASET_LIMITS.entries),
        })}
      </p>
      <label className={`zip-upload__pick${progress ? ' zip-upload__pick--busy' : ''}`}>
        <UploadOutlined aria-hidden="true" /> {t('upload.pick')}
        <input
          type="file"
          accept=".zip,application/zip"
          disabled={progress !== null}
          onChange={(e) => {
            const file = e.target.files?.[0];
            if (file) start(file);
            e.target.value = '';
          }}
        />
      </label>
      {progress && (
        <div className="zip-upload__progress" role="status">
          <span>
            {t(progress.paused ? 'upload.paused' : 'upload.uploading', {
              name: progress.name,
              percent,
              sent: formatBytes(progress.sent),
              total: formatBytes(progress.total),
            })}
            {progress.secondsLeft !== null && ` · ${t('upload.timeLeft', { count: progress.secondsLeft })}`}
          </span>
          <Progress percent={percent} status={progress.paused ? 'normal' : 'active'} aria-label={progress.name} />
          {progress.paused ? (
            <Button icon={<CaretRightOutlined />} onClick={resume}>
              {t('upload.resume')}
            </Button>
          ) : (
            <Button icon={<PauseOutlined />} onClick={pause}>
              {t('upload.pause')}
            </Button>
          )}
        </div>
      )}
      <div role="alert">
        {failed && <Alert type="error" showIcon title={t('upload.refused')} description={failed} />}
      </div>
      {versionId && <PolledVersion datasetId={datasetId} versionId={versionId} onSettled={onSettled} />}
    </div>
  );
}
