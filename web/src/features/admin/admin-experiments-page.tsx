import type { TAdminExperiment } from '@aiedu/contracts';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { AdminShell } from './admin-shell';
import { CATALOGUE_API } from './catalogue-api';
import { ListTable, SearchBar } from './list-controls';
import { useListQuery } from './use-list-query';

/**
 * The experiments courses use (super administrators): each template project an experiment question copies for its
 * learners, with its owner, the courses that use it and how many copies learners made, searched by project or
 * course name.
 */
export function AdminExperimentsPage() {
  const { t } = useTranslation('catalogue');
  const list = useListQuery<TAdminExperiment>(CATALOGUE_API.adminExperiments);
  return (
    <AdminShell screen="adminExperiments">
      <p className="admin-muted">{t('experiments.lead')}</p>
      <div className="admin-toolbar">
        <SearchBar label={t('experiments.search')} onSearch={(keyword) => list.setFilters({ keyword })} />
      </div>
      <ListTable<TAdminExperiment>
        list={list}
        rowKey="projectId"
        scroll={{ x: 'max-content' }}
        columns={[
          {
            title: t('experiments.project'),
            key: 'name',
            render: (_, e) => e.name ?? <span className="admin-muted">{t('experiments.deleted')}</span>,
          },
          { title: t('experiments.owner'), key: 'owner', render: (_, e) => e.owner ?? '' },
          {
            title: t('experiments.courses'),
            key: 'courses',
            render: (_, e) => e.courses.map((c) => <Tag key={c.id}>{c.name}</Tag>),
          },
          { title: t('experiments.copies'), dataIndex: 'copies' },
        ]}
      />
    </AdminShell>
  );
}
