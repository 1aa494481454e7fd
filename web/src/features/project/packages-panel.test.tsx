import { projectApi } from '@aiedu/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ok } from '../../test/fake-api';
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

describe('packages panel', () => {
  beforeEach(async () => {
    const server = await startFakeApi();
    signInAs('ROLE_STUDENT');
    server.on(`GET ${projectApi('p1').packages}`, () => ok([{ name: 'numpy', version: '1.24.2' }]));
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
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <PackagesPanel />
      </QueryClientProvider>,
    );
    expect(await screen.findByText('ERROR: No matching distribution found for no-such-package')).toBeTruthy();
    expect(screen.getByText('Stopped when the server restarted. Try again.')).toBeTruthy();
    expect(screen.getAllByText('Failed')).toHaveLength(2);
  });
});
