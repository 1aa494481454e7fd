import { Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { SendCodeButton } from './send-code-button';
import type { CodeScene } from './sign-api';
import { useSignRules } from './sign-rules';

export interface CodeFieldProps {
  formName: string;
  name?: string;
  /** The form field holding the phone number or email the code goes to. */
  targetField: string;
  scene: CodeScene;
  custcode?: string;
  /** Whether the target looks complete (default: longer than 10 characters, spec 5). */
  ready?: (target: string) => boolean;
}

/**
 * The six-digit code input with its "send code" button beside it. The button checks the target
 * field first and shows a refusal (taken, not registered) on it. The outer item carries the label
 * and shows the inner field's errors; `formName` builds the input's id so the label points at it.
 */
export function CodeField({ formName, name = 'verifyCode', targetField, scene, custcode, ready }: CodeFieldProps) {
  const { t } = useTranslation('sign');
  const rules = useSignRules();
  const form = Form.useFormInstance();
  const target = String(Form.useWatch(targetField, form) ?? '').trim();
  return (
    <Form.Item label={t('fields.code')} htmlFor={`${formName}_${name}`} required>
      <div className="sign-form__code-row">
        <Form.Item name={name} noStyle rules={[rules.required('code'), rules.code]}>
          <Input size="large" inputMode="numeric" autoComplete="one-time-code" maxLength={6} />
        </Form.Item>
        <SendCodeButton
          target={target}
          scene={scene}
          custcode={custcode}
          ready={ready?.(target)}
          beforeSend={() =>
            form.validateFields([targetField]).then(
              () => true,
              () => false,
            )
          }
          onError={(message) => form.setFields([{ name: targetField, errors: [message] }])}
        />
      </div>
    </Form.Item>
  );
}
