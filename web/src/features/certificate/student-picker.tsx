import { DownloadOutlined, UploadOutlined } from '@ant-design/icons';
import {
  CERT_LIMITS,
  COURSE_API,
  SCHEDULE_API,
  type TAdminCourse,
  type TClassOption,
  type CertSource,
  type TCertCandidate,
  type TCertUserListResult,
  type TScheduleOptions,
  type TScheduleSummary,
  type TTeachableCourse,
  type TPage,
} from '@aiedu/contracts';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Alert, Button, Select, Space, Tabs, Tag, type TableColumnsType } from 'antd';
import { Table } from '../../ui/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../app/api';
import { useAdminAccess } from '../admin/admin-access';
import { ADMIN_API } from '../admin/admin-api';
import { certCalls, downloadListTemplate, useCandidates } from './cert-api';

/** The students picked for an issuance and where they came from. */
export interface PickedStudents {
  students: TCertCandidate[];
  source: CertSource;
  sourceId?: string;
}

export const NO_STUDENTS: PickedStudents = { students: [], source: 'manual' };

type GroupSource = 'class' | 'course' | 'schedule';

/** Adds students, keeping each once; the issuance's source stays the one list they all came from, else "manual". */
export function addStudents(
  current: PickedStudents,
  found: TCertCandidate[],
  source: CertSource,
  sourceId?: string,
): PickedStudents {
  const known = new Set(current.students.map((s) => s.userId));
  const students = [...current.students, ...found.filter((s) => !known.has(s.userId))].slice(0, CERT_LIMITS.issueUsers);
  if (!current.students.length) return { students, source, sourceId };
  const same = current.source === source && current.sourceId === sourceId;
  return same ? { ...current, students } : { students, source: 'manual' };
}

/**
 * The classes, courses or schedules the caller may pick students from: an administrator's scope (the class options,
 * the course list, every schedule), or a teacher's own (their school's classes, the courses they may teach, their
 * schedules), as the server reaches their students.
 */
function useSourceOptions(source: GroupSource, keyword: string) {
  const manager = useAdminAccess().can('certificate.manage');
  return useQuery({
    queryKey: ['certificate', 'sources', manager, source, keyword],
    queryFn: async (): Promise<{ value: string; label: string }[]> => {
      const search = { keyword: keyword || undefined, page: 1, size: 50 };
      if (source === 'class') {
        if (manager) {
          const classes = await api.get<TClassOption[]>(`${ADMIN_API.classes}/options`);
          return classes.map((c) => ({ value: c.id, label: c.className }));
        }
        const options = await api.get<TScheduleOptions>(SCHEDULE_API.options);
        return options.classes.map((c) => ({ value: c.id, label: c.name }));
      }
      if (source === 'course') {
        if (manager) {
          const page = await api.get<TPage<TAdminCourse>>(COURSE_API.admin, { query: search });
          return page.list.map((c) => ({ value: c.id, label: c.name }));
        }
        const courses = await api.get<TTeachableCourse[]>(SCHEDULE_API.courseOptions, { query: { keyword } });
        return courses.map((c) => ({ value: c.id, label: c.name }));
      }
      const page = await api.get<TPage<TScheduleSummary>>(manager ? SCHEDULE_API.admin : SCHEDULE_API.base, {
        query: search,
      });
      return page.list.map((s) => ({ value: s.id, label: s.name }));
    },
    staleTime: 30_000,
  });
}

function GroupPicker({
  source,
  onAdd,
}: {
  source: GroupSource;
  onAdd: (found: TCertCandidate[], sourceId: string) => void;
}) {
  const { t } = useTranslation('certificate');
  const [keyword, setKeyword] = useState('');
  const [sourceId, setSourceId] = useState<string>();
  const options = useSourceOptions(source, keyword);
  const candidates = useCandidates(source, sourceId);
  return (
    <Space wrap align="center">
      <Select
        showSearch
        allowClear
        style={{ width: 280 }}
        aria-label={t(`picker.choose.${source}`)}
        placeholder={t(`picker.choose.${source}`)}
        filterOption={
          source === 'class'
            ? (input, o) =>
                String(o?.label ?? '')
                  .toLowerCase()
                  .includes(input.toLowerCase())
            : false
        }
        onSearch={source === 'class' ? undefined : setKeyword}
        loading={options.isFetching}
        options={options.data ?? []}
        value={sourceId}
        onChange={(value?: string) => setSourceId(value)}
      />
      <Button
        disabled={!candidates.data?.length}
        loading={candidates.isFetching}
        onClick={() => sourceId && onAdd(candidates.data ?? [], sourceId)}
      >
        {t('picker.addAll', { count: candidates.data?.length ?? 0 })}
      </Button>
    </Space>
  );
}

