import { ToolOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { PATHS } from '../../app/paths';
import { useCurrentScreen } from '../../app/screen';
import { ShellLinkButton } from '../../ui/shell-button';
import { StatusCard } from '../../ui/status-card';

/** Stands in for every screen of the route table whose feature is not built yet. */
export function ComingSoonPage() {
  const { t } = useTranslation();
  const screen = useCurrentScreen();
  return (
    <div className="page">
      <StatusCard
        icon={<ToolOutlined />}
        title={screen ? t(screen, { ns: 'screens' }) : t('comingSoon.lead')}
        lead={t('comingSoon.lead')}
        body={t('comingSoon.body')}
        action={
          <ShellLinkButton kind="primary" size="large" to={PATHS.home}>
            {t('comingSoon.home')}
          </ShellLinkButton>
        }
      />
    </div>
  );
}
