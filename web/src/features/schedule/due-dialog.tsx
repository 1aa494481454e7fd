import { UI_SIZES } from '@aiedu/contracts';
import { Checkbox, DatePicker, Modal } from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { dayjs } from '../../ui/dates';
import { useScheduleMutation } from './schedule-api';

/** A due time to set (a task's for everyone, or one student's own), or none at all. */
export function DueDialog({
  title,
  initial,
  onSave,
  onClose,
}: {
  title: string;
  initial: string | null;
  onSave: (dueAt: string | null) => Promise<unknown>;
  onClose: () => void;
}) {
  const { t } = useTranslation('schedule');
  const [value, setValue] = useState<Dayjs | null>(initial ? dayjs(initial) : null);
  const [none, setNone] = useState(initial === null);
  const save = useScheduleMutation((dueAt: string | null) => onSave(dueAt), onClose);
  return (
    <Modal
      open
      width={UI_SIZES.confirmDialogWidth}
      title={title}
      okText={t('due.save')}
      cancelText={t('common.cancel', { ns: 'admin' })}
      okButtonProps={{ disabled: !none && !value }}
      confirmLoading={save.isPending}
      onOk={() => save.mutate(none ? null : value!.toISOString())}
      onCancel={onClose}
    >
      <DatePicker
        aria-label={t('due.when')}
        showTime
        format="YYYY-MM-DD HH:mm"
        value={value}
        disabled={none}
        onChange={setValue}
        style={{ width: '100%' }}
      />
      <Checkbox checked={none} onChange={(e) => setNone(e.target.checked)} className="schedule-due-none">
        {t('due.none')}
      </Checkbox>
    </Modal>
  );
}
