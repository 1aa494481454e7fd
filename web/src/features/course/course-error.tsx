import { StopOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../app/api-client';
import { PATHS } from '../../app/paths';
import { LinkButton } from '../../ui/link-button';
import { StatusCard } from '../../ui/status-card';

/** Spec section 8 on a page: a closed, taken-down or missing course says so, and where to go next. */
export function CourseError({ error }: { error: unknown }) {
  const { t } = useTranslation('course');
  const code = error instanceof ApiError ? error.code : undefined;
  const key = code === '4002' ? 'errors.closed' : code === '4001' ? 'errors.takenDown' : 'errors.notFound';
  return (
    <div className="page">
      <StatusCard
        icon={<StopOutlined />}
        title={t(key)}
        action={
          <LinkButton kind="primary" size="large" to={PATHS.courseCentre}>
            {t('errors.toCentre')}
          </LinkButton>
        }
      />
    </div>
  );
}
