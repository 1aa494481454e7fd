import { ROLES, type TCustomRole } from '@aiedu/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { changeLanguage } from '../../app/i18n';
import { fail, ok, type FakeServer } from '../../test/fake-api';
import { axeViolations, lastChange, signInAs, startFakeApi, stopFakeApi } from '../../test/page-kit';
import { renderApp } from '../../test/render-app';
import { ADMIN_API } from './admin-api';

const role = (id: string, name: string, extra: Partial<TCustomRole> = {}): TCustomRole => ({
  id,
  name,
  description: '',
  baseRole: ROLES.customerAdmin,
  permissions: ['log.view'],
  enabled: true,
  accounts: 0,
  createdAt: '2026-11-01T08:00:00+08:00',
  updatedAt: '2026-11-01T08:00:00+08:00',
  ...extra,
});
const AUDITOR = role('r-1', 'Auditor', {
  description: 'Reads logs and statistics',
  permissions: ['log.view', 'statistics.view'],
  accounts: 2,
});
const KEEPER = role('r-2', 'Class keeper', { baseRole: ROLES.schoolAdmin, permissions: ['class.manage'] });

let server: FakeServer;
const lastQuery = () => new URL(server.to(ADMIN_API.roleSearch).at(-1)!.url, 'http://x').searchParams;

beforeEach(async () => {
  server = await startFakeApi();
  server.on(`GET ${ADMIN_API.roleSearch}`, () => ok({ list: [AUDITOR, KEEPER], total: 2, page: 1, size: 20 }));
  signInAs(ROLES.super, '');
});

afterEach(stopFakeApi);

