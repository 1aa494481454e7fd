import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Tabs } from 'antd';
import { describe, expect, it, vi } from 'vitest';
import { i18n, loadNamespaces } from '../app/i18n';
import { SearchInput, useTabsMore } from './named-icons';

function TabsWithMore() {
  return <Tabs more={useTabsMore()} items={[{ key: 'a', label: 'A', children: 'a' }]} />;
}

describe('controls the component library draws as bare icons', () => {
  it.each([
    ['en', 'Search', 'Clear', 'More tabs'],
    ['zh_CHS', '搜索', '清除', '更多标签页'],
  ])('are named in %s: the search box’s buttons and the tabs’ more button', async (language, search, clear, more) => {
    await i18n.changeLanguage(language);
    await loadNamespaces(['common']);
    const onSearch = vi.fn();
    const user = userEvent.setup();
    const view = render(<SearchInput aria-label="Find" allowClear onSearch={onSearch} />);
    await user.type(screen.getByRole('searchbox', { name: 'Find' }), 'robots');
    await user.click(screen.getByRole('button', { name: search }));
    expect(onSearch).toHaveBeenLastCalledWith('robots', expect.anything(), expect.anything());
    // The clear button's name is its hidden text; the icon itself is hidden from assistive technology.
    const clearButton = screen.getByRole('button', { name: clear });
    expect(within(clearButton).getByText(clear).className).toBe('visually-hidden');
    await user.click(clearButton);
    expect(screen.getByRole<HTMLInputElement>('searchbox', { name: 'Find' }).value).toBe('');
    view.unmount();

    const { container } = render(<TabsWithMore />);
    expect(container.querySelector('.ant-tabs-nav-more')?.textContent).toBe(more);
  });
});
