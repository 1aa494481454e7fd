import { DesktopOutlined, TeamOutlined } from '@ant-design/icons';
import type { TScheduleDetail } from '@aiedu/contracts';
import { useTranslation } from 'react-i18next';
import { LinkButton } from '../../ui/link-button';
import { classroomPath } from './classroom-paths';

/**
 * The way into the live classroom from a schedule: "Teach" for its teachers while it is in progress ("Lesson notes"
 * before, to prepare, and after, to read them again), "Join the class" for its students while it is in progress.
 */
export function ClassroomEntry({ schedule }: { schedule: Pick<TScheduleDetail, 'id' | 'role' | 'status'> }) {
  const { t } = useTranslation('classroom');
  const teacher = schedule.role === 'teacher';
  const live = schedule.status === 'inProgress';
  if (!teacher && !live) return null;
  return (
    <LinkButton
      kind={live ? 'primary' : 'secondary'}
      size="large"
      to={classroomPath(schedule.id)}
      icon={teacher ? <DesktopOutlined aria-hidden="true" /> : <TeamOutlined aria-hidden="true" />}
    >
      {!teacher ? t('entry.join') : live ? t('entry.teach') : t('entry.notes')}
    </LinkButton>
  );
}
