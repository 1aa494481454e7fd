import { API, ROLES, type TComputeAllowance } from '@aiedu/contracts';
import { useQuery } from '@tanstack/react-query';
import { Button, Empty } from 'antd';
import { Table } from '../../../ui/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../../app/api';
import { useSessionRoles } from '../../../app/session';
import { AdminShell, guarded } from '../admin-shell';
import { AllowanceDrawer } from './allowance-drawer';
import { AnyCustomerPicker, OwnCustomerPicker } from './customer-picker';
import './compute-allowances.css';

/**
 * Weekly compute time per runtime type of an institution (`GET`/`PUT /api/v1/admin/compute-allowances`): the
 * minutes each of its users may run notebooks per week. Super administrators choose the institution first.
 */
function ComputeAllowances() {
  const { t, i18n } = useTranslation('admin');
  const isSuper = useSessionRoles().includes(ROLES.super);
  const [customerId, setCustomerId] = useState<string | undefined>();
  const [editing, setEditing] = useState<TComputeAllowance | null>(null);
  const chosen = !isSuper || Boolean(customerId);
  const allowances = useQuery({
    queryKey: [API.computeAllowances, customerId ?? ''],
    queryFn: () => api.get<TComputeAllowance[]>(API.computeAllowances, { query: { customerId } }),
    enabled: chosen,
  });
  const numbers = new Intl.NumberFormat(i18n.language.replace('_CHS', '-CN').replace('_CHT', '-TW'), {
    maximumFractionDigits: 1,
  });
  const Picker = isSuper ? AnyCustomerPicker : OwnCustomerPicker;
  return (
    <AdminShell screen="computeAllowances">
      <p>{t('compute.lead')}</p>
      <div className="admin-toolbar">
        <Picker value={customerId} onChange={setCustomerId} />
      </div>
      {chosen ? (
        <Table<TComputeAllowance>
          rowKey="runtimeType"
          loading={allowances.isFetching}
          dataSource={allowances.data ?? []}
          pagination={false}
          columns={[
            {
              title: t('compute.runtimeType'),
              dataIndex: 'runtimeType',
              render: (type: TComputeAllowance['runtimeType']) => t(`containerTypes.${type}`),
            },
            {
              title: t('compute.weeklyMinutes'),
              dataIndex: 'weeklyMinutes',
              render: (minutes: number) =>
                t('compute.minutesValue', { minutes: numbers.format(minutes), hours: numbers.format(minutes / 60) }),
            },
            {
              title: t('common.actions'),
              key: 'actions',
              render: (_, row) => (
                <Button
                  type="link"
                  aria-label={t('compute.editFor', { type: t(`containerTypes.${row.runtimeType}`) })}
                  onClick={() => setEditing(row)}
                >
                  {t('common.edit')}
                </Button>
              ),
            },
          ]}
        />
      ) : (
        <Empty description={t('compute.chooseCustomer')} />
      )}
      {editing && <AllowanceDrawer allowance={editing} customerId={customerId} onClose={() => setEditing(null)} />}
    </AdminShell>
  );
}

export const ComputeAllowancesPage = guarded('computeAllowances', ComputeAllowances);
