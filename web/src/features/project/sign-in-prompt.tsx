import { LoginOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useLoginDialog } from '../../app/sign-dialogs';
import { Button } from '../../ui/button';
import { StatusCard } from '../../ui/status-card';

/** Projects belong to people: visitors are asked to sign in first. */
export function SignInPrompt() {
  const { t } = useTranslation('project');
  const login = useLoginDialog();
  return (
    <div className="page">
      <StatusCard
        icon={<LoginOutlined />}
        title={t('list.publicTitle')}
        lead={t('list.signIn')}
        action={
          <Button kind="primary" size="large" onClick={() => login.open()}>
            {t('list.signInButton')}
          </Button>
        }
      />
    </div>
  );
}
