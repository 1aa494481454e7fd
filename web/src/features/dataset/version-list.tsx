import type { TDatasetVersion } from '@aiedu/contracts';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../ui/dates';
import { formatBytes } from '../../ui/sizes';
import { STATUS_COLORS } from '../../ui/status-colors';

const STATE_COLOURS = {
  processing: STATUS_COLORS.processing,
  ready: STATUS_COLORS.success,
  failed: STATUS_COLORS.error,
} as const;

/** A dataset's versions, newest first: state, files and size, or why it failed. */
export function VersionList({ versions, currentId }: { versions: TDatasetVersion[]; currentId: string | null }) {
  const { t } = useTranslation('dataset');
  if (!versions.length) return <p className="dataset-versions__empty">{t('versions.none')}</p>;
  return (
    <ol className="dataset-versions" reversed>
      {versions.map((v) => (
        <li key={v.id} className="dataset-versions__item">
          <span className="dataset-versions__number">{t('versions.number', { number: v.number })}</span>
          <Tag color={STATE_COLOURS[v.state]}>{t(`versions.state.${v.state}`)}</Tag>
          {v.id === currentId && <Tag color="blue">{t('versions.current')}</Tag>}
          <span className="dataset-versions__meta">
            {v.state === 'ready'
              ? t('list.contents', { count: v.fileCount, size: formatBytes(v.totalBytes) })
              : v.zipName}
            {' · '}
            {formatDateTime(v.createdAt)}
          </span>
          {v.state === 'failed' && v.failure && <p className="dataset-versions__failure">{v.failure.errorMsg}</p>}
        </li>
      ))}
    </ol>
  );
}
