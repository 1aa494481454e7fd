import { UploadOutlined } from '@ant-design/icons';
import { COURSE_API, LIMITS } from '@aiedu/contracts';
import { Alert, Progress } from 'antd';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Upload as TusUpload } from 'tus-js-client';
import { serverDiskFull } from '../../app/api-client';
import { readSession } from '../../app/session';
import { currentLanguage, i18n } from '../../app/i18n';
import { refusalOf, shouldRetry } from './upload-refusal';

/**
 * Uploads a section resource over tus: the file goes in 8 MB chunks with its progress shown, and an interrupted
 * upload resumes from the server's offset (tus-js-client remembers it in the browser).
 */
export function ResourceUpload({
  sectionId,
  disabled,
  onDone,
}: {
  sectionId: string;
  disabled: boolean;
  onDone: () => void;
}) {
  const { t } = useTranslation('course');
  const input = useRef<HTMLInputElement>(null);
  const [progress, setProgress] = useState<{ name: string; percent: number } | null>(null);
  const [failed, setFailed] = useState<string | null>(null);

  const start = (file: File) => {
    setFailed(null);
    if (file.size > LIMITS.resourceBytes) {
      setFailed(i18n.t('errors:fileTooLarge'));
      return;
    }
    const upload = new TusUpload(file, {
      endpoint: COURSE_API.uploads,
      chunkSize: 8 * 1024 * 1024,
      retryDelays: [0, 1000, 3000, 5000],
      metadata: { sectionId, filename: file.name },
      headers: { 'x-authorization': readSession().token ?? '', language: currentLanguage() },
      removeFingerprintOnSuccess: true,
      onProgress: (sent, total) => setProgress({ name: file.name, percent: Math.floor((100 * sent) / total) }),
      onShouldRetry: shouldRetry,
      onError: (error) => {
        setProgress(null);
        const refusal = refusalOf(error);
        if (serverDiskFull(refusal?.data)) setFailed(i18n.t('common:serverDiskFull'));
        else setFailed(refusal?.errorMsg || t('editor.uploadFailed'));
      },
      onSuccess: () => {
        setProgress(null);
        onDone();
      },
    });
    void upload.findPreviousUploads().then((previous) => {
      if (previous[0]) upload.resumeFromPreviousUpload(previous[0]);
      upload.start();
    });
  };

  return (
    <div className="course-upload">
      <label className="course-upload__label">
        <UploadOutlined aria-hidden="true" /> {t('editor.uploadResource')}
        <input
          ref={input}
          type="file"
          disabled={disabled || progress !== null}
          onChange={(e) => {
            const file = e.target.files?.[0];
            if (file) start(file);
            e.target.value = '';
          }}
        />
      </label>
      {progress && (
        <div role="status">
          <span>{t('editor.uploading', { name: progress.name, percent: progress.percent })}</span>
          <Progress percent={progress.percent} aria-label={progress.name} />
        </div>
      )}
      {failed && <Alert type="error" showIcon title={failed} />}
    </div>
  );
}
