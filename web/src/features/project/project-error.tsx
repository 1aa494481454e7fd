import { StopOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { serverMessage } from '../../app/api-client';
import { PATHS } from '../../app/paths';
import { LinkButton } from '../../ui/link-button';
import { StatusCard } from '../../ui/status-card';

/**
 * A project that cannot be opened: missing, or not the caller's to see (the server answers both the same way, so
 * nobody learns which projects exist). The server's reason in the user's language, and the way back to their own.
 */
export function ProjectError({ error }: { error: unknown }) {
  const { t } = useTranslation('project');
  const reason = serverMessage(error) ?? '';
  return (
    <div className="page">
      <StatusCard
        icon={<StopOutlined />}
        title={t('editor.cannotOpenProject')}
        lead={reason || t('editor.projectMissing')}
        action={
          <LinkButton kind="primary" size="large" to={PATHS.myProjects}>
            {t('editor.toMyProjects')}
          </LinkButton>
        }
      />
    </div>
  );
}
