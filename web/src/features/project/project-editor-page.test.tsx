import { API, projectApi, type TFileNode, type TProjectVersion } from '@aiedu/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type * as feedback from '../../app/feedback';
import { loadNamespaces } from '../../app/i18n';
import { fail, ok, type FakeServer } from '../../test/fake-api';
import { signInAs, startFakeApi, stopFakeApi } from '../../test/page-kit';
import { aProject, aRuntime } from '../../test/project-fixtures';
import type { CodeEditorProps } from './notebook/code-editor';
import { ProjectEditorPage } from './project-editor-page';

// The code editor is a plain text box here: what matters is what the editor saves, not how it highlights.
vi.mock('./notebook/code-editor', () => ({
  CodeEditor: ({ value, label, readOnly, onChange }: CodeEditorProps) => (
    <textarea aria-label={label} defaultValue={value} readOnly={readOnly} onChange={(e) => onChange(e.target.value)} />
  ),
}));

const toast = vi.hoisted(() => ({ error: vi.fn(), warning: vi.fn(), success: vi.fn() }));
vi.mock('../../app/feedback', async (original) => ({ ...(await original<typeof feedback>()), toast }));

const PROJECT = 'p1';
const paths = projectApi(PROJECT);

const notebookOf = (...sources: string[]) =>
  JSON.stringify({
    cells: sources.map((source, i) => ({
      cell_type: 'code',
      id: `c${i}`,
      metadata: {},
      outputs: [],
      execution_count: null,
      source,
    })),
    metadata: {},
    nbformat: 4,
    nbformat_minor: 5,
  });

const VERSION: TProjectVersion = {
  id: 'v1',
  version: '1.0.0',
  major: 1,
  minor: 0,
  revision: 0,
  description: 'First chart',
  snapshotNo: 1,
  fileCount: 1,
  createdBy: 'u-1',
  createdAt: '2026-11-24T08:00:00.000Z',
};

/** The project's files as the server keeps them: saving a missing file creates it, as the real one does. */
let disk: Map<string, string>;
let folders: Set<string>;
const under = (root: string, path: string) => path === root || path.startsWith(`${root}/`);

function treeOf(): TFileNode[] {
  const root: TFileNode[] = [];
  const find = (nodes: TFileNode[], path: string): TFileNode | undefined =>
    nodes.find((n) => n.path === path) ?? nodes.flatMap((n) => n.children ?? []).find((n) => n.path === path);
  const entries = [
    ...[...folders].sort().map((path) => ({ path, kind: 'folder' as const })),
    ...[...disk.keys()].sort().map((path) => ({ path, kind: 'file' as const })),
  ];
  for (const { path, kind } of entries) {
    const parent = path.split('/').slice(0, -1).join('/');
    const siblings = parent ? find(root, parent)!.children! : root;
    siblings.push({
      name: path.split('/').pop()!,
      path,
      kind,
      size: kind === 'file' ? disk.get(path)!.length : 0,
      modifiedAt: '2026-11-24T08:00:00.000Z',
      ...(kind === 'folder' ? { children: [] } : {}),
    });
  }
  return root;
}

/** Moves everything at or inside `from` to `to`. */
function relocate(from: string, to: string) {
  for (const [path, content] of [...disk]) {
    if (!under(from, path)) continue;
    disk.delete(path);
    disk.set(to + path.slice(from.length), content);
  }
}

const queryPath = (url: string) => new URL(url, 'http://localhost').searchParams.get('path') ?? '';
const body = (request: { body?: string }) => JSON.parse(request.body ?? '{}') as Record<string, string>;
/** The saves the editor sent of `path`, in order. */
const savesOf = (server: FakeServer, path: string) =>
  server.to(paths.fileContent).filter((r) => r.method === 'PUT' && body(r).path === path);

