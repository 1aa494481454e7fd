import { DatabaseOutlined, PlusOutlined } from '@ant-design/icons';
import { DATASET_ACCESS, DATASET_SORTS, type DatasetAccess, type TDataset } from '@aiedu/contracts';
import { Card, Empty, Pagination, Select, Skeleton, Space, Tabs, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { SignInRequired } from '../../app/sign-in-required';
import { formatDateTime } from '../../ui/dates';
import { LinkButton } from '../../ui/link-button';
import { SearchInput, usePageButtons, useTabsMore } from '../../ui/named-icons';
import { formatBytes } from '../../ui/sizes';
import { useDatasetList, type DatasetListQuery } from './dataset-api';
import { AccessBadge, DATASET_PATHS, PublishedBadge } from './dataset-labels';
import './dataset.css';

const PAGE_SIZE = 12;
type Scope = 'all' | 'mine';

function DatasetCard({ dataset }: { dataset: TDataset }) {
  const { t } = useTranslation('dataset');
  const version = dataset.currentVersion;
  return (
    <Card className="dataset-card">
      <h2 className="dataset-card__title">
        <DatabaseOutlined aria-hidden="true" /> <Link to={DATASET_PATHS.detail(dataset.id)}>{dataset.name}</Link>
      </h2>
      <p className="dataset-card__description">{dataset.description}</p>
      <Space wrap size={4}>
        <AccessBadge dataset={dataset} />
        <PublishedBadge published={dataset.published} />
        {dataset.tags.map((tag) => (
          <Tag key={tag} color="blue">
            {tag}
          </Tag>
        ))}
      </Space>
      <p className="dataset-card__meta">
        {version
          ? t('list.contents', { count: version.fileCount, size: formatBytes(version.totalBytes) })
          : t('list.noData')}
      </p>
      <p className="dataset-card__meta">
        {t('list.by', { name: dataset.ownerName })} · {t('list.updated', { date: formatDateTime(dataset.updatedAt) })}
      </p>
    </Card>
  );
}

/** Keyword, tag, access and sort of the list; every change goes back to the first page. */
function useListQuery(scope: Scope) {
  const [query, setQuery] = useState<Omit<DatasetListQuery, 'scope'>>({
    page: 1,
    size: PAGE_SIZE,
    sort: 'updatedAt,desc',
  });
  const change = (part: Partial<DatasetListQuery>) => setQuery((q) => ({ ...q, page: 1, ...part }));
  return { query: { ...query, scope }, change, setPage: (page: number) => setQuery((q) => ({ ...q, page })) };
}

function DatasetList({ scope }: { scope: Scope }) {
  const { t } = useTranslation('dataset');
  const { query, change, setPage } = useListQuery(scope);
  const list = useDatasetList(query);
  const itemRender = usePageButtons();
  // The tags met so far, offered in the tag filter (there is no catalogue of datasets' tags).
  const [seen, setSeen] = useState<{ data: unknown; tags: string[] }>({ data: undefined, tags: [] });
  if (list.data && list.data !== seen.data) {
    const all = new Set([...seen.tags, ...list.data.list.flatMap((d) => d.tags)]);
    setSeen({ data: list.data, tags: [...all].sort((a, b) => a.localeCompare(b)) });
  }
  const tags = seen.tags;
  return (
    <>
      <div className="dataset-list__filters">
        <SearchInput
          aria-label={t('list.search')}
          placeholder={t('list.search')}
          allowClear
          onSearch={(keyword) => change({ keyword: keyword.trim() || undefined })}
        />
        <Select
          aria-label={t('list.tagFilter')}
          showSearch
          value={query.tag ?? ''}
          onChange={(tag: string) => change({ tag: tag || undefined })}
          options={[{ value: '', label: t('list.anyTag') }, ...tags.map((tag) => ({ value: tag, label: tag }))]}
        />
        <Select
          aria-label={t('list.accessFilter')}
          value={query.access ?? ''}
          onChange={(access: DatasetAccess | '') => change({ access: access || undefined })}
          options={[
            { value: '', label: t('list.anyAccess') },
            ...DATASET_ACCESS.map((a) => ({ value: a, label: t(`access.${a}`) })),
          ]}
        />
        <Select
          aria-label={t('list.sortLabel')}
          value={query.sort}
          onChange={(sort) => change({ sort })}
          options={DATASET_SORTS.map((s) => ({
            value: `${s},${s === 'name' ? 'asc' : 'desc'}`,
            label: t(`list.sort.${s}`),
          }))}
        />
      </div>
      {list.isLoading ? (
        <Skeleton active />
      ) : list.data?.list.length ? (
        <>
          <p className="dataset-list__total" role="status">
            {t('list.total', { count: list.data.total })}
          </p>
          <div className="dataset-list__grid">
            {list.data.list.map((d) => (
              <DatasetCard key={d.id} dataset={d} />
            ))}
          </div>
          <Pagination
            current={query.page}
            pageSize={PAGE_SIZE}
            total={list.data.total}
            onChange={setPage}
            itemRender={itemRender}
            hideOnSinglePage
            showSizeChanger={false}
          />
        </>
      ) : (
        <Empty description={t(query.keyword || query.tag || query.access ? 'list.noMatch' : `list.empty.${scope}`)}>
          <LinkButton kind="primary" icon={<PlusOutlined />} to={DATASET_PATHS.create}>
            {t('list.create')}
          </LinkButton>
        </Empty>
      )}
    </>
  );
}

/** Every dataset the caller may see, and their own, with search and filters (spec 2, "Dataset list"). */
export function DatasetsPage() {
  const { t } = useTranslation('dataset');
  const [scope, setScope] = useState<Scope>('all');
  const more = useTabsMore();
  return (
    <SignInRequired title={t('title')}>
      <div className="page dataset-list">
        <header className="dataset-list__header">
          <div>
            <h1>{t('title')}</h1>
            <p>{t('list.lead')}</p>
          </div>
          <LinkButton kind="primary" size="large" icon={<PlusOutlined />} to={DATASET_PATHS.create}>
            {t('list.create')}
          </LinkButton>
        </header>
        <Tabs
          activeKey={scope}
          onChange={(key) => setScope(key as Scope)}
          more={more}
          items={(['all', 'mine'] as const).map((key) => ({
            key,
            label: t(`list.tab.${key}`),
            children: key === scope ? <DatasetList scope={key} /> : null,
          }))}
        />
      </div>
    </SignInRequired>
  );
}
