import { PlusOutlined } from '@ant-design/icons';
import { CATEGORY_KINDS, UI_SIZES, type TCatalogueEntry } from '@aiedu/contracts';
import { Button, Modal, Select } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../app/api';
import type { AdminScreen } from './admin-menu';
import { useAdminMutation } from './admin-api';
import { AdminShell } from './admin-shell';
import { CATALOGUE_API } from './catalogue-api';
import { CatalogueEntryDrawer, type EntryKind } from './catalogue-entry-drawer';
import { confirmDelete } from './confirm';
import { ListTable, RowActions, SearchBar } from './list-controls';
import { useListQuery } from './use-list-query';

const SCREENS: Record<EntryKind, { screen: AdminScreen; path: string }> = {
  category: { screen: 'courseCategories', path: CATALOGUE_API.categories },
  difficulty: { screen: 'courseDifficulties', path: CATALOGUE_API.difficulties },
  tag: { screen: 'courseTags', path: CATALOGUE_API.tags },
};

/**
 * Directions and stages, difficulties or tags of the course centre: search, how many courses use each, create,
 * rename, and delete one no course uses (an entry in use says which step comes first instead).
 */
function CatalogueEntriesPage({ kind }: { kind: EntryKind }) {
  const { t } = useTranslation('catalogue');
  const { screen, path } = SCREENS[kind];
  const list = useListQuery<TCatalogueEntry>(path);
  const [modal, modalHost] = Modal.useModal();
  const [editing, setEditing] = useState<TCatalogueEntry | 'new' | null>(null);
  const remove = useAdminMutation((id: string) => api.delete(`${path}/${id}`), [path]);
  const onDelete = (entry: TCatalogueEntry) =>
    entry.courses > 0
      ? modal.warning({
          title: t('entries.inUseTitle', { name: entry.name }),
          content: t('entries.inUseBody', { count: entry.courses }),
          okText: t('entries.understood'),
          width: UI_SIZES.confirmDialogWidth,
        })
      : confirmDelete(modal, {
          title: t('entries.deleteTitle', { name: entry.name }),
          content: t('entries.deleteBody'),
          onOk: () => remove.mutateAsync(entry.id),
        });
  return (
    <AdminShell
      screen={screen}
      actions={
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')}>
          {t(`entries.new.${kind}`)}
        </Button>
      }
    >
      {modalHost}
      <div className="admin-toolbar">
        {kind === 'category' && (
          <Select
            aria-label={t('entries.kindFilter')}
            style={{ width: 200 }}
            value={String(list.params.kind ?? '')}
            onChange={(value: string) => list.setFilters({ kind: value || undefined })}
            options={[
              { value: '', label: t('entries.allKinds') },
              ...CATEGORY_KINDS.map((k) => ({ value: k, label: t(`entries.kinds.${k}`) })),
            ]}
          />
        )}
        <SearchBar label={t('entries.search')} onSearch={(keyword) => list.setFilters({ keyword })} />
      </div>
      <ListTable<TCatalogueEntry>
        list={list}
        columns={[
          { title: t('entries.name'), dataIndex: 'name' },
          ...(kind === 'category'
            ? [
                {
                  title: t('entries.kind'),
                  key: 'kind',
                  render: (_: unknown, e: TCatalogueEntry) => (e.kind ? t(`entries.kinds.${e.kind}`) : ''),
                },
              ]
            : []),
          { title: t('entries.courses'), dataIndex: 'courses' },
          {
            title: t('common.actions', { ns: 'admin' }),
            key: 'actions',
            render: (_, e) => <RowActions onEdit={() => setEditing(e)} onDelete={() => onDelete(e)} />,
          },
        ]}
      />
      {editing && (
        <CatalogueEntryDrawer
          kind={kind}
          path={path}
          entry={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
        />
      )}
    </AdminShell>
  );
}

export const CourseCategoriesPage = () => <CatalogueEntriesPage kind="category" />;
export const CourseDifficultiesPage = () => <CatalogueEntriesPage kind="difficulty" />;
export const CourseTagsPage = () => <CatalogueEntriesPage kind="tag" />;
