import { API } from '@aiedu/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { changeLanguage } from '../../app/i18n';
import { clearSession, saveLogin } from '../../app/session';
import { createFakeServer, fail, ok, type FakeServer } from '../../test/fake-api';
import { aProject } from '../../test/project-fixtures';
import { renderApp } from '../../test/render-app';

const PROJECT = aProject({ description: 'Plot a week of temperatures', tags: ['charts'], forks: 2 });

let server: FakeServer;

beforeEach(async () => {
  await changeLanguage('en', { remember: false });
  saveLogin({ token: 't', refreshToken: 'r', userId: 'u1', roles: ['ROLE_STUDENT'], custcode: 'demo2026' });
  server = createFakeServer();
  server.on(`GET ${API.userInfo}`, () => ok({ id: 'u1', nickname: 'Ada', roles: ['ROLE_STUDENT'] }));
  server.on(`GET ${API.pointsTotal}`, () => ok(0));
  vi.spyOn(window, 'fetch').mockImplementation((url, init) => server.fetch(String(url), init ?? {}));
});

afterEach(() => {
  vi.restoreAllMocks();
  clearSession();
});

describe('my projects', () => {
  it('lists my projects with their tags and copies, and searches', async () => {
    const user = userEvent.setup();
    server.on(`GET ${API.myProjects}`, () => ok({ list: [PROJECT], total: 1, page: 1, size: 12 }));
    renderApp('/pjedu/my/projects');
    expect(await screen.findByRole('heading', { level: 1, name: 'My projects' })).toBeTruthy();
    const card = (await screen.findByRole('heading', { level: 2, name: 'Weather charts' })).closest('.ant-card')!;
    expect(within(card as HTMLElement).getByText('charts')).toBeTruthy();
    expect(within(card as HTMLElement).getByText('by Ada · 2 copies')).toBeTruthy();
    expect(
      within(card as HTMLElement)
        .getByRole('link', { name: 'Open' })
        .getAttribute('href'),
    ).toBe(`/pjedu/projects/${PROJECT.id}/editor`);
    await user.type(screen.getByRole('searchbox', { name: 'Search projects' }), 'weather{Enter}');
    await waitFor(() => expect(server.requests.at(-1)?.url).toContain('keyword=weather'));
  });

  it('teaches what to do when there are none', async () => {
    server.on(`GET ${API.myProjects}`, () => ok({ list: [], total: 0, page: 1, size: 12 }));
    renderApp('/pjedu/my/projects');
    expect(await screen.findByText(/You have no projects yet/, {})).toBeTruthy();
  });

  it('creates a project on a type the school offers, refusing duplicate tags first, and opens it', async () => {
    const user = userEvent.setup();
    server.on(`GET ${API.myProjects}`, () => ok({ list: [], total: 0, page: 1, size: 12 }));
    // This school offers Advanced only: the form moves from Basic to it and shows its CPU, memory and minutes left.
    server.on(`GET ${API.computeBalance}`, () =>
      ok([
        {
          runtimeType: 'ADVANCED',
          cpu: 2,
          memoryMb: 2048,
          weeklyMinutes: 600,
          usedMinutes: 300,
          remainingMinutes: 300,
          resetsAt: '2026-11-30T00:00:00+08:00',
        },
      ]),
    );
    server.on(`POST ${API.projects}`, (request) =>
      JSON.parse(request.body ?? '{}').name ? ok({ ...PROJECT, name: 'Robots' }) : fail('1001', 'bad', 400),
    );
    const { router } = renderApp('/pjedu/my/projects');
    await user.click((await screen.findAllByRole('button', { name: /New project/ }))[0]!);
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText('Name'), 'Robots');
    expect(await within(dialog).findByText('Advanced · 2 CPU · 2 GB · 300 min left this week')).toBeTruthy();
    const tags = within(dialog).getByRole('combobox', { name: 'Tags (up to 10)' });
    await user.type(tags, 'ai{Enter}AI{Enter}');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await within(dialog).findByText('Tag already exists!')).toBeTruthy();
    expect(server.to(API.projects).filter((r) => r.method === 'POST')).toHaveLength(0);
    // Remove the duplicate (the last tag) with its close mark, as a person would with the mouse.
    const removeMarks = dialog.querySelectorAll<HTMLElement>('.ant-select-selection-item-remove');
    expect(removeMarks).toHaveLength(2);
    await user.click(removeMarks[1]!);
    await waitFor(() => expect(within(dialog).queryByText('Tag already exists!')).toBeNull());
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(server.to(API.projects).filter((r) => r.method === 'POST')).toHaveLength(1));
    // The editor opens: the router is on its way there (its code, CodeMirror and xterm, may still be loading) or there.
    const editor = `/pjedu/projects/${PROJECT.id}/editor`;
    await waitFor(() =>
      expect([router.state.navigation.location?.pathname, router.state.location.pathname]).toContain(editor),
    );
    expect(JSON.parse(server.to(API.projects).find((r) => r.method === 'POST')!.body!)).toMatchObject({
      name: 'Robots',
      tags: ['ai'],
      access: 'private',
      runtimeType: 'ADVANCED',
    });
    // A dialog with a dozen fields, typed key by key, is slow on a busy machine.
  }, 45_000);

  it('creates a project in the AI environment when asked, after saying it is larger', async () => {
    const user = userEvent.setup();
    server.on(`GET ${API.myProjects}`, () => ok({ list: [], total: 0, page: 1, size: 12 }));
    server.on(`GET ${API.computeBalance}`, () => ok([]));
    server.on(`POST ${API.projects}`, () => ok({ ...PROJECT, name: 'Digits', environment: 'ai' }));
    renderApp('/pjedu/my/projects');
    await user.click((await screen.findAllByRole('button', { name: /New project/ }))[0]!);
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText('Name'), 'Digits');
    // Plain Python unless the learner picks the AI one, which says it is much larger.
    expect(
      (within(dialog).getByRole('radio', { name: 'Python (numpy, matplotlib)' }) as HTMLInputElement).checked,
    ).toBe(true);
    expect(within(dialog).getByText(/It is much larger \(about 250 MB\)/)).toBeTruthy();
    await user.click(within(dialog).getByRole('radio', { name: /^AI \(pandas, scikit-learn, PyTorch, OpenCV\)/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(server.to(API.projects).filter((r) => r.method === 'POST')).toHaveLength(1));
    expect(JSON.parse(server.to(API.projects).find((r) => r.method === 'POST')!.body!)).toMatchObject({
      name: 'Digits',
      environment: 'ai',
    });
  }, 30_000);
});
