import { ArrowLeftOutlined, LockOutlined, StopOutlined, TeamOutlined } from '@ant-design/icons';
import type { TGroupDetail } from '@aiedu/contracts';
import { Badge, Skeleton, Tag } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { ApiError } from '../../app/api-client';
import { useLoggedIn } from '../../app/session';
import { SignInCard } from '../../app/sign-in-required';
import { LinkButton } from '../../ui/link-button';
import { StatusCard } from '../../ui/status-card';
import { GroupActions } from './group-actions';
import { useGroupDetail } from './group-api';
import { GROUP_PARTS, GROUPS_PATH, groupPartPath, groupPath, OWNER_PARTS, type GroupPart } from './group-paths';
import './group.css';

/** Whether the caller may open a part of the group: the owner's parts are the owner's, batch registration a teacher's. */
export function mayOpen(group: TGroupDetail, part: GroupPart): boolean {
  if (!OWNER_PARTS.includes(part)) return true;
  if (group.myRole !== 'owner') return false;
  return part !== 'batch-register' || group.canBatchRegister;
}

function BackToGroups() {
  const { t } = useTranslation('group');
  return (
    <LinkButton kind="ghost" to={GROUPS_PATH} icon={<ArrowLeftOutlined />}>
      {t('detail.backToList')}
    </LinkButton>
  );
}

/** A group that cannot be shown: gone, dismissed, or never visible to the caller (another customer's answers 404). */
function GroupMissing({ error }: { error: unknown }) {
  const { t } = useTranslation('group');
  const dismissed = error instanceof ApiError && error.code === '6004';
  return (
    <div className="page">
      <StatusCard
        icon={<StopOutlined />}
        title={t(dismissed ? 'detail.dismissed' : 'detail.missing')}
        lead={t('detail.missingHint')}
        action={<BackToGroups />}
      />
    </div>
  );
}

function GroupHeader({ group }: { group: TGroupDetail }) {
  const { t } = useTranslation('group');
  return (
    <header className="group-head">
      {group.coverUrl ? (
        <img className="group-head__cover" src={group.coverUrl} alt="" />
      ) : (
        <span className="group-head__cover group-head__cover--empty" aria-hidden="true">
          <TeamOutlined />
        </span>
      )}
      <div className="group-head__text">
        <h1 className="group-head__title">
          {group.name} <Tag color={group.myRole === 'owner' ? 'purple' : 'blue'}>{t(`roles.${group.myRole}`)}</Tag>
        </h1>
        {group.description && <p className="group-head__description">{group.description}</p>}
        <dl className="group-facts">
          <div>
            <dt>{t('detail.owner')}</dt>
            <dd>{group.ownerName}</dd>
          </div>
          <div>
            <dt>{t('detail.members')}</dt>
            <dd>{group.memberCount}</dd>
          </div>
          <div>
            <dt>{t('detail.projects')}</dt>
            <dd>{group.projectCount}</dd>
          </div>
          <div>
            <dt>{t('detail.courses')}</dt>
            <dd>{group.courseCount}</dd>
          </div>
          <div>
            <dt>{t('detail.datasets')}</dt>
            <dd>{group.datasetCount}</dd>
          </div>
          <div>
            <dt>{t('detail.joining')}</dt>
            <dd>{t(group.joinReview ? 'detail.joinReviewed' : 'detail.joinDirect')}</dd>
          </div>
        </dl>
      </div>
      <GroupActions group={group} />
    </header>
  );
}

/** The group's pages as links; the owner's review link carries the count of requests waiting. */
function GroupNav({ group, current }: { group: TGroupDetail; current: GroupPart | undefined }) {
  const { t } = useTranslation('group');
  const link = (part: GroupPart | undefined, label: ReactNode) => (
    <li key={part ?? 'overview'}>
      <Link
        className="group-nav__link"
        to={part ? groupPartPath(group.id, part) : groupPath(group.id)}
        aria-current={part === current ? 'page' : undefined}
      >
        {label}
      </Link>
    </li>
  );
  return (
    <nav className="group-nav" aria-label={t('nav.label')}>
      <ul>
        {link(undefined, t('nav.overview'))}
        {GROUP_PARTS.filter((part) => mayOpen(group, part)).map((part) =>
          link(
            part,
            part === 'review' && group.pendingRequests > 0 ? (
              <>
                {t('nav.review')}{' '}
                <Badge
                  count={group.pendingRequests}
                  aria-label={t('nav.pending', { count: group.pendingRequests })}
                  className="group-nav__badge"
                />
              </>
            ) : (
              t(`nav.${part}`)
            ),
          ),
        )}
      </ul>
    </nav>
  );
}

/**
 * Every page of one group: its header (cover, name, description, owner, counts, the caller's role and actions), the
 * navigation between its pages, then the page itself. The owner's pages answer others with the spec's refusal.
 */
export function GroupShell({ part, children }: { part?: GroupPart; children: (group: TGroupDetail) => ReactNode }) {
  const { t } = useTranslation('group');
  const loggedIn = useLoggedIn();
  if (!loggedIn) return <SignInCard title={t('title')} lead={t('list.signIn')} />;
  return <SignedInShell part={part}>{children}</SignedInShell>;
}

function SignedInShell({ part, children }: { part?: GroupPart; children: (group: TGroupDetail) => ReactNode }) {
  const { t } = useTranslation('group');
  const { groupId = '' } = useParams();
  const detail = useGroupDetail(groupId);
  if (detail.isPending) {
    return (
      <div className="page">
        <Skeleton active avatar paragraph={{ rows: 6 }} />
      </div>
    );
  }
  if (detail.isError || !detail.data) return <GroupMissing error={detail.error} />;
  const group = detail.data;
  return (
    <div className="page group-page">
      <BackToGroups />
      <GroupHeader group={group} />
      <GroupNav group={group} current={part} />
      {part && !mayOpen(group, part) ? (
        <StatusCard icon={<LockOutlined />} title={t('noPermissionPage', { ns: 'errors' })} />
      ) : (
        <section className="group-part" aria-labelledby="group-part-title">
          <h2 id="group-part-title" className="group-part__title">
            {part ? t(`nav.${part}`) : t('nav.overview')}
          </h2>
          {children(group)}
        </section>
      )}
    </div>
  );
}
