import type { TPage } from '@aiedu/contracts';
import type { UseQueryResult } from '@tanstack/react-query';
import { Empty, type TableProps } from 'antd';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { SearchInput } from '../../ui/named-icons';
import { Table } from '../../ui/table';
import type { PageQuery } from './group-api';

/** Page, size and search of a server-paged list (DECISIONS: `page`, `size`, `keyword`). */
export function usePaging(size = 20) {
  const [query, setQuery] = useState<PageQuery>({ page: 1, size });
  return {
    query,
    search: (keyword: string) => setQuery((q) => ({ ...q, keyword: keyword.trim() || undefined, page: 1 })),
    turn: (page: number, pageSize: number) => setQuery((q) => ({ ...q, page, size: pageSize })),
  };
}
export type Paging = ReturnType<typeof usePaging>;

/** A group's list as a table: a search box above (when labelled), the server's page below, an empty state that teaches. */
export function PagedTable<T extends object>({
  paging,
  query,
  searchLabel,
  emptyText,
  toolbar,
  ...table
}: {
  paging: Paging;
  query: UseQueryResult<TPage<T>>;
  searchLabel?: string;
  emptyText: ReactNode;
  toolbar?: ReactNode;
} & Omit<TableProps<T>, 'dataSource' | 'loading' | 'pagination'>) {
  const { t } = useTranslation('group');
  return (
    <>
      {(searchLabel || toolbar) && (
        <div className="group-toolbar">
          {searchLabel && (
            <div role="search">
              <SearchInput
                allowClear
                aria-label={searchLabel}
                placeholder={searchLabel}
                style={{ width: 300, maxWidth: '100%' }}
                onSearch={paging.search}
              />
            </div>
          )}
          {toolbar}
        </div>
      )}
      <Table<T>
        dataSource={query.data?.list ?? []}
        loading={query.isFetching}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: query.isPending ? <span /> : <Empty description={emptyText} /> }}
        pagination={{
          current: paging.query.page,
          pageSize: paging.query.size,
          total: query.data?.total ?? 0,
          hideOnSinglePage: true,
          showTotal: (total) => t('list.total', { count: total }),
          onChange: paging.turn,
        }}
        {...table}
      />
    </>
  );
}
