import { COURSE_STATUSES, ROLES, type TAdminCourse } from '@aiedu/contracts';
import { Button, Modal, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { api } from '../../app/api';
import { useSessionRoles } from '../../app/session';
import { formatDateTime } from '../../ui/dates';
import { useAdminMutation } from './admin-api';
import { AdminShell } from './admin-shell';
import { CATALOGUE_API } from './catalogue-api';
import { confirmDanger } from './confirm';
import { FilterSelect, ListTable, SearchBar } from './list-controls';
import { useListQuery } from './use-list-query';

/** Solid tag colours dark enough for white text (at least 4.5:1), the course cards' own. */
const STATUS_COLORS: Record<TAdminCourse['status'], string> = {
  draft: '#1f5fcc',
  published: '#237804',
  modifying: '#ad4e00',
  closed: '#595959',
};

/**
 * Every course of the administrator's scope in every state (super administrators: all of them; customer
 * administrators: their institution's and those below it), searched by name, code or owner and filtered by state.
 * Super administrators take a course down or put it back here.
 */
export function AdminCoursesPage() {
  const { t } = useTranslation('catalogue');
  const isSuper = useSessionRoles().includes(ROLES.super);
  const list = useListQuery<TAdminCourse>(CATALOGUE_API.adminCourses);
  const [modal, modalHost] = Modal.useModal();
  const takeDown = useAdminMutation(
    ({ id, takenDown }: { id: string; takenDown: boolean }) => api.put(CATALOGUE_API.takenDown(id), { takenDown }),
    [CATALOGUE_API.adminCourses],
  );
  const toggle = (course: TAdminCourse) =>
    course.takenDown
      ? takeDown.mutate({ id: course.id, takenDown: false })
      : confirmDanger(modal, {
          title: t('courses.takeDownTitle', { name: course.name }),
          content: t('courses.takeDownBody'),
          okText: t('courses.takeDown'),
          cancelText: t('common.cancel', { ns: 'admin' }),
          onOk: () => takeDown.mutateAsync({ id: course.id, takenDown: true }),
        });
  return (
    <AdminShell screen="adminCourses">
      {modalHost}
      <div className="admin-toolbar">
        <SearchBar label={t('courses.search')} onSearch={(keyword) => list.setFilters({ keyword })} />
        <FilterSelect
          label={t('courses.statusFilter')}
          options={COURSE_STATUSES.map((s) => ({ value: s, label: t(`courses.statuses.${s}`) }))}
          onChange={(status) => list.setFilters({ status })}
        />
      </div>
      <ListTable<TAdminCourse>
        list={list}
        scroll={{ x: 'max-content' }}
        columns={[
          {
            title: t('courses.name'),
            dataIndex: 'name',
            sorter: true,
            render: (_, c) => (
              <>
                <div>{c.name}</div>
                <div className="admin-muted">{t('courses.code', { code: c.code })}</div>
              </>
            ),
          },
          {
            title: t('courses.status'),
            key: 'status',
            render: (_, c) => (
              <>
                <Tag color={STATUS_COLORS[c.status]}>{t(`courses.statuses.${c.status}`)}</Tag>
                {c.takenDown && <Tag color="#595959">{t('courses.takenDown')}</Tag>}
              </>
            ),
          },
          { title: t('courses.owner'), dataIndex: 'ownerName' },
          {
            title: t('courses.institution'),
            key: 'institution',
            render: (_, c) => c.customerName ?? t('courses.publicSpace'),
          },
          {
            title: t('courses.version'),
            key: 'version',
            render: (_, c) =>
              c.versionNumber === null
                ? t('courses.unpublished')
                : t('courses.versionNumber', { version: c.versionNumber }),
          },
          { title: t('courses.learners'), dataIndex: 'learners', sorter: true },
          {
            title: t('courses.updatedAt'),
            dataIndex: 'updatedAt',
            sorter: true,
            render: (value: string) => formatDateTime(value),
          },
          ...(isSuper
            ? [
                {
                  title: t('common.actions', { ns: 'admin' }),
                  key: 'actions',
                  render: (_: unknown, c: TAdminCourse) => (
                    <Button type="link" danger={!c.takenDown} onClick={() => toggle(c)}>
                      {c.takenDown ? t('courses.putBack') : t('courses.takeDown')}
                    </Button>
                  ),
                },
              ]
            : []),
        ]}
      />
    </AdminShell>
  );
}
