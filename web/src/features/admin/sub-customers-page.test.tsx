import { API, ROLES } from '@aiedu/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { axeViolations, lastChange, signInAs, startFakeApi, stopFakeApi } from '../../test/page-kit';
import { ok, type FakeServer } from '../../test/fake-api';
import { renderApp } from '../../test/render-app';
import { ADMIN_API } from './admin-api';

/** What the caller's customer offers: 10 students, containers without limit, only the BASIC type. */
const LIMITS = {
  schoolQuota: 2,
  teacherQuota: 20,
  studentQuota: 10,
  containerConcurrency: null,
  maxStartsPerPerson: 1,
  studyConcurrency: 30,
  containerTypes: ['BASIC'],
};
const SUB = {
  id: 'c-2',
  parentId: 'c-1',
  code: 'eastarea01',
  name: 'East Area',
  enabled: true,
  remark: '',
  ...LIMITS,
  studentQuota: 4,
  coursePackages: [],
  country: '',
  province: '',
  city: '',
  district: '',
  adminUsername: 'east',
  adminName: 'East Admin',
  schoolCount: 0,
  createdAt: '2026-11-01T08:00:00+08:00',
};
let server: FakeServer;

beforeEach(async () => {
  server = await startFakeApi();
  server.on(`GET ${ADMIN_API.subCustomers}`, () => ok([SUB]));
  server.on(`GET ${ADMIN_API.subCustomerLimits}`, () => ok(LIMITS));
  server.on(`POST ${ADMIN_API.subCustomers}`, () => ok(SUB));
  server.on(`GET ${API.areaChildren}`, () => ok([]));
  signInAs(ROLES.customerAdmin);
});

afterEach(stopFakeApi);

describe('sub-customers', { timeout: 60_000 }, () => {
  it('starts a new sub-customer with the parent’s limits and offers nothing beyond them', async () => {
    const user = userEvent.setup();
    renderApp('/admin/sub-customers');
    await user.click(await screen.findByRole('button', { name: /New sub-customer/ }));
    const drawer = await screen.findByRole('dialog');
    expect((within(drawer).getByLabelText('Student quota') as HTMLInputElement).value).toBe('10');
    expect(within(drawer).getByText('At most 10: the limit of the customer above')).toBeTruthy();
    expect(within(drawer).getByText('Empty: no limit')).toBeTruthy();
    expect(within(drawer).getByText('Only the types the customer above offers')).toBeTruthy();
    await user.click(within(drawer).getByRole('combobox', { name: 'Container types' }));
    expect(screen.queryByTitle('GPU')).toBeNull();

    await user.type(within(drawer).getByLabelText('Customer code'), 'westarea01');
    await user.type(within(drawer).getByLabelText('Name'), 'West Area');
    await user.type(within(drawer).getByLabelText('Administrator username'), 'west');
    await user.type(within(drawer).getByLabelText('Administrator name'), 'West Admin');
    await user.type(within(drawer).getByLabelText('Initial password'), 'Start2026');
    await user.clear(within(drawer).getByLabelText('Student quota'));
    await user.click(within(drawer).getByRole('button', { name: 'Save' }));
    // Empty means no limit, which the parent does not have to give.
    await waitFor(() =>
      expect(drawer.querySelector('.ant-form-item-explain-error')?.textContent).toBe(
        'At most 10: the limit of the customer above',
      ),
    );
    expect(server.to(ADMIN_API.subCustomers).some((r) => r.method === 'POST')).toBe(false);

    await user.type(within(drawer).getByLabelText('Student quota'), '8');
    await user.click(within(drawer).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(server.to(ADMIN_API.subCustomers).some((r) => r.method === 'POST')).toBe(true));
    expect(lastChange(server, ADMIN_API.subCustomers)).toMatchObject({
      code: 'westarea01',
      schoolQuota: 2,
      studentQuota: 8,
      containerConcurrency: null,
      containerTypes: ['BASIC'],
    });
  });

  it('edits a sub-customer within the limits of its own parent', async () => {
    const user = userEvent.setup();
    renderApp('/admin/sub-customers');
    await user.click(await screen.findByRole('button', { name: 'Edit' }));
    const drawer = await screen.findByRole('dialog');
    expect((within(drawer).getByLabelText('Student quota') as HTMLInputElement).value).toBe('4');
    expect(within(drawer).getByText('At most 10: the limit of the customer above')).toBeTruthy();
    expect(server.to(ADMIN_API.subCustomerLimits).at(-1)!.url).toContain('parentId=c-1');
    expect(await axeViolations()).toEqual([]);
  });
});
