import { PERMISSIONS, ROLE_API, ROLES } from '@aiedu/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { axeViolations, lastChange, signInAs, startFakeApi, stopFakeApi } from '../../test/page-kit';
import { ok, type FakeServer } from '../../test/fake-api';
import { renderApp } from '../../test/render-app';
import { ADMIN_API } from './admin-api';

const SCHOOL = { id: 's-1', customerId: 'c-1', name: 'Demo Primary School', eduStages: ['primary'], enabled: true };
const admin = (id: string, username: string, extra: object = {}) => ({
  id,
  customerId: 'c-1',
  schoolId: 's-1',
  username,
  realName: `Name ${username}`,
  phone: null,
  roles: [ROLES.schoolAdmin],
  enabled: true,
  alsoTeacher: false,
  customRoleId: null,
  customRoleName: null,
  createdAt: '2026-11-01T08:00:00+08:00',
  ...extra,
});
const HEAD = admin('a-1', 'head1', { roles: [ROLES.schoolAdmin, ROLES.teacher], alsoTeacher: true });
const DEPUTY = admin('a-2', 'deputy1');
const ROLE_TABLE = Object.values(ROLES).map((role) => ({
  role,
  permissions: Object.entries(PERMISSIONS)
    .filter(([, roles]) => (roles as readonly string[]).includes(role))
    .map(([permission]) => permission),
}));
const CUSTOM_ROLES = [
  {
    id: 'r-1',
    name: 'Class keeper',
    description: '',
    baseRole: ROLES.schoolAdmin,
    permissions: ['class.manage', 'student.manage'],
    enabled: true,
    accounts: 1,
    createdAt: '2026-11-01T08:00:00+08:00',
    updatedAt: '2026-11-01T08:00:00+08:00',
  },
];
let server: FakeServer;

/** Picks an option of the antd select named `label`. */
async function choose(user: ReturnType<typeof userEvent.setup>, label: string, option: string) {
  await user.click(screen.getByRole('combobox', { name: label }));
  const item = await screen.findByTitle(option);
  await user.click(item);
}

beforeEach(async () => {
  server = await startFakeApi();
  server.on(`GET ${ADMIN_API.schoolInfo}`, () => ok([SCHOOL]));
  server.on(`GET ${ADMIN_API.users}`, () => ok({ list: [HEAD, DEPUTY], total: 2, page: 1, size: 20 }));
  server.on(`GET ${ADMIN_API.roles}`, () => ok(ROLE_TABLE));
  server.on(`GET ${ADMIN_API.subCustomers}`, () => ok([]));
  server.on(`GET ${ADMIN_API.roleSearch}`, () => ok({ list: CUSTOM_ROLES, total: 1, page: 1, size: 100 }));
  signInAs(ROLES.customerAdmin);
});

afterEach(stopFakeApi);

