import { DATASET_API, projectDatasetApi, type TProjectDataset } from '@aiedu/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fail, ok, type FakeServer } from '../../test/fake-api';
import { signInAs, startFakeApi, stopFakeApi } from '../../test/page-kit';
import { DatasetsPanel } from './datasets-panel';

vi.mock('./editor-context', () => ({ useEditor: () => ({ projectId: 'p1', canEdit: true }) }));

const paths = projectDatasetApi('p1');

const attached = (over: Partial<TProjectDataset>): TProjectDataset => ({
  datasetId: 'd-iris',
  name: 'Iris',
  versionNumber: 1,
  currentVersionNumber: 1,
  mountName: 'iris',
  path: 'datasets/iris',
  syncState: 'success',
  syncError: null,
  attachedAt: '2026-11-24T08:00:00.000Z',
  ...over,
});

const choice = (id: string, name: string, ready = true) => ({
  id,
  name,
  description: '',
  currentVersion: ready ? { id: `v-${id}`, number: 1, fileCount: 3, totalBytes: 100 } : null,
});

const renderPanel = () =>
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <DatasetsPanel />
    </QueryClientProvider>,
  );

describe('datasets panel', () => {
  let server: FakeServer;
  let rows: TProjectDataset[];
  beforeEach(async () => {
    server = await startFakeApi();
    signInAs('ROLE_STUDENT');
    rows = [
      attached({}),
      attached({
        datasetId: 'd-scores',
        name: 'Scores',
        mountName: 'scores',
        path: 'datasets/scores',
        syncState: 'failure',
        syncError: { errorCode: '3003', errorMsg: 'Dataset synchronisation failed', reason: 'failed' },
      }),
      attached({
        datasetId: 'd-gone',
        name: 'Gone',
        mountName: 'gone',
        path: 'datasets/gone',
        syncState: 'failure',
        syncError: { errorCode: '3003', errorMsg: 'Dataset synchronisation failed', reason: 'noPermission' },
      }),
    ];
    server.on(`GET ${paths.base}`, () => ok(rows));
  });
  afterEach(stopFakeApi);

  it('shows each state with its reason, retries a failure and offers no retry without permission', async () => {
    server.on(`POST ${paths.sync('d-scores')}`, () => {
      rows = rows.map((r) => (r.datasetId === 'd-scores' ? { ...r, syncState: 'inProgress', syncError: null } : r));
      return ok(rows[1]);
    });
    const user = userEvent.setup();
    renderPanel();
    const iris = (await screen.findByText('Iris')).closest('li')!;
    // The panel's texts load lazily: its first drawing may show keys until they arrive.
    expect(await within(iris).findByText('Ready')).toBeTruthy();
    expect(within(iris).getByText('datasets/iris')).toBeTruthy();

    const scores = screen.getByText('Scores').closest('li')!;
    expect(within(scores).getByRole('alert').textContent).toBe(
      'Dataset synchronisation failed: its files could not be copied. Try again.',
    );
    const gone = screen.getByText('Gone').closest('li')!;
    expect(within(gone).getByRole('alert').textContent).toContain(
      'you no longer have permission to visit this dataset.',
    );
    expect(within(gone).queryByRole('button', { name: /Try again/ })).toBeNull();

    await user.click(within(scores).getByRole('button', { name: /Try again/ }));
    await waitFor(() => expect(server.to(paths.sync('d-scores'))).toHaveLength(1));
    // The row is looked up afresh on each try: the list may draw a new element for it when the answer arrives.
    await waitFor(() => {
      const copying = within(screen.getByText('Scores').closest('li')!).getByText('Copying…');
      expect(copying.closest('[data-sync-state]')!.getAttribute('data-sync-state')).toBe('inProgress');
    });
  });

  it('copies the path code reads, and offers a newer version', async () => {
    rows = [attached({ currentVersionNumber: 2 })];
    server.on(`POST ${paths.sync('d-iris')}`, () => ok(rows[0]));
    const writeText = vi.fn().mockResolvedValue(undefined);
    const user = userEvent.setup();
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    renderPanel();
    await user.click(await screen.findByRole('button', { name: /Copy path/ }));
    expect(writeText).toHaveBeenCalledWith('datasets/iris');
    await user.click(screen.getByRole('button', { name: /Update to version 2/ }));
    await waitFor(() => expect(server.to(paths.sync('d-iris'))).toHaveLength(1));
  });

  it('removes a dataset after asking', async () => {
    server.on(`DELETE ${paths.one('d-iris')}`, () => {
      rows = rows.filter((r) => r.datasetId !== 'd-iris');
      return ok(null);
    });
    const user = userEvent.setup();
    renderPanel();
    await user.click(await screen.findByRole('button', { name: 'Remove Iris' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(/Code that reads datasets\/iris will no longer find its files/)).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(server.to(paths.one('d-iris'))).toHaveLength(1));
    await waitFor(() => expect(screen.queryByText('Iris')).toBeNull());
  });

  it('adds a dataset found by keyword, and says why one was refused', async () => {
    server.on(`GET ${DATASET_API.base}`, (request) => {
      const keyword = new URL(request.url, 'http://x').searchParams.get('keyword');
      const list = keyword
        ? [choice('d-digits', 'Digits'), choice('d-empty', 'Empty', false), choice('d-twice', 'Twice')]
        : [choice('d-iris', 'Iris')];
      return ok({ list, total: list.length, page: 1, size: 20 });
    });
    server.on(`POST ${paths.base}`, (request) => {
      const { datasetId } = JSON.parse(request.body!) as { datasetId: string };
      if (datasetId === 'd-twice') return fail('3205', 'This dataset is already attached to the project', 409);
      rows = [...rows, attached({ datasetId, name: 'Digits', mountName: 'digits', syncState: 'inProgress' })];
      return ok(rows.at(-1));
    });
    const user = userEvent.setup();
    renderPanel();
    await user.click(await screen.findByRole('button', { name: /Add dataset/ }));
    const dialog = await screen.findByRole('dialog');
    // Already attached: marked, not offered again.
    expect(await within(dialog).findByText('Added')).toBeTruthy();
    await user.type(within(dialog).getByRole('searchbox', { name: 'Search datasets' }), 'di{Enter}');
    expect(await within(dialog).findByText('Digits')).toBeTruthy();
    expect(within(dialog).getByText('No data yet')).toBeTruthy();
    expect(within(dialog).queryByRole('button', { name: 'Add Empty' })).toBeNull();

    await user.click(within(dialog).getByRole('button', { name: 'Add Twice' }));
    expect(await within(dialog).findByText('This dataset is already attached to the project')).toBeTruthy();

    await user.click(within(dialog).getByRole('button', { name: 'Add Digits' }));
    await waitFor(() => expect(server.to(paths.base).filter((r) => r.method === 'POST')).toHaveLength(2));
    // In the panel's list, being copied.
    await waitFor(() => expect(document.querySelector('[data-dataset="digits"]')).toBeTruthy());
    const row = document.querySelector<HTMLElement>('[data-dataset="digits"]')!;
    expect(within(row).getByText('Copying…')).toBeTruthy();
  });
});
