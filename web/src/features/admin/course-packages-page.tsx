import { PlusOutlined } from '@ant-design/icons';
import type { TCoursePackage } from '@aiedu/contracts';
import { Button, Modal, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../app/api';
import { useAdminMutation } from './admin-api';
import { AdminShell } from './admin-shell';
import { CATALOGUE_API } from './catalogue-api';
import { confirmDelete } from './confirm';
import { PackageDrawer, type PackagePart } from './course-package-drawer';
import { ListTable, RowActions, SearchBar } from './list-controls';
import { useListQuery } from './use-list-query';

const names = (rows: { id: string; name: string }[], empty: string) =>
  rows.length ? rows.map((r) => <Tag key={r.id}>{r.name}</Tag>) : empty;

/** Course packages: courses put together and given to customers, whose people then find them in the centre. */
export function CoursePackagesPage() {
  const { t } = useTranslation('catalogue');
  const list = useListQuery<TCoursePackage>(CATALOGUE_API.packages);
  const [modal, modalHost] = Modal.useModal();
  const [editing, setEditing] = useState<{ pack: TCoursePackage | null; part: PackagePart } | null>(null);
  const remove = useAdminMutation(
    (id: string) => api.delete(`${CATALOGUE_API.packages}/${id}`),
    [CATALOGUE_API.packages],
  );
  return (
    <AdminShell
      screen="coursePackages"
      actions={
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({ pack: null, part: 'courses' })}>
          {t('packages.new')}
        </Button>
      }
    >
      {modalHost}
      <div className="admin-toolbar">
        <SearchBar label={t('packages.search')} onSearch={(keyword) => list.setFilters({ keyword })} />
      </div>
      <ListTable<TCoursePackage>
        list={list}
        columns={[
          { title: t('packages.name'), dataIndex: 'name' },
          { title: t('packages.courses'), key: 'courses', render: (_, p) => names(p.courses, t('packages.none')) },
          {
            title: t('packages.customers'),
            key: 'customers',
            render: (_, p) => names(p.customers, t('packages.none')),
          },
          {
            title: t('common.actions', { ns: 'admin' }),
            key: 'actions',
            render: (_, p) => (
              <RowActions
                onEdit={() => setEditing({ pack: p, part: 'courses' })}
                onDelete={() =>
                  confirmDelete(modal, {
                    title: t('packages.deleteTitle', { name: p.name }),
                    content: t('packages.deleteBody'),
                    onOk: () => remove.mutateAsync(p.id),
                  })
                }
              >
                <Button type="link" onClick={() => setEditing({ pack: p, part: 'customers' })}>
                  {t('packages.assign')}
                </Button>
              </RowActions>
            ),
          },
        ]}
      />
      {editing && <PackageDrawer {...editing} onClose={() => setEditing(null)} />}
    </AdminShell>
  );
}
