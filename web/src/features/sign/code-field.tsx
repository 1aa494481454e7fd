import { Form, Input } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSignRules } from './sign-rules';

/**
 * The six-digit code input with its "send code" button beside it. The outer item carries the label
 * and shows the inner field's errors; `formName` builds the input's id so the label points at it.
 */
export function CodeField({
  formName,
  name = 'verifyCode',
  button,
}: {
  formName: string;
  name?: string;
  button: ReactNode;
}) {
  const { t } = useTranslation('sign');
  const rules = useSignRules();
  return (
    <Form.Item label={t('fields.code')} htmlFor={`${formName}_${name}`} required>
      <div className="sign-form__code-row">
        <Form.Item name={name} noStyle rules={[rules.required('code'), rules.code]}>
          <Input size="large" inputMode="numeric" autoComplete="one-time-code" maxLength={6} />
        </Form.Item>
        {button}
      </div>
    </Form.Item>
  );
}