describe('custom roles', { timeout: 60_000 }, () => {
  it('lists the roles with their built-in role, permissions and holders, searched and filtered on the server', async () => {
    const user = userEvent.setup();
    renderApp('/super/roles');
    expect(await screen.findByRole('heading', { level: 1, name: 'Roles' })).toBeTruthy();
    const row = (await screen.findByText('Auditor')).closest('tr')!;
    expect(within(row).getByText('Reads logs and statistics')).toBeTruthy();
    expect(within(row).getByText('Customer administrator')).toBeTruthy();
    expect(within(row).getByText('Operation logs')).toBeTruthy();
    expect(within(row).getByText('Statistics')).toBeTruthy();
    expect(within(row).getByText('2')).toBeTruthy();
    const menu = screen.getByRole('navigation', { name: 'Administration menu' });
    expect(within(menu).getByRole('link', { name: 'Roles' }).getAttribute('href')).toBe('/super/roles');

    await user.type(screen.getByRole('searchbox', { name: 'Search by name or description' }), 'audit{Enter}');
    await waitFor(() => expect(lastQuery().get('keyword')).toBe('audit'));
    await user.click(screen.getByRole('combobox', { name: 'All built-in roles' }));
    await user.click(await screen.findByTitle('School administrator'));
    await waitFor(() => expect(lastQuery().get('baseRole')).toBe(ROLES.schoolAdmin));
    await user.click(screen.getByRole('combobox', { name: 'All states' }));
    await user.click(await screen.findByTitle('Off'));
    await waitFor(() => expect(lastQuery().get('enabled')).toBe('false'));
    expect(lastQuery().get('keyword')).toBe('audit');
  });

  it('creates a role from some of the permissions of the built-in role chosen', async () => {
    const user = userEvent.setup();
    server.on(`POST ${ADMIN_API.roles}`, () => ok(KEEPER));
    renderApp('/super/roles');
    await user.click(await screen.findByRole('button', { name: /New role/ }));
    const drawer = await screen.findByRole('dialog');
    await user.type(within(drawer).getByLabelText('Role name'), 'Class keeper');
    await user.click(within(drawer).getByRole('combobox', { name: 'Built-in role' }));
    await user.click(await screen.findByTitle('School administrator'));
    // Only the school administrator's permissions are offered.
    expect(within(drawer).getByRole('checkbox', { name: 'Manage classes' })).toBeTruthy();
    expect(within(drawer).queryByRole('checkbox', { name: 'Manage customers' })).toBeNull();
    expect(within(drawer).queryByRole('checkbox', { name: 'Manage sub-customers' })).toBeNull();
    await user.click(within(drawer).getByRole('button', { name: 'Save' }));
    expect(await within(drawer).findByText('Tick at least one permission')).toBeTruthy();
    expect(server.to(ADMIN_API.roles)).toHaveLength(0);
    await user.click(within(drawer).getByRole('checkbox', { name: 'Manage classes' }));
    await user.click(within(drawer).getByRole('checkbox', { name: 'Manage students' }));
    await user.click(within(drawer).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(server.to(ADMIN_API.roles)).toHaveLength(1));
    expect(lastChange(server, ADMIN_API.roles)).toEqual({
      name: 'Class keeper',
      description: '',
      baseRole: ROLES.schoolAdmin,
      permissions: ['class.manage', 'student.manage'],
    });
  });

  it('edits a role without changing its built-in role, and switches one off after confirming', async () => {
    const user = userEvent.setup();
    server.on(`PUT ${ADMIN_API.roles}/r-1`, () => ok(AUDITOR));
    server.on(`PUT ${ADMIN_API.roles}/r-1/status`, () => ok({ ...AUDITOR, enabled: false }));
    renderApp('/super/roles');
    const row = (await screen.findByText('Auditor')).closest('tr')!;
    await user.click(within(row).getByRole('button', { name: 'Edit' }));
    const drawer = await screen.findByRole('dialog');
    expect(within(drawer).getByRole('combobox', { name: 'Built-in role' }).hasAttribute('disabled')).toBe(true);
    expect(within(drawer).getByRole('checkbox', { name: 'Operation logs' })).toHaveProperty('checked', true);
    await user.click(within(drawer).getByRole('checkbox', { name: 'Statistics' }));
    await user.click(within(drawer).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(server.to(`${ADMIN_API.roles}/r-1`)).toHaveLength(1));
    expect(lastChange(server, `${ADMIN_API.roles}/r-1`)).toEqual({
      name: 'Auditor',
      description: 'Reads logs and statistics',
      permissions: ['log.view'],
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    await user.click(within(row).getByRole('switch', { name: /Auditor/ }));
    const confirm = await screen.findByRole('dialog');
    expect(confirm.textContent).toContain('Its holders keep none of its permissions');
    await user.click(within(confirm).getByRole('button', { name: /Switch off/ }));
    await waitFor(() => expect(lastChange(server, `${ADMIN_API.roles}/r-1/status`)).toEqual({ enabled: false }));
  });

  it('deletes the selected roles together, and shows why a held role stays', async () => {
    const user = userEvent.setup();
    server.on(`POST ${ADMIN_API.roleBatchDelete}`, () =>
      fail('5007', 'Administrator accounts still hold this role: give them another role first', 409),
    );
    renderApp('/super/roles');
    await user.click(await screen.findByRole('checkbox', { name: 'Select Auditor' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select Class keeper' }));
    await user.click(screen.getByRole('button', { name: /Delete selected \(2\)/ }));
    const confirm = await screen.findByRole('dialog');
    expect(confirm.textContent).toContain('Delete 2 roles?');
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(lastChange(server, ADMIN_API.roleBatchDelete)).toEqual({ ids: ['r-1', 'r-2'] }));
    expect(
      await screen.findByText('Administrator accounts still hold this role: give them another role first'),
    ).toBeTruthy();
  });

  it('refuses a customer administrator without asking for the roles', async () => {
    signInAs(ROLES.customerAdmin);
    renderApp('/super/roles');
    expect(await screen.findByText('The current user does not have permission to access this page')).toBeTruthy();
    expect(server.to(ADMIN_API.roleSearch)).toHaveLength(0);
  });

  it.each(['en', 'zh_CHS'] as const)('passes axe in %s, with the form open', async (language) => {
    await changeLanguage(language, { remember: false });
    const user = userEvent.setup();
    renderApp('/super/roles');
    await screen.findByText('Auditor');
    await waitFor(() => expect(document.querySelector('.ant-spin-spinning')).toBeNull());
    expect(await axeViolations()).toEqual([]);
    const row = screen.getByText('Auditor').closest('tr')!;
    await user.click(within(row).getAllByRole('button')[0]!);
    await screen.findByRole('dialog');
    expect(await axeViolations()).toEqual([]);
  });
});
