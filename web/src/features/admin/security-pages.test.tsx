import { API, ROLES } from '@aiedu/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clearSession } from '../../app/session';
import { ok, type FakeServer } from '../../test/fake-api';
import { axeViolations, lastChange, signInAs, startFakeApi, stopFakeApi } from '../../test/page-kit';
import { renderApp } from '../../test/render-app';
import { ADMIN_API } from './admin-api';
import { SECURITY_API } from './security-api';

const REQUEST = {
  id: 'r-1',
  userId: 'u-9',
  region: 'mainland',
  schoolName: 'Demo Primary School',
  teacherNumber: 'T-001',
  idNumber: '110***********1234',
  phone: '13800000009',
  documentType: 'id',
  documentNumber: '',
  contact: '',
  status: 'pending',
  reason: '',
  createdAt: '2026-11-20T08:00:00+08:00',
  reviewedAt: null,
};
const MESSAGE = {
  id: 'm-1',
  channel: 'sms',
  target: '13800000009',
  subject: 'Your verification code',
  body: 'Your verification code to sign up is 246810.',
  deliveredBy: 'outbox',
  delivered: false,
  createdAt: '2026-11-22T08:00:00+08:00',
};

let server: FakeServer;
const sent = (method: string, path: string) => server.requests.filter((r) => r.method === method && r.url === path);

beforeEach(async () => {
  server = await startFakeApi();
  server.on(`GET ${SECURITY_API.pendingCertifications}`, () => ok([REQUEST]));
  server.on(`PUT ${SECURITY_API.certification('r-1')}`, () => ok(null));
  server.on(`GET ${SECURITY_API.outbox}`, () => ok({ list: [MESSAGE], total: 1, page: 1, size: 20 }));
  server.on(`GET ${SECURITY_API.ranges}`, () => ok([]));
  server.on(`POST ${SECURITY_API.ranges}`, (r) => ok({ id: 'x', ...(JSON.parse(r.body ?? '{}') as object) }));
  server.on(`GET ${SECURITY_API.providers}`, () => ok([]));
});

afterEach(stopFakeApi);

