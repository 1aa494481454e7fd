import { Button, Modal, Select, Space, Switch, type TableProps } from 'antd';
import { Table } from '../../ui/table';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../app/api';
import { useAdminMutation } from './admin-api';
import { confirmDanger } from './confirm';
import type { ListQuery } from './use-list-query';
import { SearchInput } from '../../ui/named-icons';

/** The search box of a list's toolbar: searching starts again at the first page. */
export function SearchBar({ label, onSearch }: { label: string; onSearch: (keyword: string | undefined) => void }) {
  return (
    <div role="search">
      <SearchInput
        allowClear
        aria-label={label}
        placeholder={label}
        // The longest hint, "Search by username or name", whole beside the clear button; never wider than a phone.
        style={{ width: 300, maxWidth: '100%' }}
        onSearch={(keyword) => onSearch(keyword || undefined)}
      />
    </div>
  );
}

/** A filter of a list's toolbar: one choice or none, named by its label for screen readers. */
export function FilterSelect({
  label,
  options,
  onChange,
  width = 220,
}: {
  label: string;
  options: { value: string; label: string }[];
  onChange: (value: string | undefined) => void;
  width?: number;
}) {
  return (
    <Select
      allowClear
      aria-label={label}
      placeholder={label}
      style={{ width }}
      options={options}
      onChange={(value?: string) => onChange(value)}
    />
  );
}

/**
 * The on/off switch of a row (`PUT <path>/<id>/status`). Switching on is immediate; switching off asks first, in
 * the 472 px confirmation, saying what stops working.
 */
export function useStatusSwitch(
  path: string,
  refresh: readonly string[],
  texts: 'people' | 'schools' | 'customers' | 'users' | 'customRoles',
) {
  const { t } = useTranslation('admin');
  const [modal, modalHost] = Modal.useModal();
  const change = useAdminMutation(
    ({ id, enabled }: { id: string; enabled: boolean }) => api.put(`${path}/${id}/status`, { enabled }),
    refresh,
  );
  const onChange = (row: { id: string }, name: string, enabled: boolean) =>
    enabled
      ? change.mutate({ id: row.id, enabled })
      : confirmDanger(modal, {
          title: t(`${texts}.disableTitle`, { name }),
          content: t(`${texts}.disableBody`),
          okText: t('common.switchOff'),
          cancelText: t('common.cancel'),
          onOk: () => change.mutateAsync({ id: row.id, enabled }),
        });
  const render = (row: { id: string; enabled: boolean }, name: string) => (
    <Switch
      checked={row.enabled}
      aria-label={t('common.switchFor', { name })}
      onChange={(enabled) => onChange(row, name, enabled)}
    />
  );
  return { render, modalHost };
}

/**
 * A server-paginated table of a `useListQuery` list: its rows, loading state, paging and sorting. Rows are keyed by
 * `id` unless `rowKey` names another field.
 */
export function ListTable<T extends object>({
  list,
  rowKey = 'id',
  ...table
}: { list: ListQuery<T>; rowKey?: string } & Omit<
  TableProps<T>,
  'rowKey' | 'dataSource' | 'loading' | 'pagination' | 'onChange'
>) {
  return (
    <Table<T>
      rowKey={rowKey}
      dataSource={list.rows}
      loading={list.query.isFetching}
      pagination={list.pagination}
      onChange={list.onChange}
      {...table}
    />
  );
}

/** A row's Edit and Delete links, with any other actions between them. */
export function RowActions({
  onEdit,
  onDelete,
  children,
}: {
  onEdit: () => void;
  onDelete: () => void;
  children?: ReactNode;
}) {
  const { t } = useTranslation('admin');
  return (
    <Space size={0} wrap>
      <Button type="link" onClick={onEdit}>
        {t('common.edit')}
      </Button>
      {children}
      <Button type="link" danger onClick={onDelete}>
        {t('common.delete')}
      </Button>
    </Space>
  );
}
