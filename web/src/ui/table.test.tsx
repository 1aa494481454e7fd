import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { i18n, loadNamespaces } from '../app/i18n';
import { Table } from './table';

const ROWS = Array.from({ length: 25 }, (_, i) => ({ id: String(i), name: `Row ${i}` }));

describe('the table', () => {
  it.each([
    ['en', 'Previous page', 'Next page'],
    ['ja', '前のページ', '次のページ'],
  ])(
    'names its pagination’s previous and next page buttons in %s, and keeps a pagination it is given',
    async (language, previous, next) => {
      await i18n.changeLanguage(language);
      await loadNamespaces(['common']);
      const view = render(
        <Table
          rowKey="id"
          dataSource={ROWS}
          columns={[{ title: 'Name', dataIndex: 'name' }]}
          pagination={{ pageSize: 10 }}
        />,
      );
      expect(screen.getByRole('button', { name: previous })).toBeTruthy();
      expect(screen.getByRole('button', { name: next })).toBeTruthy();
      expect(screen.getAllByRole('row')).toHaveLength(11);
      view.unmount();
    },
  );

  it('shows no pagination when told not to', () => {
    render(<Table rowKey="id" dataSource={ROWS} columns={[{ title: 'Name', dataIndex: 'name' }]} pagination={false} />);
    expect(screen.getAllByRole('row')).toHaveLength(26);
  });
});
