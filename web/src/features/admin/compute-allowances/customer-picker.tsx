import type { TCustomer, TPage } from '@aiedu/contracts';
import { useQuery } from '@tanstack/react-query';
import { Select } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../../app/api';
import { ADMIN_API } from '../admin-api';

interface PickerProps {
  value: string | undefined;
  onChange: (customerId: string | undefined) => void;
}

/** Super administrators find any customer by name or code. */
export function AnyCustomerPicker({ value, onChange }: PickerProps) {
  const { t } = useTranslation('admin');
  const [keyword, setKeyword] = useState('');
  const customers = useQuery({
    queryKey: [ADMIN_API.customers, 'picker', keyword],
    queryFn: () =>
      api.get<TPage<TCustomer>>(ADMIN_API.customers, { query: { keyword: keyword || undefined, size: 20 } }),
  });
  return (
    <Select
      aria-label={t('compute.customer')}
      placeholder={t('compute.searchCustomer')}
      className="compute-allowances__picker"
      showSearch={{ filterOption: false, onSearch: setKeyword }}
      loading={customers.isFetching}
      value={value}
      onChange={onChange}
      options={(customers.data?.list ?? []).map((c) => ({ value: c.id, label: `${c.name} (${c.code})` }))}
    />
  );
}

/** Customer administrators set their own institution's allowances, or those of a sub-customer below it. */
export function OwnCustomerPicker({ value, onChange }: PickerProps) {
  const { t } = useTranslation('admin');
  const subCustomers = useQuery({
    queryKey: [ADMIN_API.subCustomers],
    queryFn: () => api.get<TCustomer[]>(ADMIN_API.subCustomers),
  });
  if (!subCustomers.data?.length) return null;
  return (
    <Select
      aria-label={t('compute.customer')}
      className="compute-allowances__picker"
      value={value ?? ''}
      onChange={(id: string) => onChange(id || undefined)}
      options={[
        { value: '', label: t('compute.ownInstitution') },
        ...subCustomers.data.map((c) => ({ value: c.id, label: c.name })),
      ]}
    />
  );
}
