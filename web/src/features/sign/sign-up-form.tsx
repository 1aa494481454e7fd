import { LIMITS, type TLoginResponse } from '@aiedu/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { Checkbox, Form, Input } from 'antd';
import { useId, useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PATHS } from '../../app/paths';
import { Button } from '../../ui/button';
import { FormError } from '../../ui/form-error';
import { CodeField } from './code-field';
import { completeLogin } from './complete-login';
import { NewPasswordFields } from './new-password-fields';
import { formErrorMessage, loginWithPassword, registerByPhone } from './sign-api';
import { useSignRules } from './sign-rules';

interface Values {
  phone?: string;
  verifyCode?: string;
  password?: string;
  confirm?: string;
  agreement?: boolean;
}

/**
 * Sign-up by phone (spec sections 2 and 5) into the public space, then sign-in with the same
 * phone and password. The agreement must be ticked.
 */
export function SignUpForm({ onSignedIn }: { onSignedIn: (login: TLoginResponse) => void }) {
  const { t } = useTranslation('sign');
  const rules = useSignRules();
  const queryClient = useQueryClient();
  const formName = `sign-up${useId()}`;
  const [form] = Form.useForm<Values>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();

  async function submit(values: Values) {
    setError(undefined);
    setBusy(true);
    const credentials = { phone: values.phone ?? '', password: values.password ?? '' };
    try {
      await registerByPhone({ ...credentials, verifyCode: values.verifyCode ?? '' });
      // Self-registered learners belong to the public space: an empty customer code.
      const login = await loginWithPassword({
        custcode: '',
        username: credentials.phone,
        password: credentials.password,
      });
      await completeLogin(login, '', queryClient);
      onSignedIn(login);
    } catch (failure) {
      setError(formErrorMessage(failure));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Form
      form={form}
      name={formName}
      layout="vertical"
      requiredMark={false}
      onFinish={(values) => void submit(values)}
      className="sign-form"
    >
      <Form.Item label={t('fields.phone')} name="phone" rules={[rules.required('phone'), rules.phone]}>
        <Input size="large" inputMode="tel" autoComplete="tel" maxLength={LIMITS.contact} />
      </Form.Item>
      <CodeField formName={formName} targetField="phone" scene="REGISTER" />
      <NewPasswordFields />
      <Form.Item name="agreement" valuePropName="checked" rules={[rules.agreement]} className="sign-form__agreement">
        <Checkbox>
          <Trans
            t={t}
            i18nKey="fields.agreement"
            components={{
              protocol: <Link to={PATHS.protocol} target="_blank" rel="noopener" />,
              privacy: <Link to={PATHS.privacy} target="_blank" rel="noopener" />,
            }}
          />
        </Checkbox>
      </Form.Item>
      <FormError message={error} />
      <Button kind="primary" size="large" htmlType="submit" block loading={busy}>
        {t('submit.signUp')}
      </Button>
    </Form>
  );
}
