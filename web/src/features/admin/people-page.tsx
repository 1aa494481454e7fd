import { DownloadOutlined, PlusOutlined, UploadOutlined } from '@ant-design/icons';
import type { TStudent, TTeacher } from '@aiedu/contracts';
import { Button, Space, Tag, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AdminShell } from './admin-shell';
import { ADMIN_API, downloadXlsx, useClassOptions, useSchoolOptions } from './admin-api';
import { ImportDialog } from './import-dialog';
import { FilterSelect, ListTable, SearchBar, useStatusSwitch } from './list-controls';
import { PasswordDialog } from './password-dialog';
import { PersonDrawer, type PersonKind } from './person-drawer';
import { useListQuery } from './use-list-query';

type Person = TTeacher | TStudent;

/** Teachers or students of the caller's schools: search, filters, create and edit, switch, password, import, export. */
function PeoplePage({ kind }: { kind: PersonKind }) {
  const { t } = useTranslation('admin');
  const path = kind === 'teacher' ? ADMIN_API.teachers : ADMIN_API.students;
  const list = useListQuery<Person>(path);
  const schools = useSchoolOptions();
  const classes = useClassOptions();
  const [editing, setEditing] = useState<Person | 'new' | null>(null);
  const [resetting, setResetting] = useState<Person | null>(null);
  const [importing, setImporting] = useState(false);
  const status = useStatusSwitch(path, [path], 'people');
  const className = (id: string | null) => classes.data?.find((c) => c.id === id)?.className ?? '';
  const schoolName = (id: string | null) => schools.data?.find((s) => s.id === id)?.name ?? '';

  const columns: TableColumnsType<Person> = [
    { title: t('people.username'), dataIndex: 'username', sorter: true },
    {
      title: t('people.realName'),
      dataIndex: 'realName',
      sorter: true,
      render: (name: string, p) =>
        (p as TTeacher).alsoTeacher ? (
          <Space size={4}>
            {name}
            <Tag>{t('people.administrator')}</Tag>
          </Space>
        ) : (
          name
        ),
    },
    ...(kind === 'student'
      ? [
          {
            title: t('people.class'),
            key: 'class',
            render: (_: unknown, p: Person) => className((p as TStudent).classId),
          },
          { title: t('people.schoolNumber'), dataIndex: 'schoolNumber' },
        ]
      : [
          { title: t('people.phone'), dataIndex: 'phone' },
          { title: t('people.remark'), dataIndex: 'remark', ellipsis: true },
          {
            title: t('people.creator'),
            key: 'creator',
            render: (_: unknown, p: Person) => (p as TTeacher).creator ?? '—',
          },
        ]),
    { title: t('people.school'), key: 'school', render: (_, p) => schoolName(p.schoolId) },
    {
      title: t('common.status'),
      key: 'enabled',
      render: (_, p) => status.render(p, p.username),
    },
    {
      title: t('common.actions'),
      key: 'actions',
      render: (_, p) => (
        <Space size={0} wrap>
          <Button type="link" onClick={() => setEditing(p)}>
            {t('common.edit')}
          </Button>
          <Button type="link" onClick={() => setResetting(p)}>
            {t('people.resetPassword')}
          </Button>
        </Space>
      ),
    },
  ];

  const actions = (
    <>
      <Button icon={<UploadOutlined />} onClick={() => setImporting(true)}>
        {t('people.import')}
      </Button>
      <Button
        icon={<DownloadOutlined />}
        onClick={() =>
          void downloadXlsx(`${path}/export`, `${kind}s.xlsx`, {
            keyword: list.params.keyword as string | undefined,
            classId: list.params.classId as string | undefined,
          })
        }
      >
        {t('common.export')}
      </Button>
      <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')}>
        {t(kind === 'teacher' ? 'people.newTeacher' : 'people.newStudent')}
      </Button>
    </>
  );

  return (
    <AdminShell screen={kind === 'teacher' ? 'teachers' : 'students'} actions={actions}>
      {status.modalHost}
      <div className="admin-toolbar">
        <SearchBar label={t('people.search')} onSearch={(keyword) => list.setFilters({ keyword })} />
        {kind === 'student' && (
          <FilterSelect
            label={t('people.classFilter')}
            options={(classes.data ?? []).map((c) => ({ value: c.id, label: c.className }))}
            onChange={(classId) => list.setFilters({ classId })}
          />
        )}
      </div>
      <ListTable<Person> list={list} columns={columns} scroll={{ x: true }} />
      {editing && (
        <PersonDrawer kind={kind} person={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />
      )}
      {resetting && (
        <PasswordDialog
          path={`${path}/${resetting.id}/password`}
          name={resetting.realName || resetting.username}
          onClose={() => setResetting(null)}
        />
      )}
      {importing && <ImportDialog kind={kind} onClose={() => setImporting(false)} />}
    </AdminShell>
  );
}

export function StudentsPage() {
  return <PeoplePage kind="student" />;
}

export function TeachersPage() {
  return <PeoplePage kind="teacher" />;
}
