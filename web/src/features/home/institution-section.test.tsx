import { API, ROLES } from '@aiedu/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { changeLanguage } from '../../app/i18n';
import { clearSession, saveLogin } from '../../app/session';
import { createFakeServer, ok } from '../../test/fake-api';
import { renderApp } from '../../test/render-app';

const HOME = {
  custcode: 'demo2026',
  name: 'Demo Education Bureau',
  banners: [{ imageUrl: '/gw/api/v1/files/download?key=b1', link: 'https://demo.example/spring' }],
  projectTypes: ['Computer vision', 'Robotics'],
  footerSites: [{ name: 'Bureau website', url: 'https://demo.example/' }],
  modules: { teacher: ['courses'], student: ['courses', 'projects'] },
};

let home: typeof HOME;

beforeEach(async () => {
  home = HOME;
  clearSession();
  await changeLanguage('en', { remember: false });
  const server = createFakeServer();
  server.on(`GET ${API.userInfo}`, () => ok({ id: 'u-1', username: 'student01', nickname: 'Ada', realName: '' }));
  server.on(`GET ${API.pointsTotal}`, () => ok(0));
  server.on(`GET ${API.schoolHome}`, () => ok(home));
  server.on(`GET ${API.schoolModules}`, () => ok([{ id: 'courses' }, { id: 'projects' }]));
  vi.spyOn(window, 'fetch').mockImplementation((url, init) => server.fetch(String(url), init ?? {}));
  saveLogin({ token: 't', refreshToken: 'r', userId: 'u-1', roles: [ROLES.student], custcode: 'demo2026' });
});

afterEach(() => {
  vi.restoreAllMocks();
  clearSession();
});

describe('an institution’s home for its users', { timeout: 20_000 }, () => {
  it('shows its banners, project types and footer sites, and only the modules its side may use', async () => {
    renderApp('/home');
    const section = await screen.findByRole('region', { name: 'Demo Education Bureau' }, { timeout: 10_000 });
    expect(within(section).getByRole('link', { name: 'Banner 1 of Demo Education Bureau' }).getAttribute('href')).toBe(
      'https://demo.example/spring',
    );
    expect(
      within(section)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toContain('Robotics');
    const sites = await screen.findByRole('navigation', { name: 'Our sites' });
    expect(within(sites).getByRole('link', { name: 'Bureau website' }).getAttribute('href')).toBe(
      'https://demo.example/',
    );
    const nav = screen.getByRole('navigation', { name: 'Main navigation' });
    await waitFor(() =>
      expect(
        within(nav)
          .getAllByRole('link')
          .map((a) => a.textContent),
      ).toEqual(['Home', 'Courses', 'Projects']),
    );
  });

  it('shows a stored link that is not http(s) as plain text, never as a link', async () => {
    home = {
      ...HOME,
      banners: [{ imageUrl: '/gw/api/v1/files/download?key=b1', link: 'javascript:alert(1)' }],
      footerSites: [{ name: 'Old site', url: 'javascript:alert(2)' }],
    };
    renderApp('/home');
    const section = await screen.findByRole('region', { name: 'Demo Education Bureau' }, { timeout: 10_000 });
    expect(within(section).getByRole('img', { name: 'Banner 1 of Demo Education Bureau' })).toBeTruthy();
    expect(within(section).queryByRole('link')).toBeNull();
    const sites = await screen.findByRole('navigation', { name: 'Our sites' });
    expect(within(sites).getByText('Old site')).toBeTruthy();
    expect(within(sites).queryByRole('link')).toBeNull();
  });
});
