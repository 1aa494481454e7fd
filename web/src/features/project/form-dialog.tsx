import { UI_SIZES } from '@aiedu/contracts';
import { Form, Modal } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** A dialog around one form: OK submits it, and the dialog closes once `onSubmit` succeeds. */
export function FormDialog<T extends object>({
  open,
  title,
  okText,
  width = UI_SIZES.confirmDialogWidth,
  initialValues,
  onSubmit,
  onClose,
  children,
}: {
  open: boolean;
  title: string | undefined;
  okText?: string;
  width?: number;
  initialValues: Partial<T>;
  onSubmit(values: T): Promise<void>;
  onClose(): void;
  children: ReactNode;
}) {
  const { t } = useTranslation('project');
  const [form] = Form.useForm<T>();
  return (
    <Modal
      open={open}
      title={title}
      width={width}
      okText={okText ?? t('tree.ok')}
      cancelText={t('tree.cancel')}
      destroyOnHidden
      onCancel={onClose}
      onOk={() => form.submit()}
    >
      <Form<T>
        form={form}
        layout="vertical"
        initialValues={initialValues}
        onFinish={async (values) => {
          await onSubmit(values);
          onClose();
        }}
      >
        {children}
      </Form>
    </Modal>
  );
}
