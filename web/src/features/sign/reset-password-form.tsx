import { LIMITS } from '@aiedu/contracts';
import { Form, Input } from 'antd';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../ui/button';
import { FormError } from '../../ui/form-error';
import { CodeField } from './code-field';
import {
  CustomerCodeField,
  customerCodeOf,
  hasCustomerCode,
  initialCustomerValues,
  useCustomerCodeSetup,
  type CustomerCodeValues,
} from './customer-code-field';
import { NewPasswordFields } from './new-password-fields';
import { resetPassword, signInErrorMessage } from './sign-api';
import { useSignRules } from './sign-rules';

interface Values extends CustomerCodeValues {
  contact?: string;
  verifyCode?: string;
  password?: string;
  confirm?: string;
}

/** Password reset with a code sent to the account's phone or email (spec sections 2 and 5); submit is enabled once all is filled. */
export function ResetPasswordForm({ onReset }: { onReset: () => void }) {
  const { t } = useTranslation('sign');
  const rules = useSignRules();
  const setup = useCustomerCodeSetup();
  const formName = `reset-password${useId()}`;
  const [form] = Form.useForm<Values>();
  const custcode = Form.useWatch('custcode', form);
  const personal = Form.useWatch('personal', form);
  const filled = Form.useWatch(
    (v: Values) =>
      Boolean(v.contact?.trim() && v.verifyCode?.trim() && v.password && v.confirm) &&
      hasCustomerCode(setup, { custcode: v.custcode, personal: v.personal }),
    form,
  );
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();

  async function submit(values: Values) {
    setError(undefined);
    setBusy(true);
    try {
      await resetPassword({
        custcode: customerCodeOf(setup, values),
        user: values.contact ?? '',
        password: values.password ?? '',
        verifyCode: values.verifyCode ?? '',
      });
      onReset();
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
      <Form.Item label={t('fields.contact')} name="contact" rules={[rules.required('contact'), rules.contact]}>
        <Input size="large" autoComplete="username" maxLength={LIMITS.email} />
      </Form.Item>
      <CodeField
        formName={formName}
        targetField="contact"
        scene="RESET_PWD"
        custcode={customerCodeOf(setup, { custcode, personal })}
      />
      <NewPasswordFields hint="reset" />
      <FormError message={error} />
      <Button kind="primary" size="large" htmlType="submit" block disabled={!filled} loading={busy}>
        {t('submit.reset')}
      </Button>
    </Form>
  );
}
