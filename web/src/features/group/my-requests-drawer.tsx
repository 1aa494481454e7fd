import type { GroupRequestState } from '@aiedu/contracts';
import { Drawer, Empty, Skeleton, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDateTime } from '../../ui/dates';
import { useMyJoinRequests } from './group-api';
import { groupPath } from './group-paths';
import { STATUS_COLORS } from '../../ui/status-colors';

export const STATE_COLORS: Record<GroupRequestState, string> = {
  pending: STATUS_COLORS.processing,
  approved: STATUS_COLORS.success,
  refused: STATUS_COLORS.error,
};

/** The caller's requests to join groups whose owner reviews newcomers, with each outcome and a refusal's reason. */
export function MyRequestsDrawer({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation('group');
  const requests = useMyJoinRequests(true);
  return (
    <Drawer open width={480} title={t('requests.title')} onClose={onClose}>
      {requests.isPending ? (
        <Skeleton active />
      ) : (requests.data?.list.length ?? 0) === 0 ? (
        <Empty description={t('requests.empty')} />
      ) : (
        <ul className="group-requests">
          {(requests.data?.list ?? []).map((request) => (
            <li key={request.id} className="group-request">
              <div className="group-request__head">
                {request.state === 'approved' ? (
                  <Link to={groupPath(request.groupId)}>{request.groupName}</Link>
                ) : (
                  <strong>{request.groupName}</strong>
                )}
                <Tag color={STATE_COLORS[request.state]}>{t(`requests.states.${request.state}`)}</Tag>
              </div>
              <p className="group-muted">
                {t('requests.sentAt', { at: formatDateTime(request.createdAt) })}
                {request.decidedAt && ` · ${t('requests.decidedAt', { at: formatDateTime(request.decidedAt) })}`}
              </p>
              {request.state === 'refused' && (
                <p>{request.reason ? t('requests.reason', { reason: request.reason }) : t('requests.noReason')}</p>
              )}
              {request.state === 'pending' && <p className="group-muted">{t('join.pendingBody')}</p>}
            </li>
          ))}
        </ul>
      )}
    </Drawer>
  );
}