/** An xlsx list: the template to fill, then the dry run's rows with their errors; the valid ones can be added. */
function ListPicker({ onAdd }: { onAdd: (found: TCertCandidate[]) => void }) {
  const { t } = useTranslation('certificate');
  const [result, setResult] = useState<TCertUserListResult | null>(null);
  const upload = useMutation({ mutationFn: certCalls.uploadList, onSuccess: setResult });
  const columns: TableColumnsType<TCertUserListResult['rows'][number]> = [
    { title: t('picker.row'), dataIndex: 'row', width: 70 },
    { title: t('fields.username'), dataIndex: 'username' },
    { title: t('fields.holder'), dataIndex: 'realName' },
    {
      title: t('picker.check'),
      key: 'error',
      render: (_, r) => (r.error ? <span className="cert-error">{r.error}</span> : <Tag>{t('picker.rowOk')}</Tag>),
    },
  ];
  const valid = result?.rows.flatMap((r) => (r.user && !r.error ? [r.user] : [])) ?? [];
  return (
    <div>
      <Space wrap>
        <Button icon={<DownloadOutlined />} onClick={() => void downloadListTemplate()}>
          {t('picker.template')}
        </Button>
        <label className="ant-btn ant-btn-default cert-upload">
          <UploadOutlined aria-hidden="true" /> {t('picker.upload')}
          <input
            type="file"
            className="visually-hidden"
            accept=".xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
            onChange={(e) => {
              const file = e.target.files?.[0];
              if (file) upload.mutate(file);
              e.target.value = '';
            }}
          />
        </label>
      </Space>
      {result && (
        <>
          <Alert
            className="cert-preview"
            type={result.invalid ? 'warning' : 'success'}
            showIcon
            title={t('picker.dryRun', { valid: result.valid, invalid: result.invalid })}
          />
          <Table rowKey="row" size="small" columns={columns} dataSource={result.rows} pagination={{ pageSize: 10 }} />
          <Button type="primary" disabled={!valid.length} onClick={() => onAdd(valid)}>
            {t('picker.addValid', { count: valid.length })}
          </Button>
        </>
      )}
    </div>
  );
}

/** Picks students from a class, a course's learners, a schedule or an xlsx list, and shows those picked. */
export function StudentPicker({
  value,
  onChange,
}: {
  value: PickedStudents;
  onChange: (next: PickedStudents) => void;
}) {
  const { t } = useTranslation('certificate');
  const add = (found: TCertCandidate[], source: CertSource, sourceId?: string) =>
    onChange(addStudents(value, found, source, sourceId));
  const columns: TableColumnsType<TCertCandidate> = [
    { title: t('fields.holder'), dataIndex: 'realName' },
    { title: t('fields.username'), dataIndex: 'username' },
    {
      title: t('fields.class'),
      key: 'class',
      render: (_, s) => [s.schoolName, s.className].filter(Boolean).join(' · '),
    },
    {
      title: t('common.actions'),
      key: 'actions',
      render: (_, s) => (
        <Button
          type="link"
          danger
          aria-label={t('picker.removeOne', { name: s.realName || s.username })}
          onClick={() => onChange({ ...value, students: value.students.filter((x) => x.userId !== s.userId) })}
        >
          {t('picker.remove')}
        </Button>
      ),
    },
  ];
  const { can } = useAdminAccess();
  // A school administrator reads no course list: their students come from classes, schedules and lists.
  const sources: GroupSource[] = ['class', 'course', 'schedule'].filter(
    (source) => source !== 'course' || !can('certificate.manage') || can('courseList.view'),
  ) as GroupSource[];
  return (
    <div className="cert-picker">
      <Tabs
        size="small"
        items={[
          ...sources.map((source) => ({
            key: source,
            label: t(`sources.${source}`),
            children: <GroupPicker source={source} onAdd={(found, id) => add(found, source, id)} />,
          })),
          { key: 'list', label: t('sources.list'), children: <ListPicker onAdd={(found) => add(found, 'list')} /> },
        ]}
      />
      <div className="cert-picker__title">
        <h2>{t('picker.selected', { count: value.students.length })}</h2>
        {value.students.length > 0 && (
          <Button type="link" onClick={() => onChange(NO_STUDENTS)}>
            {t('picker.clear')}
          </Button>
        )}
      </div>
      <Table rowKey="userId" size="small" columns={columns} dataSource={value.students} pagination={{ pageSize: 10 }} />
    </div>
  );
}
