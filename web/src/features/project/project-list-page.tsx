import { PlusOutlined } from '@ant-design/icons';
import { CONTAINER_TYPES, PROJECT_SORTS, type TProject } from '@aiedu/contracts';
import { Card, Empty, Pagination, Select, Skeleton, Space, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { toast } from '../../app/feedback';
import { useLoggedIn } from '../../app/session';
import { Button } from '../../ui/button';
import { LinkButton } from '../../ui/link-button';
import { forkProject, useProjectList } from './project-api';
import { ProjectCreateDialog } from './project-create-dialog';
import { SignInPrompt } from './sign-in-prompt';
import './project.css';
import { projectEditorPath } from '../../app/paths';
import { SearchInput } from '../../ui/named-icons';

function ProjectCard({ project, scope }: { project: TProject; scope: 'public' | 'mine' }) {
  const { t } = useTranslation('project');
  const navigate = useNavigate();
  const editor = projectEditorPath(project.id);
  return (
    <Card className="project-card" title={<h2 className="project-card__title">{project.name}</h2>}>
      <p className="project-card__description">{project.description}</p>
      <Space wrap size={4}>
        <Tag>{t(`access.${project.access}`)}</Tag>
        <Tag>{t(`runtime.${project.runtimeType}`)}</Tag>
        {project.tags.map((tag) => (
          <Tag key={tag} color="blue">
            {tag}
          </Tag>
        ))}
      </Space>
      <p className="project-card__meta">
        {t('list.by', { name: project.ownerName })} · {t('list.forks', { count: project.forks })}
      </p>
      <Space>
        <LinkButton kind="primary" to={editor}>
          {t('list.open')}
        </LinkButton>
        {scope === 'public' && (
          <Button
            onClick={async () => {
              const copy = await forkProject(project.id);
              toast.success(t('list.forked'));
              void navigate(projectEditorPath(copy.id));
            }}
          >
            {t('list.fork')}
          </Button>
        )}
      </Space>
    </Card>
  );
}

function ProjectList({ scope }: { scope: 'public' | 'mine' }) {
  const { t } = useTranslation('project');
  const [keyword, setKeyword] = useState('');
  const [sort, setSort] = useState('updatedAt,desc');
  const [runtimeType, setRuntimeType] = useState<string | undefined>();
  const [page, setPage] = useState(1);
  const [creating, setCreating] = useState(false);
  const query = {
    page,
    size: 12,
    keyword: keyword || undefined,
    sort,
    runtimeType: runtimeType as 'BASIC' | undefined,
  };
  const list = useProjectList(scope, query);
  const title = t(scope === 'mine' ? 'list.mineTitle' : 'list.publicTitle');
  return (
    <div className="page project-list">
      <header className="project-list__header">
        <div>
          <h1>{title}</h1>
          <p>{t('list.lead')}</p>
        </div>
        <Button kind="primary" size="large" icon={<PlusOutlined />} onClick={() => setCreating(true)}>
          {t('list.create')}
        </Button>
      </header>
      <div className="project-list__filters">
        <SearchInput
          aria-label={t('list.search')}
          placeholder={t('list.search')}
          allowClear
          onSearch={(v) => (setKeyword(v), setPage(1))}
        />
        <Select
          aria-label={t('list.sortLabel')}
          value={sort}
          onChange={setSort}
          options={PROJECT_SORTS.map((s) => ({
            value: `${s},${s === 'name' ? 'asc' : 'desc'}`,
            label: t(`list.sort.${s}`),
          }))}
        />
        <Select
          aria-label={t('list.runtimeFilter')}
          value={runtimeType ?? ''}
          onChange={(v) => setRuntimeType(v || undefined)}
          options={[
            { value: '', label: t('list.anyRuntime') },
            ...CONTAINER_TYPES.map((r) => ({ value: r, label: t(`runtime.${r}`) })),
          ]}
        />
      </div>
      {list.isLoading ? (
        <Skeleton active />
      ) : list.data?.list.length ? (
        <>
          <p className="project-list__total">{t('list.total', { count: list.data.total })}</p>
          <div className="project-list__grid">
            {list.data.list.map((p) => (
              <ProjectCard key={p.id} project={p} scope={scope} />
            ))}
          </div>
          <Pagination current={page} pageSize={12} total={list.data.total} onChange={setPage} hideOnSinglePage />
        </>
      ) : (
        <Empty description={t(scope === 'mine' ? 'list.emptyMine' : 'list.emptyPublic')}>
          <Button kind="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)}>
            {t('list.create')}
          </Button>
        </Empty>
      )}
      <ProjectCreateDialog open={creating} onClose={() => setCreating(false)} />
    </div>
  );
}

/** The public project channel of the caller's institution. */
export function ProjectsPage() {
  return useLoggedIn() ? <ProjectList scope="public" /> : <SignInPrompt />;
}

/** Projects the caller owns or collaborates on. */
export function MyProjectsPage() {
  return useLoggedIn() ? <ProjectList scope="mine" /> : <SignInPrompt />;
}
