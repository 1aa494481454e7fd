import { StopOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../app/api-client';
import { LinkButton } from '../../ui/link-button';
import { StatusCard } from '../../ui/status-card';
import { DATASET_PATHS } from './dataset-labels';

/**
 * A dataset that cannot be opened: missing, or not the caller's to see (the server answers both the same way, so
 * nobody learns which datasets exist). The server's reason in the user's language, and the way back to the list.
 */
export function DatasetError({ error, reason }: { error: unknown; reason?: string }) {
  const { t } = useTranslation('dataset');
  const answer = error instanceof ApiError && typeof error.body === 'object' ? error.body.errorMsg : '';
  return (
    <StatusCard
      icon={<StopOutlined />}
      title={t('detail.cannotOpen')}
      lead={reason || answer || t('detail.missing')}
      action={
        <LinkButton kind="primary" size="large" to={DATASET_PATHS.list}>
          {t('detail.toList')}
        </LinkButton>
      }
    />
  );
}
