import type { TPage } from '@aiedu/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { TablePaginationConfig, TableProps } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../app/api';

export interface ListParams {
  page: number;
  size: number;
  sort?: string;
  [filter: string]: string | number | undefined;
}

/**
 * A server-paginated list: page, size, sort and filters live here and go to the server as query parameters
 * (DECISIONS: `page`, `size`, `keyword`, `sort=field,asc|desc`); the table's pagination and sorting drive them.
 */
export function useListQuery<T>(path: string, initial: Record<string, string | undefined> = {}) {
  const { t } = useTranslation('admin');
  const [params, setParams] = useState<ListParams>({ page: 1, size: 20, ...initial });
  const query = useQuery({
    queryKey: [path, params],
    queryFn: () => api.get<TPage<T>>(path, { query: params }),
    placeholderData: keepPreviousData,
  });
  const setFilters = (filters: Record<string, string | undefined>) =>
    setParams((current) => ({ ...current, ...filters, page: 1 }));
  const pagination: TablePaginationConfig = {
    current: params.page,
    pageSize: params.size,
    total: query.data?.total ?? 0,
    showSizeChanger: true,
    showTotal: (total) => t('common.total', { count: total }),
  };
  const onChange: TableProps<T>['onChange'] = (next, _filters, sorter) => {
    const single = Array.isArray(sorter) ? sorter[0] : sorter;
    const sort =
      single?.order && typeof single.field === 'string'
        ? `${single.field},${single.order === 'ascend' ? 'asc' : 'desc'}`
        : undefined;
    setParams((current) => ({ ...current, page: next.current ?? 1, size: next.pageSize ?? current.size, sort }));
  };
  return { params, setFilters, query, rows: query.data?.list ?? [], pagination, onChange };
}

/** What `useListQuery` gives a page: its parameters, filters, query, rows and the table's paging. */
export type ListQuery<T> = ReturnType<typeof useListQuery<T>>;