function renderEditor() {
  return render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemoryRouter initialEntries={[`/projects/${PROJECT}`]}>
        <Routes>
          <Route path="/projects/:projectId" element={<ProjectEditorPage />} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

const fileTree = () => screen.findByLabelText('Files', { selector: 'nav' });
const openFromTree = async (user: UserEvent, name: string) => user.click(within(await fileTree()).getByText(name));
/** A button by its text. */
const button = async (name: string) => (await screen.findByText(name, { selector: 'button *' })).closest('button')!;
const tabNames = () => screen.queryAllByRole('tab').map((tab) => tab.textContent);

/** Adds a code cell to the open notebook: it now has unsaved changes. */
async function addCell(user: UserEvent, cells: number) {
  await user.click(await button('Add code'));
  await screen.findByLabelText(`Code cell ${cells}`, { selector: 'textarea' });
  expect(screen.getByText('Unsaved changes')).toBeTruthy();
}

describe('project editor: open files and changes to them', () => {
  let server: FakeServer;
  beforeEach(async () => {
    disk = new Map([
      ['analysis.ipynb', notebookOf('print(1)')],
      ['notes.txt', 'first line'],
    ]);
    folders = new Set(['lessons', 'lessons/week1']);
    vi.clearAllMocks();
    server = await startFakeApi();
    signInAs('ROLE_STUDENT');
    await loadNamespaces(['project', 'errors']);
    server.on(`GET ${paths.base}`, () => ok(aProject({ id: PROJECT })));
    server.on(`GET ${paths.runtime}`, () => ok(aRuntime()));
    server.on(`GET ${API.runtimeAvailability}`, () =>
      ok({ state: 'ready', command: '', progress: '', limits: 'none', diskFull: false }),
    );
    server.on(`GET ${paths.files}`, () => ok(treeOf()));
    server.on(`GET ${paths.fileContent}`, (request) => {
      const content = disk.get(queryPath(request.url)) ?? '';
      return ok({ content, size: content.length });
    });
    server.on(`PUT ${paths.fileContent}`, (request) => {
      const { path, content } = body(request);
      disk.set(path!, content!);
      return ok(null);
    });
    server.on(`DELETE ${paths.files}`, (request) => {
      const path = queryPath(request.url);
      for (const key of [...disk.keys()]) if (under(path, key)) disk.delete(key);
      return ok(null);
    });
    server.on(`PUT ${paths.fileRename}`, (request) => {
      const { path, name } = body(request);
      relocate(path!, [...path!.split('/').slice(0, -1), name].join('/'));
      return ok(null);
    });
    server.on(`PUT ${paths.fileMove}`, (request) => {
      const { path, toFolder } = body(request);
      relocate(path!, [toFolder, path!.split('/').pop()].filter(Boolean).join('/'));
      return ok(null);
    });
    server.on(`GET ${paths.versions}`, () => ok([VERSION]));
    server.on(`POST ${paths.restore}`, () => {
      disk = new Map([['analysis.ipynb', notebookOf('print("version one")')]]);
      return ok(null);
    });
  });
  afterEach(stopFakeApi);

  it('deletes an open notebook with unsaved changes without writing it back', async () => {
    const user = userEvent.setup();
    renderEditor();
    await addCell(user, 2);

    await openFromTree(user, 'analysis.ipynb');
    await user.click(await button('Delete'));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }));
    await screen.findByText('Open a file from the list on the left.');
    // Opening another file comes after anything the closed notebook could still send.
    await openFromTree(user, 'notes.txt');
    await screen.findByLabelText('notes.txt', { selector: 'textarea' });

    expect(savesOf(server, 'analysis.ipynb')).toHaveLength(0);
    expect([...disk.keys()]).toEqual(['notes.txt']);
    const tree = await fileTree();
    await waitFor(() => expect(within(tree).queryByText('analysis.ipynb')).toBeNull());
  });

  it('saves an open notebook before it is renamed, and keeps it open under its new name', async () => {
    const user = userEvent.setup();
    renderEditor();
    await addCell(user, 2);

    await openFromTree(user, 'analysis.ipynb');
    await user.click(await button('Rename'));
    const name = within(await screen.findByRole('dialog')).getByRole('textbox', { name: 'Name' });
    await user.clear(name);
    await user.type(name, 'chart.ipynb');
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'OK' }));

    await waitFor(() => expect(tabNames()).toEqual(['chart.ipynb']));
    // The new cell was saved before the rename, so the notebook reopens with it.
    expect(await screen.findByLabelText('Code cell 2', { selector: 'textarea' })).toBeTruthy();
    expect([...disk.keys()].sort()).toEqual(['chart.ipynb', 'notes.txt']);
    expect(JSON.parse(disk.get('chart.ipynb')!).cells).toHaveLength(2);
    expect(savesOf(server, 'analysis.ipynb')).toHaveLength(1);
    expect(server.requests.indexOf(savesOf(server, 'analysis.ipynb')[0]!)).toBeLessThan(
      server.requests.findIndex((r) => r.url.startsWith(paths.fileRename)),
    );
  });

  it('saves an open text file before it is moved, and keeps it open in its new folder', async () => {
    const user = userEvent.setup();
    renderEditor();
    await openFromTree(user, 'notes.txt');
    await user.type(await screen.findByLabelText('notes.txt', { selector: 'textarea' }), ', second');

    await user.click(await button('Move to folder'));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('combobox', { name: 'Folder' }));
    await user.click(await screen.findByTitle('lessons/week1'));
    await user.click(within(dialog).getByRole('button', { name: 'OK' }));

    expect(await screen.findByLabelText('lessons/week1/notes.txt', { selector: 'textarea' })).toBeTruthy();
    expect(tabNames()).toEqual(['analysis.ipynb', 'notes.txt']);
    expect(disk.get('lessons/week1/notes.txt')).toBe('first line, second');
    expect(disk.has('notes.txt')).toBe(false);
  });

  it('saves what was typed in a text file when its tab closes', async () => {
    const user = userEvent.setup();
    renderEditor();
    await openFromTree(user, 'notes.txt');
    await user.type(await screen.findByLabelText('notes.txt', { selector: 'textarea' }), ', second');

    await user.click(screen.getByLabelText('Close notes.txt'));
    await waitFor(() => expect(disk.get('notes.txt')).toBe('first line, second'));
    expect(tabNames()).toEqual(['analysis.ipynb']);
  });

  it("saves open files before a version's restore, then shows the version's files and writes nothing back", async () => {
    const user = userEvent.setup();
    renderEditor();
    await addCell(user, 2);
    await openFromTree(user, 'notes.txt');
    await user.type(await screen.findByLabelText('notes.txt', { selector: 'textarea' }), ', second');

    await user.click(await button('Versions'));
    await user.click(await button('Restore'));
    await screen.findAllByText('Restore version 1.0.0?');
    const confirm = screen.getAllByRole('dialog').findLast((d) => d.textContent?.includes('Restore version 1.0.0?'))!;
    await user.click(within(confirm).getByRole('button', { name: 'Restore' }));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Version restored'));

    // notes.txt is not in the version: its tab closed. The notebook reopened with the version's content.
    await waitFor(() => expect(tabNames()).toEqual(['analysis.ipynb']));
    const cell = await screen.findByLabelText('Code cell 1', { selector: 'textarea' });
    expect((cell as HTMLTextAreaElement).value).toBe('print("version one")');
    expect(screen.queryByLabelText('Code cell 2', { selector: 'textarea' })).toBeNull();

    const restore = server.requests.findIndex((r) => r.url.startsWith(paths.restore));
    const saves = server.to(paths.fileContent).filter((r) => r.method === 'PUT');
    expect(saves.map((r) => body(r).path).sort()).toEqual(['analysis.ipynb', 'notes.txt']);
    expect(saves.every((r) => server.requests.indexOf(r) < restore)).toBe(true);
    expect([...disk.keys()]).toEqual(['analysis.ipynb']);
    expect(disk.get('analysis.ipynb')).toBe(notebookOf('print("version one")'));
  });
});

describe('project editor: a project that cannot be opened', () => {
  beforeEach(async () => {
    const server = await startFakeApi();
    signInAs('ROLE_STUDENT');
    await loadNamespaces(['project', 'errors']);
    // Missing and not shared are answered alike, so nobody learns which projects exist.
    server.on(`GET ${paths.base}`, () => fail('1004', 'The project does not exist', 404));
    server.on(`GET ${paths.runtime}`, () => fail('1004', 'The project does not exist', 404));
    server.on(`GET ${paths.files}`, () => fail('1004', 'The project does not exist', 404));
  });
  afterEach(stopFakeApi);

  it("says so, in the server's words, and leads back to the user's own projects", async () => {
    renderEditor();
    expect(await screen.findByRole('heading', { level: 1, name: 'This project cannot be opened' })).toBeTruthy();
    expect(screen.getByText('The project does not exist')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'My projects' }).getAttribute('href')).toBe('/pjedu/my/projects');
    expect(screen.queryByText('Open a file from the list on the left.')).toBeNull();
  });
});
