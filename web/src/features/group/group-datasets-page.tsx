import { PlusOutlined } from '@ant-design/icons';
import type { TDataset, TGroupDetail } from '@aiedu/contracts';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDateTime } from '../../ui/dates';
import { LinkButton } from '../../ui/link-button';
import { formatBytes } from '../../ui/sizes';
import { useDatasetList } from '../dataset/dataset-api';
import { AccessBadge, DATASET_PATHS } from '../dataset/dataset-labels';
import { GroupShell } from './group-shell';
import { PagedTable, usePaging } from './paged-table';

/** The new-dataset form with this group already chosen under who may see it. */
export const newGroupDatasetPath = (groupId: string) =>
  `${DATASET_PATHS.create}?groupId=${encodeURIComponent(groupId)}`;

/**
 * The datasets shared with the group: members open them (and attach them to their projects from the editor); a
 * member shares a new one from here, or one of theirs from its own form. A dataset leaves the group with its owner.
 */
function Datasets({ group }: { group: TGroupDetail }) {
  const { t } = useTranslation('group');
  const paging = usePaging();
  const datasets = useDatasetList({ scope: 'all', sort: 'updatedAt,desc', groupId: group.id, ...paging.query });
  return (
    <>
      <p className="group-muted">{t('datasets.hint')}</p>
      <PagedTable<TDataset>
        paging={paging}
        query={datasets}
        rowKey="id"
        searchLabel={t('datasets.search')}
        toolbar={
          <LinkButton icon={<PlusOutlined />} to={newGroupDatasetPath(group.id)}>
            {t('datasets.create')}
          </LinkButton>
        }
        emptyText={t('datasets.empty')}
        columns={[
          {
            title: t('datasets.name'),
            key: 'name',
            render: (_, d) => (
              <>
                <Link to={DATASET_PATHS.detail(d.id)}>{d.name}</Link>
                {d.description && <div className="group-muted group-clamp">{d.description}</div>}
              </>
            ),
          },
          { title: t('datasets.owner'), dataIndex: 'ownerName' },
          { title: t('datasets.access'), key: 'access', render: (_, d) => <AccessBadge dataset={d} /> },
          {
            title: t('datasets.size'),
            key: 'size',
            render: (_, d) =>
              d.currentVersion
                ? t('datasets.files', {
                    count: d.currentVersion.fileCount,
                    size: formatBytes(d.currentVersion.totalBytes),
                  })
                : t('datasets.noData'),
          },
          { title: t('datasets.updatedAt'), key: 'updated', render: (_, d) => formatDateTime(d.updatedAt) },
        ]}
      />
    </>
  );
}

export function GroupDatasetsPage() {
  return <GroupShell part="datasets">{(group) => <Datasets group={group} />}</GroupShell>;
}
