import { Table as LibraryTable, type TableProps } from 'antd';
import { usePageButtons } from './named-icons';

/**
 * The library's table with its pagination's previous and next page buttons named in the user's language (the
 * library shows a pagination under every table unless told not to, and names those buttons only by their icons).
 */
export function Table<T extends object>({ pagination, ...props }: TableProps<T>) {
  const itemRender = usePageButtons();
  return <LibraryTable<T> {...props} pagination={pagination === false ? false : { itemRender, ...pagination }} />;
}
