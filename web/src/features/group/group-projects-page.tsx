import { ForkOutlined } from '@ant-design/icons';
import type { TGroupDetail, TGroupProject } from '@aiedu/contracts';
import { Modal, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { toast } from '../../app/feedback';
import { readSession } from '../../app/session';
import { Button } from '../../ui/button';
import { formatDateTime } from '../../ui/dates';
import { LinkButton } from '../../ui/link-button';
import { confirmDanger } from '../admin/confirm';
import { forkProject } from '../project/project-api';
import { groupCalls, useGroupMutation, useGroupProjects, useMyProjects } from './group-api';
import { projectEditorPath } from './group-paths';
import { GroupShell } from './group-shell';
import { PagedTable, usePaging } from './paged-table';
import { SharePicker } from './share-picker';

function ShareProject({ group, shared }: { group: TGroupDetail; shared: Set<string> }) {
  const { t } = useTranslation('group');
  const [keyword, setKeyword] = useState('');
  const mine = useMyProjects(keyword, true);
  const share = useGroupMutation(
    (projectId: string) => groupCalls.shareProject(group.id, projectId),
    () => toast.success(t('share.projectShared')),
  );
  return (
    <SharePicker
      label={t('share.projectLabel')}
      loading={mine.isFetching}
      emptyText={t('share.noProjects')}
      onSearch={setKeyword}
      // A public project stays public (3103): only the caller's other projects can be shared.
      options={(mine.data?.list ?? [])
        .filter((p) => p.access !== 'public' && !shared.has(p.id))
        .map((p) => ({ value: p.id, label: p.name }))}
      onShare={(id) => share.mutateAsync(id)}
    />
  );
}

/**
 * The projects shared with the group: each opens in the editor (read as the project allows) or is forked into the
 * member's own projects; members share their own projects, and the project's or the group's owner unshares one.
 */
function Projects({ group }: { group: TGroupDetail }) {
  const { t } = useTranslation('group');
  const navigate = useNavigate();
  const [modal, modalHost] = Modal.useModal();
  const paging = usePaging();
  const projects = useGroupProjects(group.id, paging.query);
  const me = readSession().userId;
  const unshare = useGroupMutation((p: TGroupProject) => groupCalls.unshareProject(group.id, p.id));
  const fork = async (p: TGroupProject) => {
    const copy = await forkProject(p.id);
    toast.success(t('projects.forked', { name: p.name }));
    void navigate(projectEditorPath(copy.id));
  };
  const confirmUnshare = (p: TGroupProject) =>
    confirmDanger(modal, {
      title: t('share.unshareTitle', { name: p.name }),
      content: t('share.unshareProjectBody'),
      okText: t('share.unshare'),
      cancelText: t('common.cancel'),
      onOk: () => unshare.mutateAsync(p),
    });
  const shared = new Set((projects.data?.list ?? []).map((p) => p.id));
  return (
    <>
      {modalHost}
      <p className="group-muted">{t('share.projectHint')}</p>
      <PagedTable<TGroupProject>
        paging={paging}
        query={projects}
        rowKey="id"
        searchLabel={t('projects.search')}
        toolbar={<ShareProject group={group} shared={shared} />}
        emptyText={t('projects.empty')}
        columns={[
          {
            title: t('projects.name'),
            key: 'name',
            render: (_, p) => (
              <>
                <Link to={projectEditorPath(p.id)}>{p.name}</Link>
                {p.description && <div className="group-muted group-clamp">{p.description}</div>}
              </>
            ),
          },
          { title: t('projects.owner'), dataIndex: 'ownerName' },
          { title: t('projects.updatedAt'), key: 'updated', render: (_, p) => formatDateTime(p.updatedAt) },
          {
            title: t('common.actions'),
            key: 'actions',
            render: (_, p) => (
              <Space size={4} wrap>
                <LinkButton size="small" to={projectEditorPath(p.id)}>
                  {t('projects.open')}
                </LinkButton>
                {p.ownerId !== me && (
                  <Button size="small" icon={<ForkOutlined />} onClick={() => void fork(p)}>
                    {t('projects.fork')}
                  </Button>
                )}
                {p.canUnshare && (
                  <Button size="small" danger onClick={() => confirmUnshare(p)}>
                    {t('share.unshare')}
                  </Button>
                )}
              </Space>
            ),
          },
        ]}
      />
    </>
  );
}

export function GroupProjectsPage() {
  return <GroupShell part="projects">{(group) => <Projects group={group} />}</GroupShell>;
}
