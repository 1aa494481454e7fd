import { LIMITS, ownPasswordRule } from '@aiedu/contracts';
import { Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSessionRoles } from '../../app/session';
import { useSignRules } from './sign-rules';

/**
 * A new password and its confirmation, which must match. The password follows the rule of the one who chooses it
 * (spec 5): strong for an administrator signed in, else simple (`ownPasswordRule`); a reset, whose account is not
 * known before its code, checks the simple rule and says what an administrator's needs (`hint="reset"`).
 */
export function NewPasswordFields({
  name = 'password',
  confirmName = 'confirm',
  hint,
}: {
  name?: string;
  confirmName?: string;
  hint?: 'reset';
}) {
  const { t } = useTranslation('sign');
  const rules = useSignRules();
  const rule = ownPasswordRule(useSessionRoles());
  const extra =
    hint === 'reset'
      ? t('fields.passwordHintReset')
      : t(rule === 'strong' ? 'fields.passwordHintStrong' : 'fields.passwordHint');
  return (
    <>
      <Form.Item
        label={t('fields.newPassword')}
        name={name}
        extra={extra}
        rules={[rules.required('newPassword'), rules.newPassword(rule)]}
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
