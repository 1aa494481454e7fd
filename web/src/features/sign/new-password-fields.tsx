import { LIMITS } from '@aiedu/contracts';
import { Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSignRules } from './sign-rules';

/** A new password (spec 5: the simple-password rule) and its confirmation, which must match. */
export function NewPasswordFields({
  name = 'password',
  confirmName = 'confirm',
}: {
  name?: string;
  confirmName?: string;
}) {
  const { t } = useTranslation('sign');
  const rules = useSignRules();
  return (
    <>
      <Form.Item
        label={t('fields.newPassword')}
        name={name}
        extra={t('fields.passwordHint')}
        rules={[rules.required('newPassword'), rules.newPassword]}
      >
        <Input.Password size="large" maxLength={LIMITS.loginPassword} autoComplete="new-password" />
      </Form.Item>
      <Form.Item
        label={t('fields.confirmPassword')}
        name={confirmName}
        dependencies={[name]}
        rules={[rules.required('confirmPassword'), rules.sameAs(name)]}
      >
        <Input.Password size="large" maxLength={LIMITS.loginPassword} autoComplete="new-password" />
      </Form.Item>
    </>
  );
}
