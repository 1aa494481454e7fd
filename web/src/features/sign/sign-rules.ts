import { isContact, isValidPassword, LIMITS, PHONE, type PasswordStrength } from '@aiedu/contracts';
import type { FormRule } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';

export type RequiredField =
  | 'customerCode'
  | 'username'
  | 'password'
  | 'phone'
  | 'contact'
  | 'code'
  | 'oldPassword'
  | 'newPassword'
  | 'confirmPassword';

/** The form rules of spec section 5 with their messages, built on the shared patterns of the contracts. */
export function useSignRules() {
  const { t } = useTranslation('sign');
  return useMemo(() => {
    const required = (field: RequiredField): FormRule => ({
      required: true,
      whitespace: true,
      message: t(`validation.required.${field}`),
    });
    const max = (length: number): FormRule => ({ max: length, message: t('validation.max', { max: length }) });
    const phone: FormRule = { pattern: PHONE, message: t('validation.phone') };
    const contact: FormRule = {
      validator: (_rule, value: unknown) =>
        !value || isContact(String(value)) ? Promise.resolve() : Promise.reject(new Error(t('validation.contact'))),
    };
    const code: FormRule = { pattern: /^\d{6}$/, message: t('validation.code') };
    /** A password of the rule the form uses (spec 5; see `ownPasswordRule` and docs/api.md). */
    const newPassword = (rule: PasswordStrength): FormRule => ({
      validator: (_rule, value: unknown) =>
        !value || isValidPassword(String(value), rule)
          ? Promise.resolve()
          : Promise.reject(
              new Error(t(rule === 'strong' ? 'validation.passwordPatternStrong' : 'validation.passwordPattern')),
            ),
    });
    /** The confirmation must equal the field `name` (spec: 'The two passwords you typed do not match'). */
    const sameAs =
      (name: string): FormRule =>
      ({ getFieldValue }) => ({
        validator: (_rule, value: unknown) =>
          !value || value === getFieldValue(name)
            ? Promise.resolve()
            : Promise.reject(new Error(t('validation.passwordMismatch'))),
      });
    const agreement: FormRule = {
      validator: (_rule, value: unknown) =>
        value ? Promise.resolve() : Promise.reject(new Error(t('validation.agreement'))),
    };
    return {
      required,
      max,
      phone,
      contact,
      code,
      newPassword,
      sameAs,
      agreement,
      customerCodeMax: max(LIMITS.customerCode),
      loginPasswordMax: max(LIMITS.loginPassword),
    };
  }, [t]);
}
