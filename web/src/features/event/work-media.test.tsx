import { API, EVENT_API, ROLES } from '@aiedu/contracts';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { fail, ok, type FakeServer } from '../../test/fake-api';
import { lastChange, signInAs, startFakeApi, stopFakeApi } from '../../test/page-kit';
import { renderApp } from '../../test/render-app';
import { AS_TEAM, EVENT, registration, serveEvent, WORK } from './review-fixtures';

/** The tus upload the page starts: its options, for the test to drive. */
const tus = vi.hoisted(() => ({
  started: 0,
  options: {} as Record<string, unknown>,
}));

vi.mock('tus-js-client', () => ({
  Upload: class {
    constructor(
      _file: File,
      readonly options: Record<string, unknown>,
    ) {
      tus.options = options;
    }
    findPreviousUploads = () => Promise.resolve([]);
    resumeFromPreviousUpload() {}
    start() {
      tus.started += 1;
    }
    abort() {
      return Promise.resolve();
    }
  },
}));

let server: FakeServer;
const path = `/pjedu/events/${EVENT.id}/my-works`;

beforeAll(() => import('./event-pages'), 60_000);
beforeEach(async () => {
  tus.started = 0;
  server = await startFakeApi();
  serveEvent(server, AS_TEAM);
  server.on(`GET ${EVENT_API.registration}`, () => ok(registration('design')));
  server.on(`GET ${EVENT_API.works}`, () => ok([WORK]));
  server.on(`GET ${API.myProjects}`, () => ok({ list: [], total: 0, page: 1, size: 100 }));
  signInAs(ROLES.student);
});
afterEach(stopFakeApi);

async function openDraft(user: ReturnType<typeof userEvent.setup>) {
  await user.click(await screen.findByRole('button', { name: /Edit Sorting robot/ }));
  return screen.findByRole('dialog', { name: 'Edit “Sorting robot”' });
}

describe('a draft’s cover and video', { timeout: 90_000 }, () => {
  it('uploads a JPG or PNG cover and saves its key with the draft; other images are refused', async () => {
    server.on(`POST ${EVENT_API.uploadWorkCover}`, () => ok({ key: 'events/covers/c1.png', url: '/files/c1.png' }));
    server.on(`PUT ${EVENT_API.works}`, () => ok(WORK));
    const user = userEvent.setup({ applyAccept: false });
    renderApp(path);
    const drawer = await openDraft(user);
    const coverInput = () =>
      within(drawer).getByRole('region', { name: 'Cover image' }).querySelector('input[type=file]') as HTMLInputElement;
    await user.upload(coverInput(), new File(['GIF89a'], 'c.gif', { type: 'image/gif' }));
    expect(await within(drawer).findByText('The cover must be a JPG or PNG image.')).toBeTruthy();
    expect(server.to(EVENT_API.uploadWorkCover)).toHaveLength(0);
    await user.upload(coverInput(), new File(['png'], 'c.png', { type: 'image/png' }));
    expect(((await within(drawer).findByAltText('Cover of the work')) as HTMLImageElement).src).toContain(
      '/files/c1.png',
    );
    expect(within(drawer).getByRole('button', { name: /Change the cover/ })).toBeTruthy();
    await user.click(within(drawer).getByRole('button', { name: /Save draft/ }));
    await waitFor(() =>
      expect(lastChange(server, EVENT_API.works)).toMatchObject({ id: WORK.id, coverKey: 'events/covers/c1.png' }),
    );
  });

  it('shows why the server refused a cover, and keeps the draft without one', async () => {
    server.on(`POST ${EVENT_API.uploadWorkCover}`, () => fail('1001', 'The image could not be read.', 400));
    const user = userEvent.setup({ applyAccept: false });
    renderApp(path);
    const drawer = await openDraft(user);
    const input = within(drawer)
      .getByRole('region', { name: 'Cover image' })
      .querySelector('input[type=file]') as HTMLInputElement;
    await user.upload(input, new File(['not a png'], 'c.png', { type: 'image/png' }));
    expect(await within(drawer).findByText('The image could not be read.')).toBeTruthy();
    expect(within(drawer).queryByAltText('Cover of the work')).toBeNull();
    expect(within(drawer).getByRole('button', { name: /Upload a cover/ })).toBeTruthy();
  });

  it('uploads an MP4 over tus with the work and the event video kind, showing progress', async () => {
    const user = userEvent.setup({ applyAccept: false });
    renderApp(path);
    const drawer = await openDraft(user);
    await user.upload(within(drawer).getByLabelText('Video', { selector: 'input' }), new File(['x'], 'notes.mov'));
    expect(await within(drawer).findByText('The video must be an MP4 file.')).toBeTruthy();
    expect(tus.started).toBe(0);

    await user.upload(
      within(drawer).getByLabelText('Video', { selector: 'input' }),
      new File(['mp4'], 'demo.mp4', { type: 'video/mp4' }),
    );
    await waitFor(() => expect(tus.started).toBe(1));
    expect(tus.options.endpoint).toBe(EVENT_API.workVideoUploads);
    expect(tus.options.metadata).toEqual({ workId: WORK.id, kind: 'eventVideo', filename: 'demo.mp4' });
    const onProgress = tus.options.onProgress as (sent: number, total: number) => void;
    act(() => onProgress(50, 100));
    expect(await within(drawer).findByText('Uploading the video: 50 %')).toBeTruthy();
    const before = server.to(EVENT_API.works).length;
    act(() => (tus.options.onSuccess as (payload: unknown) => void)({}));
    await waitFor(() => expect(server.to(EVENT_API.works).length).toBeGreaterThan(before));
    expect(await within(drawer).findByRole('button', { name: /Play the video of Sorting robot/ })).toBeTruthy();
  });
});
