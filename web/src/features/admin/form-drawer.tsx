import { Button, Drawer, Form, Space, type FormInstance, type FormProps } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * A create or edit form in a drawer, so the list stays in view (UX.md "Administration"); Save submits `form`.
 * With `onFinish` the drawer holds the form itself (vertical layout, `initialValues`) and `children` are its
 * fields; without, `children` place `form` where they need it.
 */
export function FormDrawer<V extends object>({
  title,
  width = 440,
  saving,
  form,
  initialValues,
  onFinish,
  onClose,
  children,
}: {
  title: string;
  width?: number;
  saving: boolean;
  form: FormInstance<V>;
  initialValues?: FormProps<V>['initialValues'];
  onFinish?: (values: V) => void;
  onClose: () => void;
  children: ReactNode;
}) {
  const { t } = useTranslation('admin');
  return (
    <Drawer
      open
      width={width}
      title={title}
      onClose={onClose}
      extra={
        <Space>
          <Button onClick={onClose}>{t('common.cancel')}</Button>
          <Button type="primary" loading={saving} onClick={() => form.submit()}>
            {t('common.save')}
          </Button>
        </Space>
      }
    >
      {onFinish ? (
        <Form<V> form={form} layout="vertical" initialValues={initialValues} onFinish={onFinish}>
          {children}
        </Form>
      ) : (
        children
      )}
    </Drawer>
  );
}
