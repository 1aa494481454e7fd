import { DownloadOutlined } from '@ant-design/icons';
import { Button, DatePicker } from 'antd';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../ui/dates';
import { AdminShell } from './admin-shell';
import { FilterSelect, ListTable } from './list-controls';
import { ADMIN_API, downloadXlsx } from './admin-api';
import { useListQuery } from './use-list-query';
import { SearchInput } from '../../ui/named-icons';

interface Log {
  id: string;
  operatorName: string;
  module: string;
  operation: string;
  ip: string;
  params: unknown;
  createdAt: string;
}

const MODULES = [
  'customer',
  'sub-customer',
  'school',
  'class',
  'teacher',
  'student',
  'period',
  'user',
  'institution-home',
  'certificate',
  'event',
];
const OPERATIONS = [
  'create',
  'update',
  'switch',
  'delete',
  'import',
  'upgrade',
  'dismiss',
  'reset-password',
  'schedule-upgrade',
  'issue',
  'resubmit',
  'review',
  'withdraw',
  'revoke',
  'reissue',
  'addAuditor',
  'removeAuditor',
  'settings',
  'submit',
  'qualify',
  'audit',
  'addJudge',
  'removeJudge',
  'assign',
  'reopen',
  'publish',
  'evaluation',
];

/** Operation logs: search by operator, module, operation and time; export what was found. Nothing here changes a log. */
export function LogsPage() {
  const { t } = useTranslation('admin');
  const list = useListQuery<Log>(ADMIN_API.logs);
  const filters = () => {
    const { page: _p, size: _s, sort: _o, ...rest } = list.params;
    return Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, v === undefined ? undefined : String(v)]));
  };
  const label = (kind: 'modules' | 'operations', value: string) => t(`logs.${kind}.${value}`, { defaultValue: value });
  return (
    <AdminShell
      screen="logs"
      actions={
        <Button
          icon={<DownloadOutlined />}
          onClick={() => void downloadXlsx(`${ADMIN_API.logs}/export`, 'operation-logs.xlsx', filters())}
        >
          {t('common.export')}
        </Button>
      }
    >
      <div className="admin-toolbar" role="search">
        <SearchInput
          allowClear
          aria-label={t('logs.operator')}
          placeholder={t('logs.operator')}
          style={{ width: 200 }}
          onSearch={(operator) => list.setFilters({ operator: operator || undefined })}
        />
        <FilterSelect
          label={t('logs.module')}
          width={170}
          options={MODULES.map((m) => ({ value: m, label: label('modules', m) }))}
          onChange={(module) => list.setFilters({ module })}
        />
        <FilterSelect
          label={t('logs.operation')}
          width={170}
          options={OPERATIONS.map((o) => ({ value: o, label: label('operations', o) }))}
          onChange={(operation) => list.setFilters({ operation })}
        />
        <DatePicker.RangePicker
          aria-label={t('logs.time')}
          onChange={(range) => {
            const [from, to] = (range ?? []) as (Dayjs | null)[];
            list.setFilters({
              from: from?.startOf('day').format(),
              to: to?.add(1, 'day').startOf('day').format(),
            });
          }}
        />
      </div>
      <ListTable<Log>
        list={list}
        tableLayout="fixed"
        columns={[
          { title: t('logs.time'), key: 'time', render: (_, l) => formatDateTime(l.createdAt) },
          { title: t('logs.operator'), dataIndex: 'operatorName' },
          { title: t('logs.module'), key: 'module', render: (_, l) => label('modules', l.module) },
          { title: t('logs.operation'), key: 'operation', render: (_, l) => label('operations', l.operation) },
          { title: t('logs.ip'), dataIndex: 'ip' },
          {
            title: t('logs.params'),
            key: 'params',
            ellipsis: true,
            render: (_, l) => <code>{JSON.stringify(l.params)}</code>,
          },
        ]}
      />
    </AdminShell>
  );
}
