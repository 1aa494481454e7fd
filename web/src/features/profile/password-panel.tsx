import { LIMITS } from '@aiedu/contracts';
import { Form, Input } from 'antd';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../app/feedback';
import { Button } from '../../ui/button';
import { FormError } from '../../ui/form-error';
import { NewPasswordFields } from '../sign/new-password-fields';
import { formErrorMessage } from '../sign/sign-api';
import { useSignRules } from '../sign/sign-rules';
import { useChangePassword } from './profile-api';

interface Values {
  oldPassword?: string;
  password?: string;
  confirm?: string;
}

/** Account and password: the current password and a new one (spec 5); other sessions end. */
export function PasswordPanel() {
  const { t } = useTranslation('profile');
  const { t: tSign } = useTranslation('sign');
  const rules = useSignRules();
  const change = useChangePassword();
  const formName = `profile-password${useId()}`;
  const [form] = Form.useForm<Values>();
  const [error, setError] = useState<string>();

  function submit(values: Values) {
    setError(undefined);
    change.mutate(
      { oldPassword: values.oldPassword ?? '', newPassword: values.password ?? '' },
      {
        onSuccess: () => {
          form.resetFields();
          toast.success(t('password.changed'));
        },
        onError: (failure) => setError(formErrorMessage(failure)),
      },
    );
  }

  return (
    <Form form={form} name={formName} layout="vertical" requiredMark={false} onFinish={submit}>
      <p>{t('password.lead')}</p>
      <Form.Item label={t('password.old')} name="oldPassword" rules={[rules.required('oldPassword')]}>
        <Input.Password size="large" maxLength={LIMITS.loginPassword} autoComplete="current-password" />
      </Form.Item>
      <NewPasswordFields />
      <FormError message={error} />
      <Button kind="primary" size="large" htmlType="submit" loading={change.isPending}>
        {tSign('forcedChange.submit')}
      </Button>
    </Form>
  );
}
