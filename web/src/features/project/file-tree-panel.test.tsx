import { PROJECT_LIMITS, projectApi } from '@aiedu/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type * as feedback from '../../app/feedback';
import { loadNamespaces } from '../../app/i18n';
import { ok } from '../../test/fake-api';
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
