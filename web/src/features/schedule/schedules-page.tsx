import { PlusOutlined } from '@ant-design/icons';
import { ROLES, SCHEDULE_API, SCHEDULE_STATUSES, type TScheduleSummary } from '@aiedu/contracts';
import { Button, Empty } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { useSessionRoles } from '../../app/session';
import { formatDateTime } from '../../ui/dates';
import { FilterSelect, ListTable, SearchBar } from '../admin/list-controls';
import { useListQuery } from '../admin/use-list-query';
import { MySchedules } from './my-schedules';
import { StatusTag } from './schedule-labels';
import { schedulePath } from './schedule-paths';
import { ScheduleFormDrawer } from './schedule-form-drawer';
import './schedule.css';

const names = (items: { name: string }[]) => items.map((i) => i.name).join(', ');

/** The schedules a teacher teaches (search, state, paging; a new one in a drawer), or a student's own schedules. */
export function SchedulesPage() {
  const { t } = useTranslation('schedule');
  const isTeacher = useSessionRoles().includes(ROLES.teacher);
  return (
    <div className="page schedule-page">
      <h1>{t('schedules', { ns: 'screens' })}</h1>
      {isTeacher ? <TeachingList /> : <MySchedules />}
    </div>
  );
}

function TeachingList() {
  const { t } = useTranslation('schedule');
  const navigate = useNavigate();
  const list = useListQuery<TScheduleSummary>(SCHEDULE_API.base);
  const [creating, setCreating] = useState(false);
  const filtered = Boolean(list.params.keyword || list.params.status);
  return (
    <>
      <div className="schedule-toolbar">
        <SearchBar label={t('list.search')} onSearch={(keyword) => list.setFilters({ keyword })} />
        <FilterSelect
          label={t('list.statusFilter')}
          options={SCHEDULE_STATUSES.map((s) => ({ value: s, label: t(`status.${s}`) }))}
          onChange={(status) => list.setFilters({ status })}
        />
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)}>
          {t('list.create')}
        </Button>
      </div>
      <ListTable<TScheduleSummary>
        list={list}
        scroll={{ x: 'max-content' }}
        locale={{
          emptyText: list.query.isPending ? (
            <span />
          ) : (
            <Empty description={filtered ? t('list.emptyFiltered') : t('list.empty')}>
              {!filtered && (
                <Button type="primary" onClick={() => setCreating(true)}>
                  {t('list.create')}
                </Button>
              )}
            </Empty>
          ),
        }}
        columns={[
          {
            title: t('list.name'),
            key: 'name',
            render: (_, s) => <Link to={schedulePath(s.id)}>{s.name}</Link>,
          },
          { title: t('list.state'), key: 'status', render: (_, s) => <StatusTag status={s.status} /> },
          { title: t('list.startAt'), key: 'startAt', render: (_, s) => formatDateTime(s.startAt) },
          { title: t('list.courses'), key: 'courses', render: (_, s) => names(s.courses) },
          { title: t('list.classes'), key: 'classes', render: (_, s) => names(s.classes) },
          { title: t('list.students'), dataIndex: 'studentCount' },
          { title: t('list.teachers'), key: 'teachers', render: (_, s) => names(s.teachers) },
        ]}
      />
      {creating && (
        <ScheduleFormDrawer
          onClose={() => setCreating(false)}
          onSaved={(saved) => {
            setCreating(false);
            void navigate(schedulePath(saved.id));
          }}
        />
      )}
    </>
  );
}
