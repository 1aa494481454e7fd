import { Form, Input, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { api } from '../../app/api';
import { encodePassword } from '../../ui/password-encoding';
import { adminSetPasswordRule } from './account-fields';
import { useAdminMutation } from './admin-api';

/** Sets a new password (6–20 visible characters) that the person must change at the next sign-in. */
export function PasswordDialog({ path, name, onClose }: { path: string; name: string; onClose: () => void }) {
  const { t } = useTranslation('admin');
  const [form] = Form.useForm<{ password: string }>();
  const reset = useAdminMutation(
    ({ password }: { password: string }) => api.put(path, { password: encodePassword(password) }),
    [],
    onClose,
  );
  return (
    <Modal
      open
      title={t('people.resetTitle', { name })}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      confirmLoading={reset.isPending}
      onOk={() => form.submit()}
      onCancel={onClose}
    >
      <p>{t('people.resetBody')}</p>
      <Form form={form} layout="vertical" onFinish={(values) => reset.mutate(values)}>
        <Form.Item name="password" label={t('people.newPassword')} rules={[adminSetPasswordRule(t('form.password'))]}>
          <Input.Password autoComplete="new-password" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
