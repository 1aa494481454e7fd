import { ArrowUpOutlined, ClockCircleOutlined, PlusOutlined } from '@ant-design/icons';
import type { TClass } from '@aiedu/contracts';
import { Button, Modal, Tag, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../app/api';
import { AdminShell } from './admin-shell';
import { ADMIN_API, useAdminMutation, useSchoolOptions } from './admin-api';
import { ClassDrawer } from './class-drawer';
import { confirmDanger, confirmDelete } from './confirm';
import { FilterSelect, ListTable, SearchBar } from './list-controls';
import { UpgradeScheduleDialog } from './upgrade-schedule-dialog';
import { useListQuery, type ListQuery } from './use-list-query';

/** The columns both class screens show; the server sorts by the columns that have a sorter. */
export function useClassColumns(): TableColumnsType<TClass> {
  const { t } = useTranslation('admin');
  const schools = useSchoolOptions();
  return [
    { title: t('classes.className'), dataIndex: 'className', sorter: true },
    {
      title: t('classes.school'),
      key: 'school',
      render: (_, c) => schools.data?.find((s) => s.id === c.schoolId)?.name,
    },
    { title: t('classes.eduStage'), key: 'eduStage', render: (_, c) => t(`stages.${c.eduStage}`) },
    { title: t('classes.grade'), dataIndex: 'grade', sorter: true },
    { title: t('classes.startYear'), dataIndex: 'startYear', sorter: true },
    { title: t('classes.graduateYear'), dataIndex: 'graduateYear' },
    { title: t('classes.stuCount'), dataIndex: 'stuCount', sorter: true },
    {
      title: t('common.status'),
      key: 'classStatus',
      render: (_, c) => (
        <Tag color={c.classStatus === 'dismissed' ? 'red' : 'blue'}>{t(`classStatus.${c.classStatus}`)}</Tag>
      ),
    },
  ];
}

/** Search by class name and, for administrators of several schools, a school filter. */
function ClassFilters({ list }: { list: ListQuery<TClass> }) {
  const { t } = useTranslation('admin');
  const schools = useSchoolOptions();
  return (
    <div className="admin-toolbar">
      <SearchBar label={t('classes.search')} onSearch={(keyword) => list.setFilters({ keyword })} />
      {(schools.data?.length ?? 0) > 1 && (
        <FilterSelect
          label={t('classes.schoolFilter')}
          options={(schools.data ?? []).map((s) => ({ value: s.id, label: s.name }))}
          onChange={(schoolId) => list.setFilters({ schoolId })}
        />
      )}
    </div>
  );
}

/** Current classes: create, upgrade the chosen ones, dismiss (irreversible), and the automatic upgrade. */
export function ClassesPage() {
  const { t } = useTranslation('admin');
  const list = useListQuery<TClass>(ADMIN_API.classes, { status: 'current' });
  const columns = useClassColumns();
  const [modal, modalHost] = Modal.useModal();
  const [selected, setSelected] = useState<string[]>([]);
  const [creating, setCreating] = useState(false);
  const [scheduling, setScheduling] = useState(false);
  const upgrade = useAdminMutation(
    (classIds: string[]) => api.post(`${ADMIN_API.classes}/upgrade`, { classIds }),
    [ADMIN_API.classes],
    () => setSelected([]),
  );
  const dismiss = useAdminMutation((id: string) => api.put(`${ADMIN_API.classes}/${id}/dismiss`), [ADMIN_API.classes]);
  const remove = useAdminMutation((id: string) => api.delete(`${ADMIN_API.classes}/${id}`), [ADMIN_API.classes]);

  const confirmUpgrade = () =>
    confirmDanger(modal, {
      title: t('classes.upgradeTitle', { count: selected.length }),
      content: t('classes.upgradeBody'),
      okText: t('classes.upgrade'),
      cancelText: t('common.cancel'),
      onOk: () => upgrade.mutateAsync(selected),
    });
  const confirmDismiss = (klass: TClass) =>
    confirmDanger(modal, {
      title: t('classes.dismissTitle', { name: klass.className }),
      content: t('classes.dismissBody'),
      okText: t('classes.dismiss'),
      cancelText: t('common.cancel'),
      onOk: () => dismiss.mutateAsync(klass.id),
    });
  const confirmRemove = (klass: TClass) =>
    confirmDelete(modal, {
      title: t('classes.deleteTitle', { name: klass.className }),
      content: t('classes.deleteBody'),
      onOk: () => remove.mutateAsync(klass.id),
    });

  const actions = (
    <>
      <Button icon={<ClockCircleOutlined />} onClick={() => setScheduling(true)}>
        {t('classes.autoUpgrade')}
      </Button>
      <Button icon={<ArrowUpOutlined />} disabled={selected.length === 0} onClick={confirmUpgrade}>
        {t('classes.upgradeSelected', { count: selected.length })}
      </Button>
      <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)}>
        {t('classes.new')}
      </Button>
    </>
  );

  return (
    <AdminShell screen="classes" actions={actions}>
      {modalHost}
      <ClassFilters list={list} />
      <ListTable<TClass>
        list={list}
        rowSelection={{
          selectedRowKeys: selected,
          preserveSelectedRowKeys: true,
          onChange: (keys) => setSelected(keys as string[]),
          getCheckboxProps: (c) => ({ 'aria-label': t('classes.select', { name: c.className }) }),
        }}
        columns={[
          ...columns,
          {
            title: t('common.actions'),
            key: 'actions',
            render: (_, c) => (
              <>
                <Button type="link" danger onClick={() => confirmDismiss(c)}>
                  {t('classes.dismiss')}
                </Button>
                {c.stuCount === 0 && (
                  <Button type="link" danger onClick={() => confirmRemove(c)}>
                    {t('common.delete')}
                  </Button>
                )}
              </>
            ),
          },
        ]}
      />
      {creating && <ClassDrawer onClose={() => setCreating(false)} />}
      {scheduling && <UpgradeScheduleDialog onClose={() => setScheduling(false)} />}
    </AdminShell>
  );
}

/** Graduated, dismissed and history classes: read only. */
export function HistoryClassesPage() {
  const list = useListQuery<TClass>(ADMIN_API.classes, { status: 'history' });
  const columns = useClassColumns();
  return (
    <AdminShell screen="historyClasses">
      <ClassFilters list={list} />
      <ListTable<TClass> list={list} columns={columns} scroll={{ x: true }} />
    </AdminShell>
  );
}
