import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { changeLanguage } from '../../app/i18n';
import { startVisitorApi } from '../../test/page-kit';
import { renderApp } from '../../test/render-app';

beforeEach(async () => {
  document.cookie = 'language=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/';
  await changeLanguage('en', { remember: false });
  startVisitorApi();
});
afterEach(() => vi.restoreAllMocks());

describe('home page', () => {
  it('shows the landing with navigation for every area, a login button and the footer links', async () => {
    renderApp('/home');

    expect(await screen.findByRole('heading', { level: 1, name: 'Learn AI by building it' })).toBeTruthy();
    const nav = screen.getByRole('navigation', { name: 'Main navigation' });
    const links = within(nav)
      .getAllByRole('link')
      .map((link) => link.textContent);
    expect(links).toEqual(['Home', 'Courses', 'Projects', 'Datasets', 'Events', 'AI', 'Groups']);
    expect(screen.getByRole('button', { name: 'Log in' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'User agreement' }).getAttribute('href')).toBe('/home/protocol');
    expect(screen.getByRole('link', { name: 'Privacy policy' }).getAttribute('href')).toBe('/home/privacy');
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
    expect(screen.getByRole('region', { name: 'Highlights' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Show slide 2 of 3' })).toBeTruthy();
    expect(document.title).toBe('Home · AI Education Platform');
  });

  it('switches language from the header without a reload: texts, <html lang> and the cookie', async () => {
    const user = userEvent.setup();
    renderApp('/home');
    await screen.findByRole('heading', { level: 1, name: 'Learn AI by building it' });

    await user.selectOptions(screen.getByRole('combobox', { name: 'Language' }), 'zh_CHS');

    expect(await screen.findByRole('heading', { level: 1, name: '动手做，学会 AI' })).toBeTruthy();
    expect(screen.getByRole('navigation', { name: '主导航' })).toBeTruthy();
    expect(screen.getByRole('button', { name: '登录' })).toBeTruthy();
    expect(screen.getByRole('combobox', { name: '语言' })).toBeTruthy();
    expect(document.documentElement.lang).toBe('zh-CN');
    expect(document.cookie).toContain('language=zh_CHS');

    await user.selectOptions(screen.getByRole('combobox', { name: '语言' }), 'ja');
    expect(await screen.findByRole('heading', { level: 1, name: 'つくって学ぶ AI' })).toBeTruthy();
    expect(document.documentElement.lang).toBe('ja');
  });

  it('redirects / to /home', async () => {
    const { router } = renderApp('/');
    await screen.findByRole('heading', { level: 1, name: 'Learn AI by building it' });
    expect(router.state.location.pathname).toBe('/home');
  });
});

describe('page not found', () => {
  it('shows a not-found page with a link home, in the chosen language', async () => {
    const user = userEvent.setup();
    renderApp('/no/such/page');

    expect(await screen.findByRole('heading', { level: 1, name: 'Page not found' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to home' }).getAttribute('href')).toBe('/home');

    await user.selectOptions(screen.getByRole('combobox', { name: 'Language' }), 'zh_CHT');
    expect(await screen.findByRole('heading', { level: 1, name: '找不到頁面' })).toBeTruthy();
    expect(screen.getByRole('link', { name: '返回首頁' })).toBeTruthy();
  });
});

describe('placeholder screens', () => {
  it('renders a coming-soon page titled after the screen', async () => {
    renderApp('/pjedu/mall');
    expect(await screen.findByRole('heading', { level: 1, name: 'Points mall' })).toBeTruthy();
    expect(screen.getByText('This screen is coming soon.')).toBeTruthy();
    await waitFor(() => expect(document.title).toBe('Points mall · AI Education Platform'));
  });

  it('renders the super administrator sign-in without a customer code, sign-up or reset', async () => {
    renderApp('/pjPortal/super/sign/login');
    expect(await screen.findByRole('heading', { level: 1, name: 'Super administrator sign-in' })).toBeTruthy();
    expect(await screen.findByLabelText('Username, email or phone')).toBeTruthy();
    expect(screen.queryByLabelText('Institution code')).toBeNull();
    expect(screen.queryByRole('tab', { name: 'Phone code' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Create an account' })).toBeNull();
  });

  it('renders the user agreement', async () => {
    renderApp('/home/protocol');
    expect(await screen.findByRole('heading', { level: 1, name: 'User agreement' })).toBeTruthy();
    expect(screen.getByRole('heading', { level: 2, name: 'Your account' })).toBeTruthy();
  });
});
