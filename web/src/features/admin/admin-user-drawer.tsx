import {
  ROLES,
  SCHOOL_ROLES,
  ZCreateAdminUserRequest,
  hasPermission,
  type AdminRole,
  type TAdminUser,
  type TCustomer,
  type TCustomRole,
  type TPage,
} from '@aiedu/contracts';
import { useQuery } from '@tanstack/react-query';
import { Form, Input, Select } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../app/api';
import { useSessionRoles } from '../../app/session';
import { schemaRule } from '../../ui/form-rules';
import { encodePassword } from '../../ui/password-encoding';
import { ADMIN_API, useAdminMutation } from './admin-api';
import { AccountNameFields, SchoolField, AlsoTeacherField, InitialPasswordField } from './account-fields';
import { FormDrawer } from './form-drawer';

interface Values {
  role?: AdminRole;
  customerId?: string;
  schoolId?: string;
  username?: string;
  realName: string;
  phone?: string;
  password?: string;
  alsoTeacher?: boolean;
  customRoleId?: string;
}

const F = ZCreateAdminUserRequest.shape;
/** The choice of the caller's own institution: the account is created without a `customerId`, in the caller's. */
const OWN = 'own';

/**
 * The institutions an institution administrator of `role` can be placed in: a customer administrator belongs to
 * a top-level customer, a sub-customer administrator to a sub-customer. Super administrators search every
 * customer; a customer administrator chooses its own customer or one of its sub-customers.
 */
function useInstitutionOptions(role: AdminRole | undefined, keyword: string) {
  const { t } = useTranslation('admin');
  const roles = useSessionRoles();
  const isSuper = roles.includes(ROLES.super);
  const wantsSub = role === ROLES.subCustomerAdmin;
  const customers = useQuery({
    queryKey: [ADMIN_API.customers, { keyword, size: 50 }],
    queryFn: () => api.get<TPage<TCustomer>>(ADMIN_API.customers, { query: { keyword, size: 50 } }),
    enabled: isSuper,
  });
  const subCustomers = useQuery({
    queryKey: [ADMIN_API.subCustomers],
    queryFn: () => api.get<TCustomer[]>(ADMIN_API.subCustomers),
    enabled: !isSuper && wantsSub && hasPermission(roles, 'subCustomer.manage'),
  });
  const label = (c: TCustomer) => `${c.name} (${c.code})`;
  if (isSuper) {
    return (customers.data?.list ?? [])
      .filter((c) => (c.parentId !== null) === wantsSub)
      .map((c) => ({ value: c.id, label: label(c) }));
  }
  const own = [{ value: OWN, label: t('users.ownInstitution') }];
  // A sub-customer administrator's own customer is itself a sub-customer; a customer administrator's is not.
  const ownFits = wantsSub === roles.includes(ROLES.subCustomerAdmin);
  return [...(ownFits ? own : []), ...(subCustomers.data ?? []).map((c) => ({ value: c.id, label: label(c) }))];
}

/**
 * The custom roles an account of `role` can be given (switched on, of that base role), with the one it holds even
 * while switched off, so the form shows it by name.
 */
function useCustomRoleOptions(role: AdminRole | undefined, held: TAdminUser | null) {
  const roles = useQuery({
    queryKey: [ADMIN_API.roleSearch, { baseRole: role, enabled: 'true', size: 100 }],
    queryFn: () =>
      api.get<TPage<TCustomRole>>(ADMIN_API.roleSearch, { query: { baseRole: role, enabled: 'true', size: 100 } }),
    enabled: role !== undefined,
  });
  const options = (roles.data?.list ?? []).map((r) => ({ value: r.id, label: r.name }));
  if (held?.customRoleId && !options.some((o) => o.value === held.customRoleId)) {
    options.push({ value: held.customRoleId, label: held.customRoleName ?? '' });
  }
  return options;
}

/**
 * Creates or edits an administrator account: role (from `/api/v1/role`) and custom role, where it belongs, and
 * whether it teaches.
 */
export function AdminUserDrawer({
  user,
  roleOptions,
  onClose,
}: {
  user: TAdminUser | null;
  roleOptions: { value: AdminRole; label: string }[];
  onClose: () => void;
}) {
  const { t } = useTranslation('admin');
  const [form] = Form.useForm<Values>();
  const [keyword, setKeyword] = useState('');
  const creating = user === null;
  const role = (Form.useWatch('role', form) ?? user?.roles.find((r) => roleOptions.some((o) => o.value === r))) as
    AdminRole | undefined;
  const schoolRole = role !== undefined && SCHOOL_ROLES.includes(role);
  const institutions = useInstitutionOptions(creating && !schoolRole ? role : undefined, keyword);
  const customRoles = useCustomRoleOptions(role, user);
  const save = useAdminMutation(
    ({ password, customerId, username, role: chosen, schoolId, customRoleId, ...values }: Values) =>
      user
        ? api.put(`${ADMIN_API.users}/${user.id}`, {
            ...values,
            phone: values.phone || null,
            // Sent only when changed: nobody may change their own, and editing one's name must still work.
            ...((customRoleId ?? null) !== user.customRoleId ? { customRoleId: customRoleId ?? null } : {}),
          })
        : api.post(ADMIN_API.users, {
            ...values,
            customRoleId: customRoleId ?? undefined,
            username,
            role: chosen,
            phone: values.phone || undefined,
            customerId: customerId === OWN ? undefined : customerId,
            schoolId: schoolRole ? schoolId : undefined,
            alsoTeacher: schoolRole ? values.alsoTeacher : undefined,
            password: encodePassword(password ?? ''),
          }),
    [ADMIN_API.users, ADMIN_API.teachers],
    onClose,
  );
  const initial: Values = user
    ? {
        username: user.username,
        realName: user.realName,
        phone: user.phone ?? undefined,
        alsoTeacher: user.alsoTeacher,
        customRoleId: user.customRoleId ?? undefined,
      }
    : { realName: '', alsoTeacher: false };

  return (
    <FormDrawer
      title={t(creating ? 'users.new' : 'users.edit')}
      width={480}
      saving={save.isPending}
      form={form}
      initialValues={initial}
      onFinish={(values) => save.mutate(values)}
      onClose={onClose}
    >
      {creating && (
        <Form.Item name="role" label={t('users.role')} rules={[{ required: true, message: t('form.required') }]}>
          <Select
            options={roleOptions}
            onChange={() => form.setFieldsValue({ customerId: undefined, customRoleId: undefined })}
          />
        </Form.Item>
      )}
      {creating && role && !schoolRole && (
        <Form.Item
          name="customerId"
          label={t('users.institution')}
          rules={[{ required: true, message: t('form.required') }]}
        >
          <Select
            showSearch={{ filterOption: false, onSearch: setKeyword }}
            options={institutions}
            notFoundContent={t('users.noInstitution')}
          />
        </Form.Item>
      )}
      {creating && schoolRole && <SchoolField label={t('people.school')} />}
      <AccountNameFields creating={creating} shape={F} />
      <Form.Item name="phone" label={t('people.phone')} rules={[schemaRule(F.phone, t('form.phone'))]}>
        <Input inputMode="numeric" maxLength={11} />
      </Form.Item>
      {role && (
        <Form.Item name="customRoleId" label={t('users.customRole')} extra={t('users.customRoleHint')}>
          <Select allowClear options={customRoles} />
        </Form.Item>
      )}
      {schoolRole && <AlsoTeacherField hint={t('users.alsoTeacherHint')} />}
      {creating && <InitialPasswordField />}
    </FormDrawer>
  );
}