describe('identity and security screens', () => {
  it('a customer administrator rejects a certification request only with a reason the teacher will read', async () => {
    signInAs(ROLES.customerAdmin);
    const user = userEvent.setup();
    renderApp('/admin/teacher-certifications');
    await user.click(await screen.findByRole('button', { name: 'Reject' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reject this request?' });
    await user.click(within(dialog).getByRole('button', { name: 'Reject' }));
    expect(await within(dialog).findByText('Say why the request is rejected')).toBeTruthy();
    expect(sent('PUT', SECURITY_API.certification('r-1'))).toHaveLength(0);

    await user.type(within(dialog).getByLabelText('Reason (the teacher reads it)'), 'Teacher number not found');
    await user.click(within(dialog).getByRole('button', { name: 'Reject' }));
    await waitFor(() => expect(sent('PUT', SECURITY_API.certification('r-1'))).toHaveLength(1));
    expect(JSON.parse(sent('PUT', SECURITY_API.certification('r-1'))[0]?.body ?? '{}')).toEqual({
      status: 'rejected',
      reason: 'Teacher number not found',
    });
  });

  it('adds a school address range and refuses what is not an address', async () => {
    signInAs(ROLES.customerAdmin);
    const user = userEvent.setup();
    renderApp('/admin/address-ranges');
    const range = await screen.findByLabelText('Address or range');
    await user.type(range, 'school wifi');
    await user.click(screen.getByRole('button', { name: /Add/ }));
    expect(await screen.findByText(/Enter an address such as/)).toBeTruthy();
    expect(sent('POST', SECURITY_API.ranges)).toHaveLength(0);

    await user.clear(range);
    await user.type(range, '203.0.113.0/24');
    await user.click(screen.getByRole('button', { name: /Add/ }));
    await waitFor(() => expect(sent('POST', SECURITY_API.ranges)).toHaveLength(1));
    expect(JSON.parse(sent('POST', SECURITY_API.ranges)[0]?.body ?? '{}')).toMatchObject({ range: '203.0.113.0/24' });
  });

  it('shows the outbox to a super administrator, and refuses a customer administrator', async () => {
    signInAs(ROLES.super);
    const { unmount } = renderApp('/super/outbox');
    expect(await screen.findByText(MESSAGE.body)).toBeTruthy();
    expect(screen.getByText('Kept in the outbox')).toBeTruthy();
    expect(await axeViolations()).toEqual([]);
    unmount();

    clearSession();
    signInAs(ROLES.customerAdmin);
    renderApp('/super/outbox');
    expect(await screen.findByText('The current user does not have permission to access this page')).toBeTruthy();
    expect(server.requests.filter((r) => r.url.startsWith(SECURITY_API.outbox))).toHaveLength(1);
  });

  it("adds a provider whose new accounts join one of the customer's own schools", async () => {
    server.on(`GET ${API.userInfo}`, () => ok({ id: 'u-1', username: 'admin', domainId: 'c-1', realName: 'Admin' }));
    const school = (id: string, customerId: string, name: string) => ({
      id,
      customerId,
      name,
      eduStages: ['primary'],
      enabled: true,
    });
    server.on(`GET ${ADMIN_API.schoolInfo}`, () =>
      ok([school('s-1', 'c-1', 'Demo Primary School'), school('s-9', 'c-2', 'Sub-district School')]),
    );
    const saved: object[] = [];
    server.on(`GET ${SECURITY_API.providers}`, () => ok(saved));
    server.on(`POST ${SECURITY_API.providers}`, (r) => {
      const body = JSON.parse(r.body ?? '{}') as object;
      saved.push({ id: 'p-1', enabled: true, redirectUri: 'http://school.test/user/sign/login/school', ...body });
      return ok(saved[0]);
    });
    signInAs(ROLES.customerAdmin);
    const user = userEvent.setup();
    renderApp('/admin/identity-providers');
    await user.click(await screen.findByRole('button', { name: /Add a provider/ }));
    const drawer = await screen.findByRole('dialog');
    await user.type(within(drawer).getByLabelText('Short name'), 'school');
    await user.type(within(drawer).getByLabelText('Name shown to users'), 'School accounts');
    await user.type(within(drawer).getByLabelText('Issuer address'), 'https://login.school.edu');
    await user.type(within(drawer).getByLabelText('Client ID'), 'aiedu');
    await user.type(within(drawer).getByLabelText('Client secret'), 'secret');
    // Only the customer's own schools are offered: a sub-customer's accounts are not the provider's to create.
    await user.click(within(drawer).getByRole('combobox', { name: 'School for new accounts' }));
    expect(screen.queryByTitle('Sub-district School')).toBeNull();
    await user.click(await screen.findByTitle('Demo Primary School'));
    await user.click(within(drawer).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(sent('POST', SECURITY_API.providers)).toHaveLength(1));
    expect(lastChange(server, SECURITY_API.providers)).toMatchObject({ type: 'school', schoolId: 's-1' });
    const row = (await screen.findByRole('cell', { name: 'School accounts' })).closest('tr')!;
    expect(within(row).getByText('Demo Primary School')).toBeTruthy();
  });

  it('offers a super administrator no school: the public space has none', async () => {
    signInAs(ROLES.super);
    const user = userEvent.setup();
    renderApp('/admin/identity-providers');
    await user.click(await screen.findByRole('button', { name: /Add a provider/ }));
    const drawer = await screen.findByRole('dialog');
    expect(within(drawer).getByLabelText('Client ID')).toBeTruthy();
    expect(within(drawer).queryByRole('combobox', { name: 'School for new accounts' })).toBeNull();
    expect(server.to(ADMIN_API.schoolInfo)).toHaveLength(0);
  });

  it.each(['/admin/teacher-certifications', '/admin/address-ranges', '/admin/identity-providers'])(
    '%s has no accessibility violations',
    async (path) => {
      signInAs(ROLES.customerAdmin);
      renderApp(path);
      await screen.findByRole('heading', { level: 1 });
      await waitFor(() => expect(document.querySelector('.ant-spin-spinning')).toBeNull());
      expect(await axeViolations()).toEqual([]);
    },
  );
});
