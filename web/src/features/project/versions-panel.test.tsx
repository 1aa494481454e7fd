import { projectApi, type TProjectVersion } from '@aiedu/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadNamespaces } from '../../app/i18n';
import { ok, type FakeServer } from '../../test/fake-api';
import { lastChange, signInAs, startFakeApi, stopFakeApi } from '../../test/page-kit';
import { VersionsPanel } from './versions-panel';

const saveAll = vi.fn(async () => undefined);
vi.mock('./editor-context', () => ({ useEditor: () => ({ projectId: 'p1', canEdit: true, saveAll }) }));

const paths = projectApi('p1');
const versionOf = (major: number, minor: number, revision: number): TProjectVersion => ({
  id: `v-${major}-${minor}-${revision}`,
  version: `${major}.${minor}.${revision}`,
  major,
  minor,
  revision,
  description: 'Charts',
  snapshotNo: 1,
  fileCount: 2,
  createdBy: 'u-1',
  createdAt: '2026-11-24T08:00:00.000Z',
});

const RULE = 'A whole number from 0 to 99, without a leading zero';
const field = (name: string) => screen.getByLabelText<HTMLInputElement>(name);
const fields = () => ['Major', 'Minor', 'Revision'].map((name) => field(name).value);

function renderPanel() {
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <VersionsPanel />
    </QueryClientProvider>,
  );
}

describe('versions panel: the version input', () => {
  let server: FakeServer;
  let newest: TProjectVersion;
  beforeEach(async () => {
    server = await startFakeApi();
    signInAs('ROLE_STUDENT');
    await loadNamespaces(['project']);
    server.on(`GET ${paths.versions}`, () => ok([newest]));
    server.on(`POST ${paths.versions}`, () => ok(versionOf(1, 3, 0)));
  });
  afterEach(stopFakeApi);

  it('suggests the next minor version after revision 99', async () => {
    newest = versionOf(1, 2, 99);
    renderPanel();
    await screen.findByText(/^1\.2\.99/);
    await waitFor(() => expect(fields()).toEqual(['1', '3', '0']));
  });

  it('suggests the next major version after 99.99', async () => {
    newest = versionOf(2, 99, 99);
    renderPanel();
    await screen.findByText(/^2\.99\.99/);
    await waitFor(() => expect(fields()).toEqual(['3', '0', '0']));
  });

  it('takes 0 to 99 without a leading zero, and sends the segments as numbers', async () => {
    newest = versionOf(1, 2, 99);
    const user = userEvent.setup();
    renderPanel();
    await screen.findByText(/^1\.2\.99/);
    await waitFor(() => expect(field('Revision').value).toBe('0'));

    await user.clear(field('Revision'));
    await user.type(field('Revision'), '07');
    expect(await screen.findByText(RULE)).toBeTruthy();
    await user.clear(field('Revision'));
    await user.type(field('Revision'), '100');
    expect(field('Revision').value).toBe('10');
    await waitFor(() => expect(screen.queryByText(RULE)).toBeNull());

    await user.type(screen.getByLabelText('What changed'), 'Bar charts');
    await user.click(screen.getByText('Save version').closest('button')!);
    await waitFor(() => expect(server.to(paths.versions).some((r) => r.method === 'POST')).toBe(true));
    expect(lastChange(server, paths.versions)).toEqual({ major: 1, minor: 3, revision: 10, description: 'Bar charts' });
    expect(saveAll).toHaveBeenCalled();
  });
});
