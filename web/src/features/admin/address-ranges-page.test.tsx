import { ROLES } from '@aiedu/contracts';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ok, type FakeServer } from '../../test/fake-api';
import { signInAs, startFakeApi, stopFakeApi } from '../../test/page-kit';
import { renderApp } from '../../test/render-app';
import { SECURITY_API } from './security-api';

let server: FakeServer;

beforeEach(async () => {
  server = await startFakeApi();
  server.on(`GET ${SECURITY_API.ranges}`, () => ok([]));
  server.on(`POST ${SECURITY_API.ranges}`, () => ({
    status: 400,
    body: { errorCode: '1001', errorMsg: 'Request parameter error', data: { reason: 'range too wide' } },
  }));
});

afterEach(stopFakeApi);

describe('school address ranges', () => {
  it('says why the server refuses a range that is too wide', async () => {
    signInAs(ROLES.customerAdmin);
    const user = userEvent.setup();
    renderApp('/admin/address-ranges');
    await user.type(await screen.findByLabelText('Address or range'), '10.0.0.0/8');
    await user.click(screen.getByRole('button', { name: /Add/ }));
    await waitFor(() => expect(server.to(SECURITY_API.ranges).filter((r) => r.method === 'POST')).toHaveLength(1));
    expect(await screen.findByText(/Too wide: a range may cover at most an IPv4 \/16/)).toBeTruthy();
  });
});
