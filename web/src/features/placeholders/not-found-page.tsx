import { CompassOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { PATHS } from '../../app/paths';
import { ShellLinkButton } from '../../ui/shell-button';
import { StatusCard } from '../../ui/status-card';

export function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <div className="page">
      <StatusCard
        icon={<CompassOutlined />}
        title={t('notFound.title')}
        body={t('notFound.body')}
        action={
          <ShellLinkButton kind="primary" size="large" to={PATHS.home}>
            {t('notFound.home')}
          </ShellLinkButton>
        }
      />
    </div>
  );
}
