import { LockOutlined } from '@ant-design/icons';
import { LIMITS } from '@aiedu/contracts';
import { Checkbox, Form, Input } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { readSession } from '../../app/session';
import { useSysSetting } from '../../app/platform';
import { useSignRules } from './sign-rules';

/**
 * The customer (institution) code of the sign-in forms (spec sections 2 and 5): up to 20
 * characters; no field in a one-customer deployment; pre-filled and locked by `?r=` in the page
 * address. An empty code signs into the public space (DECISIONS), so a learner who signed up on
 * their own ticks "personal account" instead of typing one.
 */
export interface CustomerCodeSetup {
  /** The code given by `?r=`: shown, not editable. */
  locked: string | null;
  /** One-customer deployment: the field is not shown. */
  hidden: boolean;
  /** The one customer's code, with `hidden`. */
  single: string | null;
  /** The code last used in this browser. */
  saved: string | null;
}

export interface CustomerCodeValues {
  custcode?: string;
  personal?: boolean;
}

export function useCustomerCodeSetup(): CustomerCodeSetup {
  const [params] = useSearchParams();
  const setting = useSysSetting();
  const [saved] = useState(() => readSession().custcode);
  return {
    locked: params.get('r')?.trim() || null,
    hidden: setting.data?.isCustomerSingle === true,
    single: setting.data?.custcode ?? null,
    saved,
  };
}

export function initialCustomerValues(setup: CustomerCodeSetup): CustomerCodeValues {
  if (setup.locked) return { custcode: setup.locked, personal: false };
  return { custcode: setup.saved ?? '', personal: setup.saved === '' };
}

/** The code to send: locked, hidden (the deployment's one customer, as the server names it), personal (empty) or typed. */
export function customerCodeOf(setup: CustomerCodeSetup, values: CustomerCodeValues): string {
  if (setup.locked) return setup.locked;
  if (setup.hidden) return setup.single ?? setup.saved ?? '';
  if (values.personal) return '';
  return (values.custcode ?? '').trim();
}

/** Whether the customer part of the form is complete. */
export function hasCustomerCode(setup: CustomerCodeSetup, values: CustomerCodeValues): boolean {
  return Boolean(setup.locked || setup.hidden || values.personal || values.custcode?.trim());
}

export function CustomerCodeField({ setup }: { setup: CustomerCodeSetup }) {
  const { t } = useTranslation('sign');
  const rules = useSignRules();
  const form = Form.useFormInstance<CustomerCodeValues>();
  const personal = Form.useWatch('personal', form);
  if (setup.hidden) return null;
  if (setup.locked) {
    return (
      <Form.Item label={t('fields.customerCode')} name="custcode" extra={t('fields.customerCodeLocked')}>
        <Input size="large" readOnly variant="filled" suffix={<LockOutlined aria-hidden="true" />} />
      </Form.Item>
    );
  }
  return (
    <>
      <Form.Item
        label={t('fields.customerCode')}
        name="custcode"
        hidden={personal === true}
        rules={personal ? [] : [rules.required('customerCode'), rules.customerCodeMax]}
      >
        <Input size="large" maxLength={LIMITS.customerCode} autoComplete="organization" />
      </Form.Item>
      <Form.Item name="personal" valuePropName="checked" className="sign-form__personal">
        <Checkbox>{t('fields.personal')}</Checkbox>
      </Form.Item>
    </>
  );
}
