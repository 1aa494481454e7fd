import { ApiOutlined, DisconnectOutlined, TeamOutlined, UserOutlined } from '@ant-design/icons';
import type { TClassroomSession } from '@aiedu/contracts';
import { useTranslation } from 'react-i18next';
import type { LiveClassroom } from './use-live-classroom';

/**
 * What the page is doing, always in view: whether the class follows the teacher or works alone, and whether the page
 * is live, connecting, or (without its socket) checking the class every few seconds.
 */
export function ConnectionBanner({
  role,
  session,
  live,
}: {
  role: 'teacher' | 'student';
  session: TClassroomSession | null;
  live: Pick<LiveClassroom, 'status' | 'polling' | 'pollFailure'>;
}) {
  const { t } = useTranslation('classroom');
  const teaching = session?.status === 'teaching';
  const mode = session?.mode ?? 'follow';
  const connection = live.polling
    ? live.pollFailure
      ? (live.pollFailure.message ?? t('connection.unreachable'))
      : t('connection.polling')
    : live.status === 'live'
      ? t('connection.live')
      : t('connection.connecting');
  return (
    <div className={`classroom-banner classroom-banner--${teaching ? mode : 'waiting'}`} role="status">
      {teaching && (
        <p className="classroom-banner__mode">
          {mode === 'follow' ? <TeamOutlined aria-hidden="true" /> : <UserOutlined aria-hidden="true" />}{' '}
          {t(`mode.${role}.${mode}`)}
        </p>
      )}
      <p className={`classroom-banner__connection${live.polling ? ' classroom-banner__connection--lost' : ''}`}>
        {live.polling ? <DisconnectOutlined aria-hidden="true" /> : <ApiOutlined aria-hidden="true" />} {connection}
      </p>
    </div>
  );
}
