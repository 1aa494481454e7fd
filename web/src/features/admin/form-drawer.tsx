import { Button, Drawer, Space } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** A create or edit form in a drawer, so the list stays in view (UX.md "Administration"); Save submits the form. */
export function FormDrawer({
  title,
  width = 440,
  saving,
  onSave,
  onClose,
  children,
}: {
  title: string;
  width?: number;
  saving: boolean;
  onSave: () => void;
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
          <Button type="primary" loading={saving} onClick={onSave}>
            {t('common.save')}
          </Button>
        </Space>
      }
    >
      {children}
    </Drawer>
  );
}