describe('administrator accounts', { timeout: 60_000 }, () => {
  it('lists the accounts with their roles and who teaches, with no axe violations', async () => {
    renderApp('/admin/users');
    expect(await screen.findByRole('heading', { level: 1, name: 'Administrator accounts' })).toBeTruthy();
    const row = (await screen.findByRole('cell', { name: 'head1' })).closest('tr')!;
    expect(within(row).getByText('School administrator')).toBeTruthy();
    expect(within(row).getByText('Teaches')).toBeTruthy();
    await waitFor(() => expect(document.querySelector('.ant-spin-spinning')).toBeNull());
    expect(await axeViolations()).toEqual([]);
  });

  it('creates a school administrator who also teaches, with the role chosen from the role table', async () => {
    const user = userEvent.setup();
    server.on(`POST ${ADMIN_API.users}`, () => ok(HEAD));
    renderApp('/admin/users');
    await user.click(await screen.findByRole('button', { name: /New administrator/ }));
    const drawer = await screen.findByRole('dialog');
    // Only administrator roles are offered, not teachers or students.
    await user.click(within(drawer).getByRole('combobox', { name: 'Role' }));
    expect(await screen.findByTitle('Organisation administrator')).toBeTruthy();
    expect(screen.queryByTitle('Student')).toBeNull();
    await user.click(screen.getByTitle('School administrator'));
    await choose(user, 'School', 'Demo Primary School');
    await user.type(within(drawer).getByLabelText('Username'), 'head2');
    await user.type(within(drawer).getByLabelText('Name'), 'Ms Head');
    await user.click(within(drawer).getByRole('switch', { name: 'Also a teacher' }));
    // A password an administrator sets is 6–20 visible characters: no spaces (spec 5's weak rule, as the server's).
    const password = within(drawer).getByLabelText('Initial password');
    await user.type(password, 'Start 2026');
    await user.click(within(drawer).getByRole('button', { name: 'Save' }));
    expect(await within(drawer).findByText('6–20 letters, digits or symbols, without spaces')).toBeTruthy();
    expect(server.to(ADMIN_API.users).some((r) => r.method === 'POST')).toBe(false);
    await user.clear(password);
    await user.type(password, 'Start2026');
    await user.click(within(drawer).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(server.to(ADMIN_API.users).some((r) => r.method === 'POST')).toBe(true));
    expect(lastChange(server, ADMIN_API.users)).toEqual({
      username: 'head2',
      realName: 'Ms Head',
      role: ROLES.schoolAdmin,
      schoolId: 's-1',
      alsoTeacher: true,
      password: btoa('Start2026'),
    });
  });

  it('places a new customer administrator of a super administrator in a top-level customer found by search', async () => {
    const user = userEvent.setup();
    signInAs(ROLES.super, '');
    const customer = (id: string, name: string, parentId: string | null) => ({ id, name, code: `${id}code`, parentId });
    server.on(`GET ${ADMIN_API.customers}`, () =>
      ok({ list: [customer('c-1', 'North District', null), customer('c-2', 'North Annex', 'c-1')], total: 2 }),
    );
    server.on(`POST ${ADMIN_API.users}`, () => ok(DEPUTY));
    renderApp('/admin/users');
    await user.click(await screen.findByRole('button', { name: /New administrator/ }));
    const drawer = await screen.findByRole('dialog');
    await choose(user, 'Role', 'Customer administrator');
    await user.type(within(drawer).getByRole('combobox', { name: 'Institution' }), 'North');
    await waitFor(() => expect(server.to(ADMIN_API.customers).at(-1)!.url).toContain('keyword=North'));
    // A customer administrator belongs to a top-level customer: the sub-customer is not offered.
    await user.click(await screen.findByTitle('North District (c-1code)'));
    expect(screen.queryByTitle('North Annex (c-2code)')).toBeNull();
    await user.type(within(drawer).getByLabelText('Username'), 'boss');
    await user.type(within(drawer).getByLabelText('Name'), 'Boss');
    expect(within(drawer).queryByRole('switch')).toBeNull();
    await user.type(within(drawer).getByLabelText('Initial password'), 'Start2026');
    await user.click(within(drawer).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(server.to(ADMIN_API.users).some((r) => r.method === 'POST')).toBe(true));
    expect(lastChange(server, ADMIN_API.users)).toMatchObject({
      role: ROLES.customerAdmin,
      customerId: 'c-1',
      username: 'boss',
    });
  });

  it('ends the teaching of an administrator from the edit form', async () => {
    const user = userEvent.setup();
    server.on(`PUT ${ADMIN_API.users}/a-1`, () => ok({ ...HEAD, alsoTeacher: false, roles: [ROLES.schoolAdmin] }));
    renderApp('/admin/users');
    const row = (await screen.findByRole('cell', { name: 'head1' })).closest('tr')!;
    await user.click(within(row).getByRole('button', { name: 'Edit' }));
    const drawer = await screen.findByRole('dialog');
    const teaches = within(drawer).getByRole('switch', { name: 'Also a teacher' });
    expect(teaches.getAttribute('aria-checked')).toBe('true');
    await user.click(teaches);
    await user.click(within(drawer).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(server.to(`${ADMIN_API.users}/a-1`)).toHaveLength(1));
    expect(lastChange(server, `${ADMIN_API.users}/a-1`)).toEqual({
      realName: 'Name head1',
      phone: null,
      alsoTeacher: false,
    });
  });

  it('deletes the selected accounts together, after a 472 px confirmation', async () => {
    const user = userEvent.setup();
    server.on(`POST ${ADMIN_API.users}/batch-delete`, () => ok(null));
    renderApp('/admin/users');
    await user.click(await screen.findByRole('checkbox', { name: 'Select head1' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select deputy1' }));
    await user.click(screen.getByRole('button', { name: /Delete selected \(2\)/ }));
    const confirm = await screen.findByRole('dialog');
    expect(confirm.textContent).toContain('Delete 2 administrators?');
    expect((confirm.closest('.ant-modal') as HTMLElement | null)?.style.width).toBe('472px');
    expect(server.to(`${ADMIN_API.users}/batch-delete`)).toEqual([]);
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(server.to(`${ADMIN_API.users}/batch-delete`)).toHaveLength(1));
    expect(lastChange(server, `${ADMIN_API.users}/batch-delete`)).toEqual({ ids: ['a-1', 'a-2'] });
  });

  it('searches and filters by role on the server', async () => {
    const user = userEvent.setup();
    renderApp('/admin/users');
    await screen.findByRole('cell', { name: 'head1' });
    const query = () => new URL(server.to(ADMIN_API.users).at(-1)!.url, 'http://x').searchParams;
    await user.type(screen.getByRole('searchbox', { name: 'Search by username or name' }), 'head{Enter}');
    await waitFor(() => expect(query().get('keyword')).toBe('head'));
    await choose(user, 'All roles', 'Organisation administrator');
    await waitFor(() => expect(query().get('role')).toBe(ROLES.organizeAdmin));
  });

  it('lets a school end the teaching of an administrator in the teacher form, and only there', async () => {
    const user = userEvent.setup();
    const teacher = { ...HEAD, remark: '', certified: false };
    const plain = { ...admin('t-2', 'plain1'), remark: '', certified: false, alsoTeacher: false };
    server.on(`GET ${ADMIN_API.teachers}`, () => ok({ list: [teacher, plain], total: 2, page: 1, size: 20 }));
    server.on(`GET ${ADMIN_API.classes}/options`, () => ok([]));
    server.on(`PUT ${ADMIN_API.teachers}/a-1`, () => ok(null));
    renderApp('/admin/teachers');
    const plainRow = (await screen.findByRole('cell', { name: 'plain1' })).closest('tr')!;
    await user.click(within(plainRow).getByRole('button', { name: 'Edit' }));
    expect(within(await screen.findByRole('dialog')).queryByRole('switch')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    const headRow = screen.getByRole('cell', { name: 'head1' }).closest('tr')!;
    expect(within(headRow).getByText('Administrator')).toBeTruthy();
    await user.click(within(headRow).getByRole('button', { name: 'Edit' }));
    const drawer = await screen.findByRole('dialog');
    await user.click(within(drawer).getByRole('switch', { name: 'Also a teacher' }));
    await user.click(within(drawer).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(server.to(`${ADMIN_API.teachers}/a-1`)).toHaveLength(1));
    expect(lastChange(server, `${ADMIN_API.teachers}/a-1`)).toMatchObject({ alsoTeacher: false });
  });

  it('gives an account a custom role of its own role, shows it, and takes it away', async () => {
    const user = userEvent.setup();
    const keeper = { ...DEPUTY, customRoleId: 'r-1', customRoleName: 'Class keeper' };
    server.on(`GET ${ADMIN_API.users}`, () => ok({ list: [HEAD, keeper], total: 2, page: 1, size: 20 }));
    server.on(`POST ${ADMIN_API.users}`, () => ok(keeper));
    server.on(`PUT ${ADMIN_API.users}/a-2`, () => ok(DEPUTY));
    renderApp('/admin/users');
    const row = (await screen.findByRole('cell', { name: 'deputy1' })).closest('tr')!;
    expect(within(row).getByText('Class keeper')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: /New administrator/ }));
    const drawer = await screen.findByRole('dialog');
    expect(within(drawer).queryByRole('combobox', { name: 'Custom role' })).toBeNull();
    await choose(user, 'Role', 'School administrator');
    await waitFor(() =>
      expect(new URL(server.to(ADMIN_API.roleSearch).at(-1)!.url, 'http://x').searchParams.toString()).toBe(
        `baseRole=${ROLES.schoolAdmin}&enabled=true&size=100`,
      ),
    );
    await choose(user, 'Custom role', 'Class keeper');
    await choose(user, 'School', 'Demo Primary School');
    await user.type(within(drawer).getByLabelText('Username'), 'keeper2');
    await user.type(within(drawer).getByLabelText('Name'), 'Keeper');
    await user.type(within(drawer).getByLabelText('Initial password'), 'Start2026');
    await user.click(within(drawer).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(server.to(ADMIN_API.users).some((r) => r.method === 'POST')).toBe(true));
    expect(lastChange(server, ADMIN_API.users)).toMatchObject({ role: ROLES.schoolAdmin, customRoleId: 'r-1' });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    await user.click(
      within(screen.getByRole('cell', { name: 'deputy1' }).closest('tr')!).getByRole('button', { name: 'Edit' }),
    );
    const edit = await screen.findByRole('dialog');
    expect(within(edit).getByTitle('Class keeper')).toBeTruthy();
    await user.click(within(edit).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(server.to(`${ADMIN_API.users}/a-2`)).toHaveLength(1));
    // Unchanged, the custom role is not sent (nobody may change their own).
    expect(lastChange(server, `${ADMIN_API.users}/a-2`)).not.toHaveProperty('customRoleId');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    const again = screen.getByRole('cell', { name: 'deputy1' }).closest('tr')!;
    await user.click(within(again).getByRole('button', { name: 'Edit' }));
    const clearing = await screen.findByRole('dialog');
    const field = within(clearing).getByRole('combobox', { name: 'Custom role' }).closest('.ant-select')!;
    await user.click(field.querySelector('.ant-select-clear')!);
    await user.click(within(clearing).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(server.to(`${ADMIN_API.users}/a-2`)).toHaveLength(2));
    expect(lastChange(server, `${ADMIN_API.users}/a-2`)).toMatchObject({ customRoleId: null });
  });

  it('narrows the menu and the screens to what a custom role keeps', async () => {
    server.on(`GET ${ROLE_API.mine}`, () =>
      ok({
        customRole: {
          id: 'r-2',
          name: 'Account keeper',
          baseRole: ROLES.customerAdmin,
          permissions: ['user.manage'],
          enabled: true,
        },
      }),
    );
    renderApp('/admin/users');
    await screen.findByRole('cell', { name: 'head1' });
    const menu = screen.getByRole('navigation', { name: 'Administration menu' });
    await waitFor(() => expect(within(menu).queryByRole('link', { name: 'Students' })).toBeNull());
    expect(within(menu).getByRole('link', { name: 'Administrator accounts' })).toBeTruthy();
    expect(within(menu).queryByRole('link', { name: 'Schools' })).toBeNull();
  });

  it('refuses a screen the custom role leaves out', async () => {
    server.on(`GET ${ROLE_API.mine}`, () =>
      ok({
        customRole: {
          id: 'r-2',
          name: 'Keeper',
          baseRole: ROLES.customerAdmin,
          permissions: ['log.view'],
          enabled: true,
        },
      }),
    );
    renderApp('/admin/users');
    expect(await screen.findByText('The current user does not have permission to access this page')).toBeTruthy();
  });
});
