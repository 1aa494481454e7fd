import { ROLES } from '@aiedu/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ok, type FakeServer } from '../../test/fake-api';
import { axeViolations, signInAs as signIn, startFakeApi, stopFakeApi } from '../../test/page-kit';
import { renderApp } from '../../test/render-app';
import { CATALOGUE_API } from './catalogue-api';

const ENTRIES = [
  { id: 'e-1', name: 'Artificial intelligence', kind: 'direction', courses: 3, createdAt: '2026-11-01T08:00:00Z' },
  { id: 'e-2', name: 'Junior', kind: 'stage', courses: 0, createdAt: '2026-11-02T08:00:00Z' },
];
const PACK = {
  id: 'p-1',
  name: 'Robot pack',
  courseIds: ['c-1'],
  customerIds: [],
  courses: [{ id: 'c-1', name: 'Robots for beginners' }],
  customers: [],
  createdAt: '2026-11-01T08:00:00Z',
};
const page = (list: unknown[]) => ok({ list, total: list.length, page: 1, size: 20 });

let server: FakeServer;
const sent = (method: string, path: string) => server.requests.filter((r) => r.method === method && r.url === path);
/** The open dialog (drawer, modal or confirmation) showing this title. */
function dialogTitled(title: string) {
  return waitFor(() => {
    const dialog = screen.queryAllByRole('dialog').find((d) => within(d).queryAllByText(title).length > 0);
    if (!dialog) throw new Error(`No dialog titled ${title}`);
    return dialog;
  });
}
const bodyOf = (method: string, path: string) => JSON.parse(sent(method, path)[0]?.body ?? '{}') as unknown;

const signInAs = (role: string) => signIn(role, '');

beforeEach(async () => {
  server = await startFakeApi();
  server.on(`GET ${CATALOGUE_API.categories}`, () => page(ENTRIES));
  server.on(`POST ${CATALOGUE_API.categories}`, () => ok({ id: 'e-3', name: 'AI', kind: 'direction' }));
  server.on(`DELETE ${CATALOGUE_API.categories}/e-2`, () => ok(null));
  server.on(`GET ${CATALOGUE_API.packages}`, () => page([PACK]));
  server.on(`POST ${CATALOGUE_API.packages}`, () => ok(PACK));
  server.on(`PUT ${CATALOGUE_API.packageCustomers('p-1')}`, () => ok(PACK));
  server.on(`GET ${CATALOGUE_API.courseSearch}`, () => page([{ id: 'c-2', name: 'Vision basics' }]));
  server.on(`GET ${CATALOGUE_API.customerSearch}`, () => page([{ id: 'k-1', name: 'Demo School District' }]));
});

afterEach(stopFakeApi);

describe('course catalogue screens', () => {
  it('lists directions and stages with their courses, filters by kind and adds a direction', async () => {
    signInAs(ROLES.super);
    const user = userEvent.setup();
    renderApp('/super/course-categories');
    expect(await screen.findByText('Artificial intelligence')).toBeTruthy();
    const menu = screen.getByRole('navigation', { name: 'Administration menu' });
    for (const entry of ['Course categories', 'Course difficulties', 'Course tags', 'Course packages']) {
      expect(within(menu).getByRole('link', { name: entry })).toBeTruthy();
    }
    const row = screen.getByText('Artificial intelligence').closest('tr')!;
    expect(within(row).getByText('Direction')).toBeTruthy();
    expect(within(row).getByText('3')).toBeTruthy();

    await user.click(screen.getByRole('combobox', { name: 'Show' }));
    await user.click(await screen.findByTitle('Stage'));
    await waitFor(() => expect(server.requests.at(-1)?.url).toContain('kind=stage'));

    await user.click(screen.getByRole('button', { name: /New category/ }));
    const drawer = await dialogTitled('New category');
    await user.click(within(drawer).getByRole('button', { name: 'Save' }));
    expect(await within(drawer).findByText('Name is required, at most 30 characters')).toBeTruthy();
    expect(sent('POST', CATALOGUE_API.categories)).toHaveLength(0);
    await user.type(within(drawer).getByLabelText('Name'), 'AI');
    await user.click(within(drawer).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(sent('POST', CATALOGUE_API.categories)).toHaveLength(1));
    expect(bodyOf('POST', CATALOGUE_API.categories)).toEqual({ name: 'AI', kind: 'direction' });
  });

  it('says what to do first instead of deleting an entry in use, and confirms deleting an unused one', async () => {
    signInAs(ROLES.super);
    const user = userEvent.setup();
    renderApp('/super/course-categories');
    const used = (await screen.findByText('Artificial intelligence')).closest('tr')!;
    await user.click(within(used).getByRole('button', { name: 'Delete' }));
    const warning = await dialogTitled('"Artificial intelligence" is still in use');
    expect(within(warning).getByText(/Courses using it: 3\. Choose another one in those courses first/)).toBeTruthy();
    await user.click(within(warning).getByRole('button', { name: 'OK' }));
    expect(server.requests.filter((r) => r.method === 'DELETE')).toHaveLength(0);

    const unused = screen.getByText('Junior').closest('tr')!;
    await user.click(within(unused).getByRole('button', { name: 'Delete' }));
    const confirm = await dialogTitled('Delete "Junior"?');
    expect(confirm.closest('.ant-modal')?.getAttribute('style')).toContain('width: 472px');
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(sent('DELETE', `${CATALOGUE_API.categories}/e-2`)).toHaveLength(1));
  });

  it('puts found courses into a new package and gives a package to a customer', async () => {
    signInAs(ROLES.super);
    const user = userEvent.setup();
    renderApp('/super/course-packages');
    const row = (await screen.findByText('Robot pack')).closest('tr')!;
    expect(within(row).getByText('Robots for beginners')).toBeTruthy();
    expect(await axeViolations()).toEqual([]);

    await user.click(screen.getByRole('button', { name: /New package/ }));
    const drawer = await dialogTitled('New package');
    await user.type(within(drawer).getByLabelText('Package name'), 'Vision pack');
    await user.type(within(drawer).getByRole('combobox', { name: 'Courses' }), 'Vis');
    await user.click(await screen.findByTitle('Vision basics'));
    await user.click(within(drawer).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(sent('POST', CATALOGUE_API.packages)).toHaveLength(1));
    expect(bodyOf('POST', CATALOGUE_API.packages)).toEqual({ name: 'Vision pack', courseIds: ['c-2'] });
    expect(server.requests.some((r) => r.url.includes('keyword=Vis'))).toBe(true);

    await user.click(within(row).getByRole('button', { name: 'Give to customers' }));
    const assign = await dialogTitled('Give "Robot pack" to customers');
    await user.click(within(assign).getByRole('combobox', { name: 'Customers' }));
    await user.click(await screen.findByTitle('Demo School District'));
    await user.click(within(assign).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(sent('PUT', CATALOGUE_API.packageCustomers('p-1'))).toHaveLength(1));
    expect(bodyOf('PUT', CATALOGUE_API.packageCustomers('p-1'))).toEqual({ customerIds: ['k-1'] });
  });

  it('refuses the screens to a customer administrator without asking the server for their lists', async () => {
    signInAs(ROLES.customerAdmin);
    renderApp('/super/course-tags');
    expect(await screen.findByText('The current user does not have permission to access this page')).toBeTruthy();
    expect(server.requests.filter((r) => r.url.startsWith(CATALOGUE_API.tags))).toHaveLength(0);
  });
});
