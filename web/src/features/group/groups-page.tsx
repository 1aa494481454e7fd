import { KeyOutlined, PlusOutlined, TeamOutlined, UnorderedListOutlined } from '@ant-design/icons';
import { GROUP_SCOPES, type GroupScope, type TGroup } from '@aiedu/contracts';
import { Card, Empty, Pagination, Skeleton, Space, Tabs, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { useLoggedIn } from '../../app/session';
import { SignInCard } from '../../app/sign-in-required';
import { Button } from '../../ui/button';
import { SearchInput, usePageButtons, useTabsMore } from '../../ui/named-icons';
import { useGroupList } from './group-api';
import { GroupFormDialog } from './group-form-dialog';
import { groupPath } from './group-paths';
import { JoinGroupDialog } from './join-group-dialog';
import { MyRequestsDrawer } from './my-requests-drawer';
import './group.css';

const PAGE_SIZE = 12;

function GroupCard({ group }: { group: TGroup }) {
  const { t } = useTranslation('group');
  return (
    <Card
      className="group-card"
      cover={
        group.coverUrl ? (
          <img src={group.coverUrl} alt="" className="group-card__cover" />
        ) : (
          <div className="group-card__cover group-card__cover--empty" aria-hidden="true">
            <TeamOutlined />
          </div>
        )
      }
    >
      <h2 className="group-card__title">
        <Link to={groupPath(group.id)}>{group.name}</Link>
      </h2>
      <p className="group-card__meta">{t('list.by', { name: group.ownerName })}</p>
      <p className="group-card__meta">
        {t('list.counts', { members: group.memberCount, projects: group.projectCount, courses: group.courseCount })}
      </p>
      <Tag color={group.myRole === 'owner' ? 'purple' : 'blue'}>{t(`roles.${group.myRole}`)}</Tag>
    </Card>
  );
}

/** One tab's groups: searched and paged on the server, with an empty state that says how to get a first group. */
function GroupGrid({ scope, onCreate, onJoin }: { scope: GroupScope; onCreate: () => void; onJoin: () => void }) {
  const { t } = useTranslation('group');
  const itemRender = usePageButtons();
  const [keyword, setKeyword] = useState('');
  const [page, setPage] = useState(1);
  const list = useGroupList(scope, { page, size: PAGE_SIZE, keyword: keyword || undefined });
  const groups = list.data?.list ?? [];
  return (
    <div className="group-grid-area">
      <div role="search" className="group-toolbar">
        <SearchInput
          allowClear
          aria-label={t('list.search')}
          placeholder={t('list.search')}
          style={{ width: 300, maxWidth: '100%' }}
          onSearch={(value) => {
            setKeyword(value.trim());
            setPage(1);
          }}
        />
      </div>
      {list.isPending ? (
        <Skeleton active />
      ) : groups.length === 0 ? (
        <Empty description={keyword ? t('list.emptyFiltered') : t(`list.empty.${scope}`)}>
          {!keyword && (
            <Space wrap>
              {scope !== 'joined' && (
                <Button kind="primary" onClick={onCreate}>
                  {t('list.create')}
                </Button>
              )}
              {scope !== 'mine' && <Button onClick={onJoin}>{t('list.join')}</Button>}
            </Space>
          )}
        </Empty>
      ) : (
        <>
          <p className="group-muted">{t('list.total', { count: list.data?.total ?? 0 })}</p>
          <ul className="group-grid">
            {groups.map((group) => (
              <li key={group.id}>
                <GroupCard group={group} />
              </li>
            ))}
          </ul>
          <Pagination
            className="group-pagination"
            current={page}
            pageSize={PAGE_SIZE}
            total={list.data?.total ?? 0}
            onChange={setPage}
            itemRender={itemRender}
            hideOnSinglePage
          />
        </>
      )}
    </div>
  );
}

/**
 * The groups a user owns, has joined, or both: create one, join one with a code (`?join=CODE` opens the dialog on
 * that code, the link an owner hands out), and follow the requests waiting for an owner's review.
 */
export function GroupsPage() {
  const { t } = useTranslation('group');
  return useLoggedIn() ? <GroupList /> : <SignInCard title={t('title')} lead={t('list.signIn')} />;
}

function GroupList() {
  const { t } = useTranslation('group');
  const tabsMore = useTabsMore();
  const [search, setSearch] = useSearchParams();
  const joinCode = search.get('join');
  const [scope, setScope] = useState<GroupScope>('visible');
  const [creating, setCreating] = useState(false);
  const [joining, setJoining] = useState(joinCode !== null);
  const [requests, setRequests] = useState(false);
  const closeJoin = () => {
    setJoining(false);
    if (joinCode !== null) setSearch({}, { replace: true });
  };
  return (
    <div className="page group-page">
      <header className="group-list-head">
        <div>
          <h1>{t('title')}</h1>
          <p className="group-muted">{t('list.lead')}</p>
        </div>
        <Space wrap>
          <Button icon={<UnorderedListOutlined />} onClick={() => setRequests(true)}>
            {t('requests.open')}
          </Button>
          <Button icon={<KeyOutlined />} onClick={() => setJoining(true)}>
            {t('list.join')}
          </Button>
          <Button kind="primary" size="large" icon={<PlusOutlined />} onClick={() => setCreating(true)}>
            {t('list.create')}
          </Button>
        </Space>
      </header>
      <Tabs
        activeKey={scope}
        onChange={(key) => setScope(key as GroupScope)}
        more={tabsMore}
        items={[...GROUP_SCOPES].reverse().map((key) => ({
          key,
          label: t(`list.scopes.${key}`),
          children:
            key === scope ? (
              <GroupGrid scope={key} onCreate={() => setCreating(true)} onJoin={() => setJoining(true)} />
            ) : null,
        }))}
      />
      {creating && <GroupFormDialog onClose={() => setCreating(false)} />}
      {joining && (
        <JoinGroupDialog
          initialCode={joinCode ?? ''}
          onClose={closeJoin}
          onShowRequests={() => {
            closeJoin();
            setRequests(true);
          }}
        />
      )}
      {requests && <MyRequestsDrawer onClose={() => setRequests(false)} />}
    </div>
  );
}
