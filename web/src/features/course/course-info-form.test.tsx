import { COURSE_API, ROLES } from '@aiedu/contracts';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { saveLogin } from '../../app/session';
import { ok, type FakeServer } from '../../test/fake-api';
import { startFakeApi, stopFakeApi } from '../../test/page-kit';
import { courseSummary } from '../../test/course-fixtures';
import { renderApp } from '../../test/render-app';

const EDITABLE = {
  ...courseSummary({
    name: 'Robots one',
    description: 'First words',
    publicScope: 'customer',
    tags: ['Arms'],
    learners: 3,
    directionId: 'd-1',
    stageId: 's-1',
  }),
  code: 'ABCDEF',
  isOwner: true,
  editingVersionId: 'v-1',
  collaborators: [],
  chapters: [],
};
const PATH = `${COURSE_API.base}/c-1`;

let server: FakeServer;

beforeEach(async () => {
  saveLogin({ token: 't', refreshToken: 'r', userId: 'u-1', roles: [ROLES.teacher], custcode: 'demo2026' });
  server = await startFakeApi();
  server.on(`GET ${COURSE_API.filters}`, () => ok({ directions: [], stages: [], difficulties: [], tags: [] }));
  server.on(`GET ${PATH}/results`, () => ok([]));
  server.on(`PUT ${PATH}`, (r) => ok({ ...EDITABLE, ...(JSON.parse(r.body ?? '{}') as object) }));
});

afterEach(stopFakeApi);

async function openInfo(status: 'published' | 'modifying') {
  server.on(`GET ${PATH}/edit`, () => ok({ ...EDITABLE, status }));
  const user = userEvent.setup();
  renderApp('/pjedu/courses/c-1/edit');
  await user.click(await screen.findByRole('button', { name: /Course information/ }));
  return user;
}

const sentBody = () => JSON.parse(server.requests.find((r) => r.method === 'PUT')?.body ?? '{}') as object;

describe('course information in the editor', () => {
  it('keeps the published version’s name, description and tags read-only and sends only the course’s settings', async () => {
    const user = await openInfo('published');
    expect(await screen.findByText(/start a revision to change them/)).toBeTruthy();
    expect((screen.getByLabelText('Course name') as HTMLInputElement).disabled).toBe(true);
    expect((screen.getByLabelText('Description') as HTMLTextAreaElement).disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'Cover image' }) as HTMLButtonElement).disabled).toBe(true);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(server.requests.some((r) => r.method === 'PUT')).toBe(true));
    expect(Object.keys(sentBody()).sort()).toEqual(['difficultyId', 'directionId', 'levels', 'publicScope', 'stageId']);
  });

  it('lets a revision change the name and sends it', async () => {
    const user = await openInfo('modifying');
    const name = screen.getByLabelText('Course name') as HTMLInputElement;
    expect(name.disabled).toBe(false);
    expect(screen.queryByText(/start a revision to change them/)).toBeNull();
    await user.clear(name);
    await user.type(name, 'Robots two');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(server.requests.some((r) => r.method === 'PUT')).toBe(true));
    expect(sentBody()).toMatchObject({ name: 'Robots two', description: 'First words', tags: ['Arms'] });
  });
});
