import { LIMITS, type TLoginResponse } from '@aiedu/contracts';
import { Form, Input } from 'antd';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../ui/button';
import { FormError } from '../../ui/form-error';
import {
  CustomerCodeField,
  customerCodeOf,
  hasCustomerCode,
  initialCustomerValues,
  useCustomerCodeSetup,
  type CustomerCodeValues,
} from './customer-code-field';
import { usePasswordSignIn } from './password-sign-in';
import { signInErrorMessage, type PasswordLoginInput } from './sign-api';
import { useSignRules } from './sign-rules';

interface Values extends CustomerCodeValues {
  username?: string;
  password?: string;
}

export interface PasswordLoginFormProps {
  /** 'super': the super administrator's sign-in, always with an empty customer code. */
  mode: 'user' | 'super';
  onSignedIn: (login: TLoginResponse) => void;
}

/**
 * Password sign-in (spec sections 4 and 5). Submit is enabled once every required field is filled.
 * The server is asked first whether this account must pass the slider puzzle; if so the puzzle
 * shows, and a passed puzzle retries the sign-in with its id.
 */
export function PasswordLoginForm({ mode, onSignedIn }: PasswordLoginFormProps) {
  const { t } = useTranslation('sign');
  const rules = useSignRules();
  const setup = useCustomerCodeSetup();
  const formName = `password-login${useId()}`;
  const [form] = Form.useForm<Values>();
  const username = Form.useWatch('username', form);
  const password = Form.useWatch('password', form);
  const custcode = Form.useWatch('custcode', form);
  const personal = Form.useWatch('personal', form);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const signIn = usePasswordSignIn({ onSignedIn, onError: setError, setBusy });
  const superMode = mode === 'super';
  const filled = Boolean(username?.trim() && password) && (superMode || hasCustomerCode(setup, { custcode, personal }));

  async function submit(values: Values) {
    setError(undefined);
    setBusy(true);
    const input: PasswordLoginInput = {
      custcode: superMode ? '' : customerCodeOf(setup, values),
      username: (values.username ?? '').trim(),
      password: values.password ?? '',
    };
    try {
      await signIn.start(input);
    } catch (failure) {
      setError(signInErrorMessage(failure));
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <div hidden={signIn.pending}>
        <Form
          form={form}
          name={formName}
          layout="vertical"
          requiredMark={false}
          initialValues={initialCustomerValues(setup)}
          onFinish={(values) => void submit(values)}
          className="sign-form"
        >
          {!superMode && <CustomerCodeField setup={setup} />}
          <Form.Item label={t('fields.username')} name="username" rules={[rules.required('username')]}>
            <Input size="large" autoComplete="username" />
          </Form.Item>
          <Form.Item
            label={t('fields.password')}
            name="password"
            rules={[rules.required('password'), rules.loginPasswordMax]}
          >
            <Input.Password size="large" maxLength={LIMITS.loginPassword} autoComplete="current-password" />
          </Form.Item>
          <FormError message={error} />
          <Button kind="primary" size="large" htmlType="submit" block disabled={!filled} loading={busy}>
            {t('submit.login')}
          </Button>
        </Form>
      </div>
      {signIn.puzzle}
    </>
  );
}
