import { datasetApi, type TDatasetFiles, type TDatasetPreview } from '@aiedu/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ok, type FakeServer } from '../../test/fake-api';
import { axeViolations, signInAs, startFakeApi, stopFakeApi } from '../../test/page-kit';
import { renderApp } from '../../test/render-app';
import { aDataset, answerSurroundings } from './dataset-fixtures';

const DATASET = aDataset({ explanation: '## Where it comes from\n\nFisher, 1936.', access: 'public' });
const VERSION_ID = DATASET.currentVersion!.id;
const paths = datasetApi(DATASET.id);

const LEVELS: Record<string, TDatasetFiles> = {
  '': {
    versionId: VERSION_ID,
    dir: '',
    entries: [
      { name: 'tables', path: 'tables', kind: 'dir', size: 2048, childCount: 2 },
      { name: 'README.txt', path: 'README.txt', kind: 'file', size: 120, childCount: 0 },
    ],
  },
  tables: {
    versionId: VERSION_ID,
    dir: 'tables',
    entries: [{ name: 'iris.csv', path: 'tables/iris.csv', kind: 'file', size: 1500, childCount: 0 }],
  },
};

const PREVIEWS: Record<string, TDatasetPreview> = {
  'tables/iris.csv': {
    kind: 'table',
    path: 'tables/iris.csv',
    size: 1500,
    header: ['sepal_length', 'species'],
    rows: [
      ['5.1', 'setosa'],
      ['7.0', 'versicolor'],
    ],
    truncated: true,
  },
  'README.txt': { kind: 'text', path: 'README.txt', size: 120, text: 'Iris data\nfrom UCI', truncated: false },
};

let server: FakeServer;

beforeEach(async () => {
  server = await startFakeApi();
  signInAs('ROLE_STUDENT');
  answerSurroundings(server);
  server.on(`GET ${paths.base}`, () => ok(DATASET));
  server.on(`GET ${paths.files}`, (request) => ok(LEVELS[new URL(request.url, 'http://x').searchParams.get('dir')!]));
  server.on(`GET ${paths.preview}`, (request) =>
    ok(PREVIEWS[new URL(request.url, 'http://x').searchParams.get('path')!]),
  );
});
afterEach(stopFakeApi);

describe('dataset detail', () => {
  it('shows the head of a CSV file as a table once its folder is opened', async () => {
    const user = userEvent.setup();
    renderApp(`/pjedu/datasets/${DATASET.id}`);
    expect(await screen.findByRole('heading', { level: 1, name: 'Iris flowers' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Where it comes from' })).toBeTruthy();
    const tree = await screen.findByRole('navigation', { name: 'Files of the dataset' });
    expect(await within(tree).findByText('README.txt')).toBeTruthy();
    expect(within(tree).getByText(/^2 files · 2 kB$/i)).toBeTruthy();
    // The folder's content is asked for only when it opens.
    expect(server.to(paths.files).map((r) => new URL(r.url, 'http://x').searchParams.get('dir'))).toEqual(['']);
    await user.click(tree.querySelector<HTMLElement>('.ant-tree-switcher')!);
    await user.click(await within(tree).findByText('iris.csv'));
    const table = await screen.findByRole('table');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((c) => c.textContent),
    ).toEqual(['sepal_length', 'species']);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(
      rows.map((r) =>
        within(r)
          .getAllByRole('cell')
          .map((c) => c.textContent),
      ),
    ).toEqual([
      ['5.1', 'setosa'],
      ['7.0', 'versicolor'],
    ]);
    expect(screen.getByText('The first 2 rows.')).toBeTruthy();
    expect(screen.getByText('tables/iris.csv', { selector: 'code' })).toBeTruthy();
    expect(new URL(server.to(paths.preview).at(-1)!.url, 'http://x').searchParams.get('versionId')).toBe(VERSION_ID);
    expect(await axeViolations()).toEqual([]);
  }, 30_000);

  it('shows a text file in a monospace block', async () => {
    const user = userEvent.setup();
    renderApp(`/pjedu/datasets/${DATASET.id}`);
    await user.click(await screen.findByText('README.txt'));
    const block = await screen.findByLabelText('README.txt', { selector: 'pre' });
    expect(block.textContent).toBe('Iris data\nfrom UCI');
  });

  it('draws the annotation boxes over an image and names their categories', async () => {
    const user = userEvent.setup();
    const annotated = aDataset({ versions: [{ ...DATASET.versions[0]!, annotationName: 'coco.json' }] });
    server.on(`GET ${paths.base}`, () => ok(annotated));
    server.on(`GET ${paths.files}`, () =>
      ok({
        versionId: VERSION_ID,
        dir: '',
        entries: [{ name: 'pets.png', path: 'pets.png', kind: 'file', size: 4096, childCount: 0 }],
      }),
    );
    server.on(`GET ${paths.preview}`, () =>
      ok({ kind: 'image', path: 'pets.png', size: 4096, thumbnailUrl: 'unused', rawUrl: 'unused' }),
    );
    server.on(`GET ${paths.raw}`, () => ({ body: 'png bytes', contentType: 'image/png' }));
    server.on(`GET ${paths.annotation}`, () =>
      ok({
        path: 'pets.png',
        width: 200,
        height: 100,
        boxes: [
          { x: 10, y: 10, w: 50, h: 40, category: 'cat' },
          { x: 100, y: 20, w: 60, h: 60, category: 'dog' },
        ],
      }),
    );
    renderApp(`/pjedu/datasets/${DATASET.id}`);
    await user.click(await screen.findByText('pets.png'));
    expect(await screen.findByText('2 boxes: cat (1), dog (1)')).toBeTruthy();
    expect(screen.getByRole('img', { name: 'pets.png' })).toBeTruthy();
    const svg = document.querySelector('.file-preview__boxes')!;
    expect(svg.getAttribute('viewBox')).toBe('0 0 200 100');
    expect([...svg.querySelectorAll('rect')].map((r) => r.getAttribute('x'))).toEqual(['10', '100']);
    // With boxes the image itself is shown (they are in its pixels), not its thumbnail.
    expect(new URL(server.to(paths.raw)[0]!.url, 'http://x').searchParams.get('thumb')).toBeNull();
  });

  it('explains why a public dataset cannot be deleted, and publishes after confirming', async () => {
    const user = userEvent.setup();
    const published = { ...DATASET, published: true, canEdit: false };
    server.on(`POST ${paths.publish}`, () => {
      server.on(`GET ${paths.base}`, () => ok(published));
      return ok(published);
    });
    renderApp(`/pjedu/datasets/${DATASET.id}`);
    await screen.findByRole('heading', { level: 1, name: 'Iris flowers' });
    expect((screen.getByRole('button', { name: /Delete/ }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByText('A public dataset can never be deleted.')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: /Publish/ }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(/This cannot be undone/)).toBeTruthy();
    expect(server.to(paths.publish)).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Publish' }));
    await waitFor(() => expect(server.to(paths.publish)).toHaveLength(1));
    expect(await screen.findByText('Published')).toBeTruthy();
    // The header offers no second publish (the dialog may still be closing).
    const actions = document.querySelector<HTMLElement>('.dataset-detail__actions')!;
    await waitFor(() => expect(within(actions).queryByRole('button', { name: /Publish/ })).toBeNull());
  }, 30_000);
});
