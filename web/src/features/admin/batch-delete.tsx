import { DeleteOutlined } from '@ant-design/icons';
import { Button, Modal, type TableProps } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../app/api';
import { useAdminMutation } from './admin-api';
import { confirmDelete } from './confirm';

/**
 * Deleting one row of a list or the rows selected in it (`DELETE <path>/<id>`, `POST <path>/batch-delete { ids }`,
 * all or none), each after the 472 px confirmation. The texts are `<texts>.deleteTitle`, `.deleteManyTitle`,
 * `.deleteBody`, `.deleteSelected` and `.select` of the `admin` namespace.
 */
export function useBatchDelete<T extends { id: string }>(
  path: string,
  refresh: readonly string[],
  texts: 'users' | 'customRoles',
  nameOf: (row: T) => string,
) {
  const { t } = useTranslation('admin');
  const [modal, modalHost] = Modal.useModal();
  const [selected, setSelected] = useState<string[]>([]);
  const remove = useAdminMutation(
    (ids: string[]) => (ids.length === 1 ? api.delete(`${path}/${ids[0]}`) : api.post(`${path}/batch-delete`, { ids })),
    refresh,
    () => setSelected([]),
  );
  const ask = (ids: string[], name: string) =>
    confirmDelete(modal, {
      title:
        ids.length === 1 ? t(`${texts}.deleteTitle`, { name }) : t(`${texts}.deleteManyTitle`, { count: ids.length }),
      content: t(`${texts}.deleteBody`),
      onOk: () => remove.mutateAsync(ids),
    });
  const rowSelection: TableProps<T>['rowSelection'] = {
    selectedRowKeys: selected,
    preserveSelectedRowKeys: true,
    onChange: (keys) => setSelected(keys as string[]),
    getCheckboxProps: (row) => ({ 'aria-label': t(`${texts}.select`, { name: nameOf(row) }) }),
  };
  const deleteSelected = (
    <Button danger icon={<DeleteOutlined />} disabled={selected.length === 0} onClick={() => ask(selected, '')}>
      {t(`${texts}.deleteSelected`, { count: selected.length })}
    </Button>
  );
  return { modalHost, rowSelection, deleteSelected, askDelete: (row: T) => ask([row.id], nameOf(row)) };
}
