import { API, ROLES } from '@aiedu/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ok, type FakeServer } from '../../../test/fake-api';
import { axeViolations, signInAs, startFakeApi, stopFakeApi } from '../../../test/page-kit';
import { renderApp } from '../../../test/render-app';
import { ADMIN_API } from '../admin-api';

const PATH = '/admin/compute-allowances';
const CUSTOMER_ID = '0192f7a0-0000-7000-8000-0000000000c9';
const minutes = { BASIC: 600, ADVANCED: 300, GPU: 60 };

let server: FakeServer;

beforeEach(async () => {
  server = await startFakeApi();
  server.on(`GET ${ADMIN_API.subCustomers}`, () => ok([]));
  server.on(`GET ${API.computeAllowances}`, () =>
    ok(Object.entries(minutes).map(([runtimeType, weeklyMinutes]) => ({ runtimeType, weeklyMinutes }))),
  );
  server.on(`PUT ${API.computeAllowances}`, (request) => {
    const body = JSON.parse(request.body!) as { runtimeType: keyof typeof minutes; weeklyMinutes: number };
    minutes[body.runtimeType] = body.weeklyMinutes;
    return ok(null);
  });
});

afterEach(() => {
  stopFakeApi();
  Object.assign(minutes, { BASIC: 600, ADVANCED: 300, GPU: 60 });
});

describe('weekly compute time', { timeout: 30_000 }, () => {
  it('shows a customer administrator each runtime type’s minutes, from the menu, with no axe violations', async () => {
    signInAs(ROLES.customerAdmin);
    renderApp(PATH);
    expect(await screen.findByRole('heading', { level: 1, name: 'Weekly compute time' })).toBeTruthy();
    const menu = screen.getByRole('navigation', { name: 'Administration menu' });
    expect(within(menu).getByRole('link', { name: 'Weekly compute time' }).getAttribute('href')).toBe(PATH);
    const basic = (await screen.findByRole('cell', { name: 'Basic' })).closest('tr')!;
    expect(within(basic).getByText('600 min (10 h)')).toBeTruthy();
    const gpu = screen.getByRole('cell', { name: 'GPU' }).closest('tr')!;
    expect(within(gpu).getByText('60 min (1 h)')).toBeTruthy();
    expect(server.to(API.computeAllowances)[0]!.url).not.toContain('customerId');
    await waitFor(() => expect(document.querySelector('.ant-spin-spinning')).toBeNull());
    expect(await axeViolations()).toEqual([]);
  });

  it('changes one runtime type in a drawer, never sending more minutes than a week has', async () => {
    const user = userEvent.setup();
    signInAs(ROLES.customerAdmin);
    renderApp(PATH);
    await user.click(await screen.findByRole('button', { name: 'Edit GPU' }));
    const drawer = await screen.findByRole('dialog', { name: 'Weekly compute time: GPU' });
    const input = within(drawer).getByRole('spinbutton', { name: 'Minutes per week, per user' });
    await user.clear(input);
    await user.type(input, '20000');
    await user.click(within(drawer).getByRole('button', { name: 'Save' }));
    // The field clamps to a week (10,080 minutes) rather than sending more.
    await waitFor(() => expect(server.to(API.computeAllowances).filter((r) => r.method === 'PUT')).toHaveLength(1));
    expect(JSON.parse(server.to(API.computeAllowances).find((r) => r.method === 'PUT')!.body!)).toEqual({
      runtimeType: 'GPU',
      weeklyMinutes: 10_080,
    });
    const gpu = (await screen.findByText('10,080 min (168 h)')).closest('tr')!;
    expect(within(gpu).getByRole('cell', { name: 'GPU' })).toBeTruthy();
  });

  it('asks a super administrator to choose the institution first, and sends its id', async () => {
    const user = userEvent.setup();
    server.on(`GET ${ADMIN_API.customers}`, () =>
      ok({ list: [{ id: CUSTOMER_ID, name: 'Demo School District', code: 'demo2026' }], total: 1, page: 1, size: 20 }),
    );
    signInAs(ROLES.super);
    renderApp(PATH);
    expect(await screen.findByText(/Choose an institution/)).toBeTruthy();
    expect(server.to(API.computeAllowances)).toEqual([]);
    await user.type(screen.getByRole('combobox', { name: 'Institution' }), 'demo');
    await waitFor(() => expect(server.to(ADMIN_API.customers).at(-1)?.url).toContain('keyword=demo'));
    await user.click(await screen.findByTitle('Demo School District (demo2026)'));
    await waitFor(() => expect(server.to(API.computeAllowances).at(-1)?.url).toContain(`customerId=${CUSTOMER_ID}`));
    await user.click(await screen.findByRole('button', { name: 'Edit Basic' }));
    const drawer = await screen.findByRole('dialog');
    const input = within(drawer).getByRole('spinbutton');
    await user.clear(input);
    await user.type(input, '900');
    await user.click(within(drawer).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(server.to(API.computeAllowances).filter((r) => r.method === 'PUT')).toHaveLength(1));
    expect(JSON.parse(server.to(API.computeAllowances).find((r) => r.method === 'PUT')!.body!)).toEqual({
      customerId: CUSTOMER_ID,
      runtimeType: 'BASIC',
      weeklyMinutes: 900,
    });
  });

  it('refuses the screen to a teacher without asking the server', async () => {
    signInAs(ROLES.teacher);
    renderApp(PATH);
    expect(await screen.findByText('The current user does not have permission to access this page')).toBeTruthy();
    expect(server.to(API.computeAllowances)).toEqual([]);
  });
});
