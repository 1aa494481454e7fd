import { API, ROLES } from '@aiedu/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { changeLanguage } from '../../app/i18n';
import { clearSession, saveLogin } from '../../app/session';
import { createFakeServer, ok } from '../../test/fake-api';
import { axeViolations } from '../../test/page-kit';
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

  it('rotates three banners one at a time, each named, held still on demand', async () => {
    const user = userEvent.setup();
    home = {
      ...HOME,
      banners: [1, 2, 3].map((n) => ({
        imageUrl: `/gw/api/v1/files/download?key=b${n}`,
        link: `https://demo.example/${n}`,
      })),
    };
    renderApp('/home');
    const carousel = await screen.findByRole(
      'region',
      { name: 'Banners of Demo Education Bureau' },
      { timeout: 10_000 },
    );
    expect(carousel.getAttribute('aria-roledescription')).toBe('carousel');
    const slides = within(carousel).getAllByRole('group', { hidden: true });
    expect(slides.map((s) => s.getAttribute('aria-label'))).toEqual(['Slide 1 of 3', 'Slide 2 of 3', 'Slide 3 of 3']);
    expect(slides.map((s) => s.getAttribute('aria-hidden'))).toEqual(['false', 'true', 'true']);
    await user.click(within(carousel).getByRole('button', { name: 'Show slide 3 of 3' }));
    expect(slides.map((s) => s.getAttribute('aria-hidden'))).toEqual(['true', 'true', 'false']);
    expect(within(carousel).getByRole('link', { name: 'Banner 3 of Demo Education Bureau' })).toBeTruthy();
    await user.click(within(carousel).getByRole('button', { name: 'Pause slideshow' }));
    expect(within(carousel).getByRole('button', { name: 'Play slideshow' })).toBeTruthy();
  });

  it('starts the banners paused for people who ask for reduced motion', async () => {
    const original = window.matchMedia;
    window.matchMedia = ((media: string) =>
      Object.assign(new EventTarget(), {
        media,
        matches: media === '(prefers-reduced-motion: reduce)',
        addListener: () => undefined,
        removeListener: () => undefined,
      })) as unknown as typeof original;
    try {
      home = { ...HOME, banners: [HOME.banners[0]!, { ...HOME.banners[0]!, imageUrl: '/b2' }] };
      renderApp('/home');
      const carousel = await screen.findByRole(
        'region',
        { name: 'Banners of Demo Education Bureau' },
        { timeout: 10_000 },
      );
      expect(within(carousel).getByRole('button', { name: 'Play slideshow' })).toBeTruthy();
    } finally {
      window.matchMedia = original;
    }
  });

  it.each(['en', 'zh_CHS'] as const)('passes axe in %s with its banners', async (language) => {
    await changeLanguage(language, { remember: false });
    home = { ...HOME, banners: [HOME.banners[0]!, { ...HOME.banners[0]!, imageUrl: '/b2' }] };
    renderApp('/home');
    await screen.findByRole('region', { name: 'Demo Education Bureau' }, { timeout: 10_000 });
    await waitFor(() => expect(document.querySelectorAll('.home-banner__carousel')).toHaveLength(2));
    expect(await axeViolations()).toEqual([]);
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
