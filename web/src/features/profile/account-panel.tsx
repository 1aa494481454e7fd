import { isContact, LIMITS } from '@aiedu/contracts';
import { Descriptions, Form, Input } from 'antd';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../app/feedback';
import { useUserInfo } from '../../app/user-info';
import { Button } from '../../ui/button';
import { FormError } from '../../ui/form-error';
import { CodeField } from '../sign/code-field';
import { formErrorMessage } from '../sign/sign-api';
import { useBindContact } from './profile-api';

interface Values {
  target?: string;
  verifyCode?: string;
}

/** Account information and binding a phone or email with a code sent to it (scene BIND). */
export function AccountPanel() {
  const { t } = useTranslation('profile');
  const user = useUserInfo();
  const bind = useBindContact();
  const formName = `profile-bind${useId()}`;
  const [form] = Form.useForm<Values>();
  const [error, setError] = useState<string>();
  if (!user.data) return null;
  const none = t('account.none');

  function submit(values: Values) {
    setError(undefined);
    bind.mutate(
      { target: (values.target ?? '').trim(), verifyCode: values.verifyCode ?? '' },
      {
        onSuccess: () => {
          form.resetFields();
          toast.success(t('account.bound'));
        },
        onError: (failure) => setError(formErrorMessage(failure)),
      },
    );
  }

  return (
    <>
      <Descriptions
        className="profile-contact"
        column={1}
        bordered
        items={[
          { key: 'username', label: t('account.username'), children: user.data.username },
          { key: 'custcode', label: t('account.custcode'), children: user.data.custcode || t('account.publicSpace') },
          { key: 'phone', label: t('account.phone'), children: user.data.phone ?? none },
          { key: 'email', label: t('account.email'), children: user.data.email ?? none },
        ]}
      />
      <h3>{t('account.bindTitle')}</h3>
      <p>{t('account.bindLead')}</p>
      <Form form={form} name={formName} layout="vertical" requiredMark={false} onFinish={submit}>
        <Form.Item
          label={t('account.target')}
          name="target"
          rules={[
            { required: true, whitespace: true, message: t('account.targetRequired') },
            {
              validator: (_rule, value: unknown) =>
                !value || isContact(String(value).trim())
                  ? Promise.resolve()
                  : Promise.reject(new Error(t('account.targetInvalid'))),
            },
          ]}
        >
          <Input size="large" maxLength={LIMITS.email} autoComplete="email" />
        </Form.Item>
        <CodeField formName={formName} targetField="target" scene="BIND" ready={(value) => isContact(value.trim())} />
        <FormError message={error} />
        <Button kind="primary" size="large" htmlType="submit" loading={bind.isPending}>
          {t('account.bind')}
        </Button>
      </Form>
    </>
  );
}
