import type { TPage } from '@aiedu/contracts';
import { useQuery } from '@tanstack/react-query';
import { Select } from 'antd';
import { useState } from 'react';
import { api } from '../../app/api';

export interface Picked {
  value: string;
  label: string;
}

/**
 * A multiple choice among rows the server searches by `keyword` (courses, customers): the options follow the
 * search, and the chosen rows keep their names (the value holds them) when the next search no longer lists them.
 */
export function SearchSelect({
  path,
  label,
  value,
  onChange,
}: {
  path: string;
  label: string;
  value?: Picked[];
  onChange?: (value: Picked[]) => void;
}) {
  const [keyword, setKeyword] = useState('');
  const found = useQuery({
    queryKey: [path, 'search', keyword],
    queryFn: () =>
      api.get<TPage<{ id: string; name: string }>>(path, { query: { keyword: keyword || undefined, size: 20 } }),
    staleTime: 30_000,
  });
  return (
    <Select<Picked[]>
      mode="multiple"
      labelInValue
      showSearch
      filterOption={false}
      aria-label={label}
      value={value}
      onChange={(next) => onChange?.(next)}
      onSearch={setKeyword}
      loading={found.isFetching}
      options={(found.data?.list ?? []).map((row) => ({ value: row.id, label: row.name }))}
    />
  );
}
