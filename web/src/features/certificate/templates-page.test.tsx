import { CERT_API, ROLES } from '@aiedu/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ok, type FakeServer } from '../../test/fake-api';
import { axeViolations, signInAs, startFakeApi, stopFakeApi } from '../../test/page-kit';
import { renderApp } from '../../test/render-app';
import { aTemplate, TEMPLATE_ID } from './designer-fixtures';

let server: FakeServer;

beforeEach(async () => {
  server = await startFakeApi();
  signInAs(ROLES.customerAdmin);
  server.on(`GET ${CERT_API.cert}`, () =>
    ok({
      list: [aTemplate(), aTemplate({ id: 'other', name: 'Coding club', numberRule: { prefix: '', digits: 3 } })],
      total: 2,
      page: 1,
      size: 20,
    }),
  );
});
afterEach(stopFakeApi);

const lastListQuery = () =>
  new URL(server.to(CERT_API.cert).findLast((r) => r.method === 'GET')!.url, 'http://x').searchParams;

describe('certificate templates', { timeout: 60_000 }, () => {
  it('lists templates with an example of their number, and filters by keyword and type', async () => {
    const user = userEvent.setup();
    renderApp('/admin/certificates');
    const row = (await screen.findByRole('link', { name: 'Robotics contest' })).closest('tr')!;
    expect(within(row).getByText(/^AB\d{8}0001$/)).toBeTruthy();
    expect(within(row).getByText('Activity')).toBeTruthy();
    expect(within(row).getByText('12')).toBeTruthy();
    expect(screen.getByText(/^\d{8}001$/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Robotics contest' }).getAttribute('href')).toBe(
      `/admin/certificates/${TEMPLATE_ID}/edit`,
    );
    expect(await axeViolations()).toEqual([]);

    await user.type(screen.getByRole('searchbox', { name: 'Search by template name' }), 'robot{Enter}');
    await waitFor(() => expect(lastListQuery().get('keyword')).toBe('robot'));
    await user.click(screen.getByRole('combobox', { name: 'Type' }));
    await user.click(await screen.findByTitle('Teaching'));
    await waitFor(() => expect(lastListQuery().get('type')).toBe('teaching'));
    expect(lastListQuery().get('keyword')).toBe('robot');
    expect(lastListQuery().get('page')).toBe('1');
  });

  it('deletes a template only after a confirmation that says issued certificates stay valid', async () => {
    const user = userEvent.setup();
    server.on(`DELETE ${CERT_API.cert}`, () => ok(null));
    renderApp('/admin/certificates');
    const row = (await screen.findByRole('link', { name: 'Robotics contest' })).closest('tr')!;
    await user.click(within(row).getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getAllByText('Delete the template “Robotics contest”?').length).toBeGreaterThan(0);
    expect(
      within(dialog).getByText(/already issued with it stay valid and verifiable.*Issued so far: 12/),
    ).toBeTruthy();
    expect(server.to(CERT_API.cert).filter((r) => r.method === 'DELETE')).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(server.to(CERT_API.cert).filter((r) => r.method === 'DELETE')).toHaveLength(1));
    const removal = server.to(CERT_API.cert).find((r) => r.method === 'DELETE')!;
    expect(new URL(removal.url, 'http://x').searchParams.get('certId')).toBe(TEMPLATE_ID);
  });

  it('leads to the designer of a new template', async () => {
    const user = userEvent.setup();
    const { router } = renderApp('/admin/certificates');
    await user.click(await screen.findByRole('button', { name: /New template/ }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/certificates/new'));
  });
});
