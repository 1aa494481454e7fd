import { ADMIN_ROLES, CUSTOM_ROLE_LIMITS, permissionsOfRole, type AdminRole, type TCustomRole } from '@aiedu/contracts';
import { Checkbox, Form, Input, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { api } from '../../app/api';
import { ADMIN_API, useAdminMutation } from './admin-api';
import { FormDrawer } from './form-drawer';

interface Values {
  name: string;
  description: string;
  baseRole?: AdminRole;
  permissions: string[];
}

/**
 * Creates or edits a custom role: its name, description, the built-in role it narrows (chosen once) and which of
 * that role's permissions its holders keep.
 */
export function CustomRoleDrawer({ role, onClose }: { role: TCustomRole | null; onClose: () => void }) {
  const { t } = useTranslation('admin');
  const [form] = Form.useForm<Values>();
  const baseRole = (Form.useWatch('baseRole', form) ?? role?.baseRole) as AdminRole | undefined;
  const save = useAdminMutation(
    ({ baseRole: chosen, ...values }: Values) =>
      role
        ? api.put(`${ADMIN_API.roles}/${role.id}`, values)
        : api.post(ADMIN_API.roles, { ...values, baseRole: chosen }),
    [ADMIN_API.roleSearch],
    onClose,
  );
  const required = { required: true, message: t('form.required') };
  return (
    <FormDrawer
      title={t(role ? 'customRoles.edit' : 'customRoles.new')}
      width={520}
      saving={save.isPending}
      form={form}
      initialValues={
        role
          ? { name: role.name, description: role.description, baseRole: role.baseRole, permissions: role.permissions }
          : { name: '', description: '', permissions: [] }
      }
      onFinish={(values) => save.mutate(values)}
      onClose={onClose}
    >
      <Form.Item
        name="name"
        label={t('customRoles.name')}
        rules={[required, { whitespace: true, message: t('form.required') }]}
      >
        <Input maxLength={CUSTOM_ROLE_LIMITS.name} showCount />
      </Form.Item>
      <Form.Item name="description" label={t('customRoles.description')}>
        <Input.TextArea maxLength={CUSTOM_ROLE_LIMITS.description} showCount rows={2} />
      </Form.Item>
      <Form.Item
        name="baseRole"
        label={t('customRoles.baseRole')}
        rules={[required]}
        extra={role ? t('customRoles.baseRoleFixed') : t('customRoles.baseRoleHint')}
      >
        <Select
          disabled={role !== null}
          options={ADMIN_ROLES.map((r) => ({ value: r, label: t(`roles.${r}`) }))}
          onChange={() => form.setFieldValue('permissions', [])}
        />
      </Form.Item>
      {baseRole && (
        <Form.Item
          name="permissions"
          label={t('customRoles.permissions')}
          extra={t('customRoles.permissionsHint')}
          // A validator rather than `required`: antd would put aria-required on the checkbox group, which its role
          // does not allow.
          rules={[
            {
              validator: (_, value?: string[]) =>
                value?.length ? Promise.resolve() : Promise.reject(new Error(t('customRoles.permissionsRequired'))),
            },
          ]}
        >
          <Checkbox.Group
            className="admin-permissions"
            options={permissionsOfRole(baseRole).map((p) => ({ value: p, label: t(`permissions.${p}`) }))}
          />
        </Form.Item>
      )}
    </FormDrawer>
  );
}
