import { GlobalOutlined, LockOutlined, TeamOutlined } from '@ant-design/icons';
import type { TDataset } from '@aiedu/contracts';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { useMyGroups } from './dataset-api';

/** The dataset screens' addresses (routes.tsx). */
export const DATASET_PATHS = {
  list: '/pjedu/datasets',
  create: '/pjedu/datasets/new',
  detail: (id: string) => `/pjedu/datasets/${id}`,
  edit: (id: string) => `/pjedu/datasets/${id}/edit`,
};

/**
 * Who may see a dataset: public, private, or the group it is shared with, by name when the caller belongs to that
 * group (the only groups whose names they may know), else "a group".
 */
export function AccessBadge({ dataset }: { dataset: Pick<TDataset, 'access' | 'groupId'> }) {
  const { t } = useTranslation('dataset');
  const groups = useMyGroups(dataset.access === 'group');
  if (dataset.access === 'public')
    return (
      <Tag color="green" icon={<GlobalOutlined aria-hidden="true" />}>
        {t('access.public')}
      </Tag>
    );
  if (dataset.access === 'private') return <Tag icon={<LockOutlined aria-hidden="true" />}>{t('access.private')}</Tag>;
  const group = groups.data?.list.find((g) => g.id === dataset.groupId);
  return (
    <Tag color="purple" icon={<TeamOutlined aria-hidden="true" />}>
      {group ? t('access.groupNamed', { name: group.name }) : t('access.group')}
    </Tag>
  );
}

export function PublishedBadge({ published }: { published: boolean }) {
  const { t } = useTranslation('dataset');
  return published ? <Tag color="blue">{t('published')}</Tag> : <Tag>{t('draft')}</Tag>;
}
