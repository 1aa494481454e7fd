import { LIMITS, type TLoginResponse } from '@aiedu/contracts';
import { Checkbox, Form, Input } from 'antd';
import { useId, useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PATHS } from '../../app/paths';
import { Button } from '../../ui/button';
import { FormError } from '../../ui/form-error';
import { CodeField } from './code-field';
import { NewPasswordFields } from './new-password-fields';
import { usePasswordSignIn } from './password-sign-in';
import { registerByPhone, signInErrorMessage } from './sign-api';
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
 * phone and password (through the slider puzzle when the server asks for it). Submit is enabled once
 * every field is filled and the agreement ticked.
 */
export function SignUpForm({ onSignedIn }: { onSignedIn: (login: TLoginResponse) => void }) {
  const { t } = useTranslation('sign');
  const rules = useSignRules();
  const formName = `sign-up${useId()}`;
  const [form] = Form.useForm<Values>();
  const filled = Form.useWatch(
    (v: Values) => Boolean(v.phone?.trim() && v.verifyCode?.trim() && v.password && v.confirm && v.agreement),
    form,
  );
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  /** The phone registered: a sign-in that did not follow (a puzzle given up) is tried again without a second sign-up. */
  const [registered, setRegistered] = useState<string | null>(null);
  const signIn = usePasswordSignIn({ onSignedIn, onError: setError, setBusy });

  async function submit(values: Values) {
    setError(undefined);
    setBusy(true);
    const phone = values.phone ?? '';
    const password = values.password ?? '';
    try {
      if (registered !== phone) {
        await registerByPhone({ phone, password, verifyCode: values.verifyCode ?? '' });
        setRegistered(phone);
      }
      // Self-registered learners belong to the public space: an empty customer code.
      await signIn.start({ custcode: '', username: phone, password });
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
          onFinish={(values) => void submit(values)}
          className="sign-form"
        >
          <Form.Item label={t('fields.phone')} name="phone" rules={[rules.required('phone'), rules.phone]}>
            <Input size="large" inputMode="tel" autoComplete="tel" maxLength={LIMITS.contact} />
          </Form.Item>
          <CodeField formName={formName} targetField="phone" scene="REGISTER" />
          <NewPasswordFields />
          <Form.Item
            name="agreement"
            valuePropName="checked"
            rules={[rules.agreement]}
            className="sign-form__agreement"
          >
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
          <Button kind="primary" size="large" htmlType="submit" block disabled={!filled} loading={busy}>
            {t('submit.signUp')}
          </Button>
        </Form>
      </div>
      {signIn.puzzle}
    </>
  );
}
