import { LoginOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { SignInCard } from '../../app/sign-in-required';

/** Projects belong to people: visitors are asked to sign in first. */
export function SignInPrompt() {
  const { t } = useTranslation('project');
  return (
    <SignInCard
      icon={<LoginOutlined />}
      title={t('list.publicTitle')}
      lead={t('list.signIn')}
      action={t('list.signInButton')}
    />
  );
}
