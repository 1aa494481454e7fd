import { PlayCircleOutlined, UploadOutlined } from '@ant-design/icons';
import { EVENT_API, EVENT_LIMITS } from '@aiedu/contracts';
import { Alert, Progress, Skeleton } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Upload as TusUpload } from 'tus-js-client';
import { serverDiskFull } from '../../app/api-client';
import { currentLanguage, i18n } from '../../app/i18n';
import { readSession } from '../../app/session';
import { Button } from '../../ui/button';
import { formatBytes } from '../../ui/sizes';
import { refusalOf, shouldRetry } from '../course/upload-refusal';
import { serverMessage } from '../../app/api-client';
import { workCalls } from './works-api';

/** The tus upload kind of a work's video, named in its metadata beside the work. */
const VIDEO_KIND = 'eventVideo';

const isMp4 = (file: File) => file.name.toLowerCase().endsWith('.mp4') || file.type === 'video/mp4';

/**
 * Uploads a draft's video (MP4 ≤ 500 MB) over tus: 8 MB chunks with progress, resumed after an interruption (also
 * after a closed tab: tus-js-client remembers it in the browser). The server makes the finished file the draft's video.
 */
export function VideoUpload({ workId, onDone }: { workId: string; onDone: () => void }) {
  const { t } = useTranslation('eventReview');
  const upload = useRef<TusUpload | null>(null);
  const [percent, setPercent] = useState<number | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  useEffect(() => () => void upload.current?.abort(), []);

  const start = (file: File) => {
    setFailed(null);
    if (!isMp4(file)) return setFailed(t('form.videoNotMp4'));
    if (file.size > EVENT_LIMITS.videoBytes)
      return setFailed(t('form.tooLarge', { size: formatBytes(EVENT_LIMITS.videoBytes) }));
    const tus = new TusUpload(file, {
      endpoint: EVENT_API.workVideoUploads,
      chunkSize: 8 * 1024 * 1024,
      retryDelays: [0, 1000, 3000, 5000],
      metadata: { workId, kind: VIDEO_KIND, filename: file.name },
      headers: { language: currentLanguage() },
      onBeforeRequest: (request) => request.setHeader('x-authorization', readSession().token ?? ''),
      removeFingerprintOnSuccess: true,
      onProgress: (sent, total) => setPercent(Math.floor((100 * sent) / Math.max(1, total))),
      onShouldRetry: shouldRetry,
      onError: (error) => {
        setPercent(null);
        upload.current = null;
        const refusal = refusalOf(error);
        if (serverDiskFull(refusal?.data)) setFailed(i18n.t('common:serverDiskFull'));
        else setFailed(refusal?.errorMsg || t('form.uploadFailed'));
      },
      onSuccess: () => {
        setPercent(null);
        upload.current = null;
        onDone();
      },
    });
    upload.current = tus;
    setPercent(0);
    void tus.findPreviousUploads().then((previous) => {
      if (previous[0]) tus.resumeFromPreviousUpload(previous[0]);
      tus.start();
    });
  };

  return (
    <div className="review-file-pick">
      <label>
        <UploadOutlined aria-hidden="true" /> {t('form.video')}
        <input
          type="file"
          accept=".mp4,video/mp4"
          disabled={percent !== null}
          onChange={(e) => {
            const file = e.target.files?.[0];
            if (file) start(file);
            e.target.value = '';
          }}
        />
      </label>
      <p className="review-muted">{t('form.videoHint', { size: formatBytes(EVENT_LIMITS.videoBytes) })}</p>
      {percent !== null && (
        <div role="status">
          <span>{t('form.videoUploading', { percent })}</span>
          <Progress percent={percent} aria-label={t('form.video')} />
        </div>
      )}
      <div role="alert">{failed && <Alert type="error" showIcon title={failed} />}</div>
    </div>
  );
}

/**
 * A work's video: fetched with the caller's token when asked for (it may be large), then played from a local
 * address in the browser's player.
 */
export function WorkVideo({
  workId,
  title,
  videoUrl,
}: {
  workId: string;
  title: string;
  /** The server's signed address: the browser's player streams and seeks it by byte ranges. */
  videoUrl?: string | null;
}) {
  const { t } = useTranslation('eventReview');
  const [url, setUrl] = useState<string | null>(null);
  const [state, setState] = useState<'idle' | 'loading' | 'failed'>('idle');
  const [error, setError] = useState<string>();
  useEffect(
    () => () => {
      if (url) URL.revokeObjectURL(url);
    },
    [url],
  );
  if (videoUrl) return <video className="review-video" src={videoUrl} controls preload="metadata" aria-label={title} />;
  if (url) return <video className="review-video" src={url} controls aria-label={title} />;
  if (state === 'loading') return <Skeleton.Node active />;
  return (
    <>
      <Button
        icon={<PlayCircleOutlined />}
        onClick={() => {
          setState('loading');
          workCalls.video(workId).then(
            (blob) => setUrl(URL.createObjectURL(blob)),
            (e: unknown) => {
              setError(serverMessage(e));
              setState('failed');
            },
          );
        }}
      >
        {t('work.playVideo', { name: title })}
      </Button>
      {state === 'failed' && <Alert type="error" showIcon title={error || t('common.failed')} />}
    </>
  );
}
