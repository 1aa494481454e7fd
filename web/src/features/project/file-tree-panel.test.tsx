import { PROJECT_LIMITS, projectApi } from '@aiedu/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type * as feedback from '../../app/feedback';
import { loadNamespaces } from '../../app/i18n';
import { ok, type FakeServer } from '../../test/fake-api';
import { signInAs, startFakeApi, stopFakeApi } from '../../test/page-kit';
import { FileTreePanel } from './file-tree-panel';
import type * as uploads from './upload';
import { UploadError, uploadFile } from './upload';

const toast = vi.hoisted(() => ({ error: vi.fn(), warning: vi.fn(), success: vi.fn() }));
vi.mock('../../app/feedback', async (original) => ({ ...(await original<typeof feedback>()), toast }));
vi.mock('./upload', async (original) => ({ ...(await original<typeof uploads>()), uploadFile: vi.fn() }));
vi.mock('./editor-context', () => ({ useEditor: () => ({ projectId: 'p1', canEdit: true }) }));

/** A file of `size` bytes, without holding them. */
function fileOf(name: string, size: number) {
  const file = new File(['x'], name);
  Object.defineProperty(file, 'size', { value: size });
  return file;
}

async function upload(file: File) {
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <FileTreePanel onOpen={() => undefined} />
    </QueryClientProvider>,
  );
  fireEvent.change(await screen.findByTestId('upload-input'), { target: { files: [file] } });
}

describe('file tree: uploads', () => {
  beforeEach(async () => {
    vi.clearAllMocks();
    const server = await startFakeApi();
    signInAs('ROLE_STUDENT');
    await loadNamespaces(['project', 'errors']);
    server.on(`GET ${projectApi('p1').files}`, () => ok([]));
    server.on(`GET ${projectApi('p1').storage}`, () => ok({ usedBytes: 0, quotaBytes: 2 ** 31 }));
  });
  afterEach(stopFakeApi);

  it('says the network failed when an upload gets no answer', async () => {
    vi.mocked(uploadFile).mockRejectedValue(new UploadError('network'));
    await upload(fileOf('data.csv', 2048));
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith('Network error'));
    await waitFor(() => expect(screen.queryByRole('status')).toBeNull());
  });

  it('says the upload failed when something other than the server answers', async () => {
    vi.mocked(uploadFile).mockRejectedValue(new UploadError('failed'));
    await upload(fileOf('data.csv', 2048));
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith('Upload failed'));
  });

  it('refuses a file over the upload limit before sending it, as the server would', async () => {
    await upload(fileOf('video.mp4', PROJECT_LIMITS.uploadBytes + 1));
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith('File too large'));
    expect(uploadFile).not.toHaveBeenCalled();
  });

  it('sends a file of exactly the upload limit', async () => {
    vi.mocked(uploadFile).mockResolvedValue({ errorCode: '1000', errorMsg: '', data: { path: 'big.bin' } });
    await upload(fileOf('big.bin', PROJECT_LIMITS.uploadBytes));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Uploaded'));
    expect(toast.error).not.toHaveBeenCalled();
  });
});

describe('file tree: copies and storage', () => {
  let server: FakeServer;
  const MB = 2 ** 20;
  let used = 120 * MB;
  const tree = (...names: string[]) =>
    names.map((name) => ({
      name,
      path: name,
      kind: name.includes('.') ? 'file' : 'folder',
      size: 10,
      modifiedAt: '2026-11-24T08:00:00.000Z',
      ...(name.includes('.') ? {} : { children: [] }),
    }));
  let names = ['lessons', 'chart.py'];

  beforeEach(async () => {
    vi.clearAllMocks();
    names = ['lessons', 'chart.py'];
    used = 120 * MB;
    server = await startFakeApi();
    signInAs('ROLE_STUDENT');
    await loadNamespaces(['project', 'errors']);
    server.on(`GET ${projectApi('p1').files}`, () => ok(tree(...names)));
    server.on(`GET ${projectApi('p1').storage}`, () => ok({ usedBytes: used, quotaBytes: 2048 * MB }));
    server.on(`POST ${projectApi('p1').fileCopy}`, (request) => {
      const { path, toFolder } = JSON.parse(request.body!) as { path: string; toFolder?: string };
      const copy = toFolder === undefined ? 'chart_copy.py' : `${toFolder}/${path}`;
      if (toFolder === undefined) names = [...names, copy];
      used += 10;
      return ok({ path: copy });
    });
  });
  afterEach(stopFakeApi);

  const renderTree = () =>
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <FileTreePanel onOpen={() => undefined} />
      </QueryClientProvider>,
    );

  it('duplicates a file beside itself and copies one into a folder, then shows the storage taken again', async () => {
    const user = userEvent.setup();
    renderTree();
    expect(await screen.findByText('120 MB of 2 GB used')).toBeTruthy();
    await user.click(await screen.findByText('chart.py'));
    const actions = screen.getByRole('toolbar', { name: 'Actions for chart.py' });
    await user.click(within(actions).getByRole('button', { name: /Duplicate/ }));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Copied as chart_copy.py'));
    expect(await screen.findByText('chart_copy.py')).toBeTruthy();
    expect(JSON.parse(server.to(projectApi('p1').fileCopy)[0]!.body!)).toEqual({ path: 'chart.py' });

    await user.click(screen.getByText('chart.py'));
    await user.click(
      within(screen.getByRole('toolbar', { name: 'Actions for chart.py' })).getByRole('button', {
        name: /Copy to folder/,
      }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Copy to folder' });
    await user.click(within(dialog).getByRole('combobox'));
    // The folder's option in the list (the tree shows a node of that title too).
    const options = await screen.findAllByTitle('lessons');
    await user.click(options.find((option) => option.closest('.ant-select-item-option'))!);
    await user.click(within(dialog).getByRole('button', { name: 'OK' }));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Copied as chart.py'));
    expect(JSON.parse(server.to(projectApi('p1').fileCopy)[1]!.body!)).toEqual({
      path: 'chart.py',
      toFolder: 'lessons',
    });
    // The storage under the tree is read again after each copy.
    await waitFor(() => expect(server.to(projectApi('p1').storage).length).toBeGreaterThanOrEqual(3));
  });

  it('says when the storage is full', async () => {
    used = 2048 * MB;
    renderTree();
    expect(await screen.findByRole('alert')).toHaveProperty(
      'textContent',
      'Your storage is full: delete files or versions before adding more.',
    );
  });
});
