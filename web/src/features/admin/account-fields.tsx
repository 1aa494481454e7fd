import { ADMIN_SET_PASSWORD_RULE, isValidPassword } from '@aiedu/contracts';
import { Form, Input, Select, Switch, type FormRule } from 'antd';
import { useTranslation } from 'react-i18next';
import { schemaRule } from '../../ui/form-rules';
import { useSchoolOptions } from './admin-api';

/** Anything with zod's `safeParse`: the fields of the contracts' request schemas. */
interface Schema {
  safeParse(value: unknown): { success: boolean };
}

/** Username (fixed once the account exists) and name of an account form, checked with the contracts' schemas. */
export function AccountNameFields({
  creating,
  shape,
}: {
  creating: boolean;
  shape: { username: Schema; realName: Schema };
}) {
  const { t } = useTranslation('admin');
  return (
    <>
      <Form.Item
        name="username"
        label={t('people.username')}
        rules={creating ? [schemaRule(shape.username, t('form.username'))] : []}
      >
        <Input disabled={!creating} autoComplete="off" />
      </Form.Item>
      <Form.Item name="realName" label={t('people.realName')} rules={[schemaRule(shape.realName, t('form.realName'))]}>
        <Input />
      </Form.Item>
    </>
  );
}

/**
 * The rule of a password an administrator sets for someone (spec 5's weak rule: 6–20 visible ASCII characters, as the
 * server checks it); its holder must change it at the next sign-in.
 */
export function adminSetPasswordRule(message: string): FormRule {
  return {
    required: true,
    validator: (_rule, value: unknown) =>
      typeof value === 'string' && isValidPassword(value, ADMIN_SET_PASSWORD_RULE)
        ? Promise.resolve()
        : Promise.reject(new Error(message)),
  };
}

/** The first password an administrator gives an account; its owner must change it at the first sign-in. */
export function InitialPasswordField({ name = 'password' }: { name?: string }) {
  const { t } = useTranslation('admin');
  return (
    <Form.Item
      name={name}
      label={t('people.initialPassword')}
      extra={t('people.initialPasswordHint')}
      rules={[adminSetPasswordRule(t('form.password'))]}
    >
      <Input.Password autoComplete="new-password" />
    </Form.Item>
  );
}

/** Whether a school's administrator also teaches there (see `alsoTeacher` in docs/api.md). */
export function AlsoTeacherField({ hint }: { hint: string }) {
  const { t } = useTranslation('admin');
  return (
    <Form.Item name="alsoTeacher" label={t('users.alsoTeacher')} extra={hint} valuePropName="checked">
      <Switch />
    </Form.Item>
  );
}

/** The school an account or class belongs to, among the schools the administrator administers. */
export function SchoolField({ label }: { label: string }) {
  const { t } = useTranslation('admin');
  const schools = useSchoolOptions();
  return (
    <Form.Item name="schoolId" label={label} rules={[{ required: true, message: t('form.required') }]}>
      <Select options={(schools.data ?? []).map((s) => ({ value: s.id, label: s.name }))} />
    </Form.Item>
  );
}
