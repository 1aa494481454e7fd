import { COURSE_API, ROLES, type TAdminExperiment } from '@aiedu/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { changeLanguage } from '../../app/i18n';
import { ok, type FakeServer } from '../../test/fake-api';
import { axeViolations, signInAs, startFakeApi, stopFakeApi } from '../../test/page-kit';
import { renderApp } from '../../test/render-app';

const EXPERIMENTS: TAdminExperiment[] = [
  {
    projectId: 'p-1',
    name: 'Iris template',
    owner: 'teacher1',
    courses: [
      { id: 'c-1', name: 'Flowers' },
      { id: 'c-2', name: 'Petals' },
    ],
    copies: 31,
  },
  { projectId: 'p-2', name: null, owner: null, courses: [{ id: 'c-3', name: 'Vision' }], copies: 4 },
];

let server: FakeServer;

beforeEach(async () => {
  server = await startFakeApi();
  server.on(`GET ${COURSE_API.adminExperiments}`, () => ok({ list: EXPERIMENTS, total: 2, page: 1, size: 20 }));
});

afterEach(stopFakeApi);

const lastQuery = () => new URL(server.to(COURSE_API.adminExperiments).at(-1)!.url, 'http://x').searchParams;

describe('the super administrators’ list of experiments', () => {
  it('lists each template project with its owner, courses and learner copies, searched on the server', async () => {
    signInAs(ROLES.super, '');
    const user = userEvent.setup();
    renderApp('/super/experiments');
    expect(await screen.findByRole('heading', { level: 1, name: 'Experiments' })).toBeTruthy();
    const iris = (await screen.findByText('Iris template')).closest('tr')!;
    expect(within(iris).getByText('teacher1')).toBeTruthy();
    expect(within(iris).getByText('Flowers')).toBeTruthy();
    expect(within(iris).getByText('Petals')).toBeTruthy();
    expect(within(iris).getByText('31')).toBeTruthy();
    const gone = screen.getByText('Deleted project').closest('tr')!;
    expect(within(gone).getByText('Vision')).toBeTruthy();
    const menu = screen.getByRole('navigation', { name: 'Administration menu' });
    expect(within(menu).getByRole('link', { name: 'Experiments' }).getAttribute('href')).toBe('/super/experiments');

    await user.type(screen.getByRole('searchbox', { name: 'Search by project or course name' }), 'iris{Enter}');
    await waitFor(() => expect(lastQuery().get('keyword')).toBe('iris'));
    expect(lastQuery().get('page')).toBe('1');
  });

  it('refuses a customer administrator without asking the server, and leaves it out of the menu', async () => {
    signInAs(ROLES.customerAdmin);
    renderApp('/super/experiments');
    expect(await screen.findByText('The current user does not have permission to access this page')).toBeTruthy();
    expect(server.to(COURSE_API.adminExperiments)).toHaveLength(0);
  });

  it('is in the menu of super administrators only', async () => {
    server.on(`GET ${COURSE_API.admin}`, () => ok({ list: [], total: 0, page: 1, size: 20 }));
    signInAs(ROLES.customerAdmin);
    renderApp('/admin/courses');
    const menu = await screen.findByRole('navigation', { name: 'Administration menu' });
    expect(within(menu).getByRole('link', { name: 'All courses' })).toBeTruthy();
    expect(within(menu).queryByRole('link', { name: 'Experiments' })).toBeNull();
  });

  it.each(['en', 'zh_CHS'] as const)('passes axe in %s', async (language) => {
    await changeLanguage(language, { remember: false });
    signInAs(ROLES.super, '');
    renderApp('/super/experiments');
    await screen.findByText('Iris template');
    expect(await axeViolations()).toEqual([]);
  });
});
