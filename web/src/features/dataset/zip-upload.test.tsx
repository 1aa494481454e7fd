import { datasetApi } from '@aiedu/contracts';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ok, type FakeServer } from '../../test/fake-api';
import { signInAs, startFakeApi, stopFakeApi } from '../../test/page-kit';
import { renderApp } from '../../test/render-app';
import { aDataset, answerSurroundings, aVersion } from './dataset-fixtures';

/** What the fake tus upload does when started: the test sets it. */
const tus = vi.hoisted(() => ({
  started: 0,
  aborted: 0,
  metadata: {} as Record<string, string>,
  onStart: (_options: Record<string, (...args: never[]) => void>) => {},
}));

vi.mock('tus-js-client', () => ({
  Upload: class {
    constructor(
      _file: File,
      readonly options: Record<string, unknown>,
    ) {
      tus.metadata = options.metadata as Record<string, string>;
    }
    findPreviousUploads = () => Promise.resolve([]);
    resumeFromPreviousUpload() {}
    start() {
      tus.started += 1;
      tus.onStart(this.options as Record<string, (...args: never[]) => void>);
    }
    abort() {
      tus.aborted += 1;
      return Promise.resolve();
    }
  },
}));

/** A finished tus request as tus-js-client reports it. */
const response = (status: number, body: string, headers: Record<string, string> = {}) => ({
  getStatus: () => status,
  getHeader: (name: string) => headers[name],
  getBody: () => body,
  getUnderlyingObject: () => null,
});

const DATASET = aDataset();
const zip = (name = 'flowers.zip') => new File(['PK\u0003\u0004 data'], name, { type: 'application/zip' });
let server: FakeServer;

beforeEach(async () => {
  tus.started = 0;
  tus.aborted = 0;
  server = await startFakeApi();
  signInAs('ROLE_STUDENT');
  answerSurroundings(server);
  server.on(`GET ${datasetApi(DATASET.id).base}`, () => ok(DATASET));
});
afterEach(stopFakeApi);

async function openUpload() {
  renderApp(`/pjedu/datasets/${DATASET.id}/edit`);
  return screen.findByLabelText(/Choose a zip file/);
}

describe('zip upload', () => {
  it("shows the server's reason when it refuses the zip", async () => {
    const user = userEvent.setup();
    const sent: Record<string, string> = {};
    tus.onStart = ({ onBeforeRequest, onError }) => {
      (onBeforeRequest as (r: unknown) => void)({ setHeader: (name: string, value: string) => (sent[name] = value) });
      const error = Object.assign(new Error('tus: unexpected response while uploading chunk'), {
        originalResponse: response(
          400,
          JSON.stringify({
            errorCode: '3017',
            errorMsg: 'The archive is compressed suspiciously far (a zip bomb) and was refused',
            data: null,
          }),
        ),
      });
      (onError as (e: Error) => void)(error);
    };
    await user.upload(await openUpload(), zip());
    expect(tus.metadata).toEqual({ datasetId: DATASET.id, filename: 'flowers.zip' });
    expect(sent).toEqual({ 'x-authorization': 't' });
    expect(await screen.findByText('The zip was not accepted')).toBeTruthy();
    expect(screen.getByText('The archive is compressed suspiciously far (a zip bomb) and was refused')).toBeTruthy();
  });

  it('follows the new version until the server says why it failed', async () => {
    const user = userEvent.setup();
    const version = aVersion({ id: '0192f7a0-0000-7000-8000-0000000000b2', number: 2, state: 'processing' });
    let polls = 0;
    server.on(`GET ${datasetApi(DATASET.id).version(version.id)}`, () =>
      ok(
        ++polls < 2
          ? version
          : {
              ...version,
              state: 'failed',
              failure: { errorCode: '3014', errorMsg: 'The archive contains too many files' },
            },
      ),
    );
    tus.onStart = ({ onSuccess }) =>
      (onSuccess as (p: unknown) => void)({ lastResponse: response(204, '', { 'x-version-id': version.id }) });
    await user.upload(await openUpload(), zip());
    expect(await screen.findByText('Version 2: checking and unpacking the zip…')).toBeTruthy();
    expect(await screen.findByText('Version 2 could not be used', {}, { timeout: 10_000 })).toBeTruthy();
    expect(screen.getByText('The archive contains too many files')).toBeTruthy();
  }, 20_000);

  it('refuses a file that is not a zip without sending it', async () => {
    const user = userEvent.setup({ applyAccept: false });
    await user.upload(await openUpload(), new File(['a,b'], 'table.csv', { type: 'text/csv' }));
    expect(await screen.findByText('Only zip files can be uploaded: this file is not a readable zip')).toBeTruthy();
    expect(tus.started).toBe(0);
  });

  it('shows progress, and pauses and resumes the upload', async () => {
    const user = userEvent.setup();
    tus.onStart = ({ onProgress }) => (onProgress as (sent: number, total: number) => void)(512, 1024);
    await user.upload(await openUpload(), zip());
    expect(await screen.findByText(/Uploading flowers\.zip: 50%/)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: /Pause/ }));
    expect(tus.aborted).toBe(1);
    expect(await screen.findByText(/Paused: flowers\.zip at 50%/)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: /Resume/ }));
    await waitFor(() => expect(tus.started).toBe(2));
  });
});
