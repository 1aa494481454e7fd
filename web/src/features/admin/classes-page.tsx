import { ArrowUpOutlined, ClockCircleOutlined, PlusOutlined } from '@ant-design/icons';
import type { TClass } from '@aiedu/contracts';
import { Button, Modal, Table, Tag, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../app/api';
import { AdminShell } from './admin-shell';
import { ADMIN_API, useAdminMutation, useClasses, useSchoolOptions } from './admin-api';
import { ClassDrawer } from './class-drawer';
import { confirmDanger } from './confirm';
import { UpgradeScheduleDialog } from './upgrade-schedule-dialog';

/** The columns both class screens show. */
export function useClassColumns(): TableColumnsType<TClass> {
  const { t } = useTranslation('admin');
  const schools = useSchoolOptions();
  return [
    { title: t('classes.className'), dataIndex: 'className', sorter: (a, b) => a.className.localeCompare(b.className) },
    {
      title: t('classes.school'),
      key: 'school',
      render: (_, c) => schools.data?.find((s) => s.id === c.schoolId)?.name,
    },
    { title: t('classes.eduStage'), key: 'eduStage', render: (_, c) => t(`stages.${c.eduStage}`) },
    { title: t('classes.grade'), dataIndex: 'grade', sorter: (a, b) => a.grade - b.grade },
    { title: t('classes.startYear'), dataIndex: 'startYear' },
    { title: t('classes.graduateYear'), dataIndex: 'graduateYear' },
    { title: t('classes.stuCount'), dataIndex: 'stuCount' },
    {
      title: t('common.status'),
      key: 'classStatus',
      render: (_, c) => (
        <Tag color={c.classStatus === 'dismissed' ? 'red' : 'blue'}>{t(`classStatus.${c.classStatus}`)}</Tag>
      ),
    },
  ];
}

/** Current classes: create, upgrade the chosen ones, dismiss (irreversible), and the automatic upgrade. */
export function ClassesPage() {
  const { t } = useTranslation('admin');
  const classes = useClasses('current');
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
      <Table<TClass>
        rowKey="id"
        loading={classes.isFetching}
        dataSource={classes.data ?? []}
        rowSelection={{
          selectedRowKeys: selected,
          onChange: (keys) => setSelected(keys as string[]),
          getCheckboxProps: (c) => ({ 'aria-label': t('classes.select', { name: c.className }) }),
        }}
        columns={[
          ...columns,
          {
            title: t('common.actions'),
            key: 'actions',
            render: (_, c) => (
              <Button type="link" danger onClick={() => confirmDismiss(c)}>
                {t('classes.dismiss')}
              </Button>
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
  const classes = useClasses('history');
  const columns = useClassColumns();
  return (
    <AdminShell screen="historyClasses">
      <Table<TClass>
        rowKey="id"
        loading={classes.isFetching}
        dataSource={classes.data ?? []}
        columns={columns}
        scroll={{ x: true }}
      />
    </AdminShell>
  );
}
