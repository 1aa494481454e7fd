import { TagsOutlined } from '@ant-design/icons';
import { DATASET_LIMITS, type TAnnotationSummary, type TDatasetVersion } from '@aiedu/contracts';
import { Alert } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../app/api-client';
import { formatBytes } from '../../ui/sizes';
import { uploadAnnotation } from './dataset-api';

/**
 * The annotation file of a ready version: a COCO JSON (images, annotations with boxes, categories) of at most
 * 100 MB. The detail page then draws each image's boxes over it.
 */
export function AnnotationUpload({
  datasetId,
  version,
  onDone,
}: {
  datasetId: string;
  version: TDatasetVersion | undefined;
  onDone(): void;
}) {
  const { t } = useTranslation('dataset');
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState<string | null>(null);
  const [summary, setSummary] = useState<TAnnotationSummary | null>(null);

  const send = async (file: File) => {
    setFailed(null);
    setSummary(null);
    if (!file.name.toLowerCase().endsWith('.json')) return setFailed(t('annotation.notJson'));
    if (file.size > DATASET_LIMITS.annotationBytes)
      return setFailed(t('annotation.tooLarge', { size: formatBytes(DATASET_LIMITS.annotationBytes) }));
    setBusy(true);
    try {
      setSummary(await uploadAnnotation(datasetId, version!.id, file));
      onDone();
    } catch (error) {
      setFailed(
        error instanceof ApiError && typeof error.body === 'object' ? error.body.errorMsg : t('annotation.failed'),
      );
    } finally {
      setBusy(false);
    }
  };

  const ready = version?.state === 'ready';
  return (
    <div className="annotation-upload">
      <p>{t('annotation.rules', { size: formatBytes(DATASET_LIMITS.annotationBytes) })}</p>
      {ready && version.annotationName && (
        <p>{t('annotation.current', { name: version.annotationName, number: version.number })}</p>
      )}
      {ready ? (
        <label className={`zip-upload__pick${busy ? ' zip-upload__pick--busy' : ''}`}>
          <TagsOutlined aria-hidden="true" /> {t(busy ? 'annotation.uploading' : 'annotation.pick')}
          <input
            type="file"
            accept=".json,application/json"
            disabled={busy}
            onChange={(e) => {
              const file = e.target.files?.[0];
              if (file) void send(file);
              e.target.value = '';
            }}
          />
        </label>
      ) : (
        <Alert type="info" showIcon title={t('annotation.needsData')} />
      )}
      <div role="status">
        {summary && (
          <Alert
            type="success"
            showIcon
            title={t('annotation.done', {
              images: summary.images,
              annotations: summary.annotations,
              categories: summary.categories.length,
            })}
          />
        )}
      </div>
      <div role="alert">{failed && <Alert type="error" showIcon title={failed} />}</div>
    </div>
  );
}
