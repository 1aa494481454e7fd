import { LIMITS, type TLoginResponse } from '@aiedu/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { Form, Input } from 'antd';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../ui/button';
import { FormError } from '../../ui/form-error';
import { CodeField } from './code-field';
import { completeLogin } from './complete-login';
import {
  CustomerCodeField,
  customerCodeOf,
  hasCustomerCode,
  initialCustomerValues,
  useCustomerCodeSetup,
  type CustomerCodeValues,
} from './customer-code-field';
import { loginWithCode, signInErrorMessage } from './sign-api';
import { useSignRules } from './sign-rules';

interface Values extends CustomerCodeValues {
  phone?: string;
  verifyCode?: string;
}

/** Passwordless sign-in with a code sent to the phone (spec sections 2 and 5); submit is enabled once all is filled. */
export function CodeLoginForm({ onSignedIn }: { onSignedIn: (login: TLoginResponse) => void }) {
  const { t } = useTranslation('sign');
  const rules = useSignRules();
  const queryClient = useQueryClient();
  const setup = useCustomerCodeSetup();
  const formName = `code-login${useId()}`;
  const [form] = Form.useForm<Values>();
  const custcode = Form.useWatch('custcode', form);
  const personal = Form.useWatch('personal', form);
  const filled = Form.useWatch(
    (v: Values) =>
      Boolean(v.phone?.trim() && v.verifyCode?.trim()) &&
      hasCustomerCode(setup, { custcode: v.custcode, personal: v.personal }),
    form,
  );
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();

  async function submit(values: Values) {
    setError(undefined);
    setBusy(true);
    const code = customerCodeOf(setup, values);
    try {
      const login = await loginWithCode({
        custcode: code,
        user: values.phone ?? '',
        verifyCode: values.verifyCode ?? '',
      });
      await completeLogin(login, code, queryClient);
      onSignedIn(login);
    } catch (failure) {
      setError(signInErrorMessage(failure));
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
      initialValues={initialCustomerValues(setup)}
      onFinish={(values) => void submit(values)}
      className="sign-form"
    >
      <CustomerCodeField setup={setup} />
      <Form.Item label={t('fields.phone')} name="phone" rules={[rules.required('phone'), rules.phone]}>
        <Input size="large" inputMode="tel" autoComplete="tel" maxLength={LIMITS.phone} />
      </Form.Item>
      <CodeField
        formName={formName}
        targetField="phone"
        scene="LOGIN"
        custcode={customerCodeOf(setup, { custcode, personal })}
      />
      <FormError message={error} />
      <Button kind="primary" size="large" htmlType="submit" block disabled={!filled} loading={busy}>
        {t('submit.login')}
      </Button>
    </Form>
  );
}
