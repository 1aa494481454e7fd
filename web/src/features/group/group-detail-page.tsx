import { BookOutlined, CodeOutlined, DatabaseOutlined, KeyOutlined, TeamOutlined } from '@ant-design/icons';
import type { TGroupDetail } from '@aiedu/contracts';
import { Alert, Card } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { LinkButton } from '../../ui/link-button';
import { groupPartPath, type GroupPart } from './group-paths';
import { GroupShell } from './group-shell';

function PartCard({
  group,
  part,
  icon,
  count,
}: {
  group: TGroupDetail;
  part: GroupPart;
  icon: ReactNode;
  count: string;
}) {
  const { t } = useTranslation('group');
  return (
    <Card className="group-overview__card">
      <span className="group-overview__icon" aria-hidden="true">
        {icon}
      </span>
      <h3 className="group-overview__title">
        <Link to={groupPartPath(group.id, part)}>{t(`nav.${part}`)}</Link>
      </h3>
      <p className="group-muted">{count}</p>
    </Card>
  );
}

/** A group at a glance: its members, projects and courses; for the owner, the requests waiting and the code. */
function Overview({ group }: { group: TGroupDetail }) {
  const { t } = useTranslation('group');
  const owner = group.myRole === 'owner';
  return (
    <div className="group-overview">
      {owner && group.pendingRequests > 0 && (
        <Alert
          type="info"
          showIcon
          title={t('overview.pending', { count: group.pendingRequests })}
          action={
            <LinkButton kind="primary" to={groupPartPath(group.id, 'review')}>
              {t('overview.review')}
            </LinkButton>
          }
        />
      )}
      <div className="group-overview__cards">
        <PartCard
          group={group}
          part="members"
          icon={<TeamOutlined />}
          count={t('overview.members', { count: group.memberCount })}
        />
        <PartCard
          group={group}
          part="projects"
          icon={<CodeOutlined />}
          count={t('overview.projects', { count: group.projectCount })}
        />
        <PartCard
          group={group}
          part="courses"
          icon={<BookOutlined />}
          count={t('overview.courses', { count: group.courseCount })}
        />
        <PartCard
          group={group}
          part="datasets"
          icon={<DatabaseOutlined />}
          count={t('overview.datasets', { count: group.datasetCount })}
        />
        {owner && group.invitation && (
          <PartCard
            group={group}
            part="invitation"
            icon={<KeyOutlined />}
            count={
              group.invitation.enabled
                ? t('overview.code', { code: group.invitation.code })
                : t('invitation.disabledState')
            }
          />
        )}
      </div>
      {!owner && <p className="group-muted">{t('overview.memberNote')}</p>}
    </div>
  );
}

export function GroupDetailPage() {
  return <GroupShell>{(group) => <Overview group={group} />}</GroupShell>;
}
