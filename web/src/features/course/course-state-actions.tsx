import { UI_SIZES, type TEditableCourse } from '@aiedu/contracts';
import { Button, Modal } from 'antd';
import { useTranslation } from 'react-i18next';

type Action = 'publish' | 'revision' | 'abandon-revision' | 'close';

/** The owner's state changes of spec section 4, each offered only where it is allowed; destructive ones confirm. */
export function CourseStateActions({
  course,
  onAction,
}: {
  course: TEditableCourse;
  onAction: (a: Action) => Promise<unknown>;
}) {
  const { t } = useTranslation('course');
  // Confirmations render inside the page (its theme and language), not in a root of their own.
  const [modal, modalHost] = Modal.useModal();
  if (!course.isOwner || course.status === 'closed') return null;
  const confirm = (action: Action, title: string, danger = false) =>
    modal.confirm({
      width: UI_SIZES.confirmDialogWidth,
      title,
      okText: t('editor.confirm'),
      cancelText: t('editor.cancel'),
      okButtonProps: { danger },
      onOk: () => onAction(action),
    });
  return (
    <div className="course-state-actions">
      {modalHost}
      {(course.status === 'draft' || course.status === 'modifying') && (
        <Button type="primary" size="large" onClick={() => confirm('publish', t('editor.publishConfirm'))}>
          {t('editor.publish')}
        </Button>
      )}
      {course.status === 'published' && (
        <Button size="large" onClick={() => void onAction('revision')} title={t('editor.reviseHint')}>
          {t('editor.revise')}
        </Button>
      )}
      {course.status === 'modifying' && (
        <Button size="large" onClick={() => void onAction('abandon-revision')}>
          {t('editor.abandon')}
        </Button>
      )}
      <Button danger size="large" onClick={() => confirm('close', t('editor.closeConfirm'), true)}>
        {t('editor.close')}
      </Button>
    </div>
  );
}
