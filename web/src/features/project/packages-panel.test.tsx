import { projectApi } from '@aiedu/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fail, ok, type FakeServer } from '../../test/fake-api';
import { signInAs, startFakeApi, stopFakeApi } from '../../test/page-kit';
import { PackagesPanel } from './packages-panel';

vi.mock('./editor-context', () => ({ useEditor: () => ({ projectId: 'p1', canEdit: true }) }));

const operation = (name: string, message: string) => ({
  id: `op-${name}`,
  kind: 'install',
  name,
  state: 'fail',
  message,
  createdAt: '2026-11-24T08:00:00.000Z',
  finishedAt: '2026-11-24T08:00:05.000Z',
});

const renderPanel = () =>
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <PackagesPanel />
    </QueryClientProvider>,
  );

describe('packages panel', () => {
  let server: FakeServer;
  beforeEach(async () => {
    server = await startFakeApi();
    signInAs('ROLE_STUDENT');
    server.on(`GET ${projectApi('p1').packages}`, () =>
      ok([
        { name: 'numpy', version: '1.24.2', provided: true },
        { name: 'hello-aiedu', version: '1.0.0', provided: false },
      ]),
    );
    server.on(`GET ${projectApi('p1').packageOperations}`, () =>
      ok([
        operation('no-such-package', 'ERROR: No matching distribution found for no-such-package'),
        // Ended by another process because the one that ran it stopped: pip gave no reason.
        operation('pandas', ''),
      ]),
    );
  });
  afterEach(stopFakeApi);

  it("shows pip's reason for a failure, and says so when the server stopped before pip answered", async () => {
    renderPanel();
    expect(await screen.findByText('ERROR: No matching distribution found for no-such-package')).toBeTruthy();
    expect(screen.getByText('Stopped when the server restarted. Try again.')).toBeTruthy();
    expect(screen.getAllByText('Failed')).toHaveLength(2);
  });

  it('says why an install was refused and keeps the name typed', async () => {
    server.on(`POST ${projectApi('p1').packages}/install`, (request) => {
      expect(JSON.parse(request.body!)).toEqual({ name: 'pandas' });
      return {
        status: 507,
        body: { errorCode: '2003', errorMsg: 'No space left', data: { disk: 'server', freeMb: 512 } },
      };
    });
    const user = userEvent.setup();
    renderPanel();
    await user.type(await screen.findByLabelText('Package name'), 'pandas');
    await user.click(screen.getByRole('button', { name: 'Install' }));
    expect(await screen.findByText(/^The server's disk is almost full, so Python cannot start/)).toBeTruthy();
    expect(screen.getByLabelText<HTMLInputElement>('Package name').value).toBe('pandas');

    server.on(`POST ${projectApi('p1').packages}/install`, () => fail('1001', 'Invalid package name', 400));
    await user.click(screen.getByRole('button', { name: 'Install' }));
    expect(await screen.findByText('Invalid package name')).toBeTruthy();
    expect(screen.queryByText(/disk is almost full/)).toBeNull();
  });

  it("offers no uninstall of the environment's own packages, and uninstalls the project's", async () => {
    server.on(`POST ${projectApi('p1').packages}/uninstall`, (request) => {
      expect(JSON.parse(request.body!)).toEqual({ name: 'hello-aiedu' });
      return ok(operation('hello-aiedu', ''));
    });
    const user = userEvent.setup();
    renderPanel();
    const numpy = (await screen.findByText('numpy')).closest('li')!;
    expect(within(numpy).getByText('Part of the environment')).toBeTruthy();
    expect(within(numpy).queryByRole('button', { name: 'Uninstall' })).toBeNull();
    const own = screen.getByText('hello-aiedu').closest('li')!;
    await user.click(within(own).getByRole('button', { name: 'Uninstall' }));
    await waitFor(() => expect(server.to(`${projectApi('p1').packages}/uninstall`)).toHaveLength(1));
  });
});
