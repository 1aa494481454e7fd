import { API, COURSE_API, projectApi, ROLES, type TEditableCourse } from '@aiedu/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fail, ok, type FakeServer } from '../../test/fake-api';
import { signInAs, startFakeApi, stopFakeApi } from '../../test/page-kit';
import { courseSummary, enrolledCourse } from '../../test/course-fixtures';
import { aProject, aRuntime } from '../../test/project-fixtures';
import { renderApp } from '../../test/render-app';

const B = COURSE_API.base;
const COPY_ID = '0192f7a0-0000-7000-8000-0000000000c1';
const TEMPLATE_ID = '0192f7a0-0000-7000-8000-0000000000t1';
const SUMMARY = courseSummary({ name: 'Machine learning', publicScope: 'customer', learners: 2 });
const DETAIL = enrolledCourse(SUMMARY);
const section = (experiment: { linked: boolean; projectId: string | null }) => ({
  id: 's-1',
  title: 'Iris',
  content: 'Train a classifier.',
  aiLinks: [],
  resources: [],
  tasks: [
    { id: 't-1', title: 'Build it', questions: [{ id: 'x', type: 'experiment', prompt: 'Train it', experiment }] },
  ],
  nextSectionId: null,
  completed: false,
});
const PROJECT = aProject({
  id: COPY_ID,
  ownerId: 'u-kid',
  name: 'Iris template',
  forkedFrom: TEMPLATE_ID,
  canEdit: false,
  isOwner: false,
  reviewing: true,
});
const NOTEBOOK = {
  nbformat: 4,
  nbformat_minor: 5,
  metadata: {},
  cells: [
    {
      id: 'c1',
      cell_type: 'code',
      source: 'print(41 + 1)',
      metadata: {},
      execution_count: 1,
      outputs: [{ output_type: 'stream', name: 'stdout', text: '42\n' }],
    },
  ],
};

let server: FakeServer;

beforeEach(async () => {
  server = await startFakeApi();
  server.on(`GET ${B}/c-1`, () => ok(DETAIL));
  server.on(`POST ${B}/sections/s-1/record`, () => ok(DETAIL));
});

afterEach(stopFakeApi);

describe('a learner starts an experiment', () => {
  it('gets a copy on "Start experiment" and lands in the project editor', async () => {
    signInAs(ROLES.student);
    server.on(`GET ${B}/sections/s-1/learn`, () => ok(section({ linked: true, projectId: null })));
    server.on(`POST ${B}/tasks/t-1/experiment/start`, () => ok({ projectId: COPY_ID, created: true }));
    const user = userEvent.setup();
    const { router } = renderApp('/pjedu/courses/c-1?section=s-1');
    expect(await screen.findByText('You get your own copy of the project to work in.')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: /Start experiment/ }));
    await waitFor(() => expect(server.to(`${B}/tasks/t-1/experiment/start`)).toHaveLength(1));
    expect(JSON.parse(server.to(`${B}/tasks/t-1/experiment/start`)[0]!.body!)).toEqual({ questionId: 'x' });
    const editor = `/pjedu/projects/${COPY_ID}/editor`;
    await waitFor(() =>
      expect([router.state.navigation.location?.pathname, router.state.location.pathname]).toContain(editor),
    );
  });

  it('offers to open the copy it already has, and says when the server finds the experiment removed', async () => {
    signInAs(ROLES.student);
    server.on(`GET ${B}/sections/s-1/learn`, () => ok(section({ linked: true, projectId: COPY_ID })));
    server.on(`POST ${B}/tasks/t-1/experiment/start`, () =>
      fail('4003', 'This experiment has been removed from the course', 410),
    );
    const user = userEvent.setup();
    renderApp('/pjedu/courses/c-1?section=s-1');
    await user.click(await screen.findByRole('button', { name: /Open my experiment/ }));
    expect(await screen.findByText('This experiment has been removed from the course')).toBeTruthy();
  });

  it('shows "experiment removed" instead of a button when the task has no template any more', async () => {
    signInAs(ROLES.student);
    server.on(`GET ${B}/sections/s-1/learn`, () => ok(section({ linked: false, projectId: null })));
    renderApp('/pjedu/courses/c-1?section=s-1');
    expect(await screen.findByText('This experiment has been removed from the course')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /experiment/ })).toBeNull();
  });
});

describe('the teacher', () => {
  const editable = (status: 'draft' | 'published'): TEditableCourse =>
    ({
      ...SUMMARY,
      status,
      versionNumber: status === 'published' ? 1 : null,
      code: 'ABCDEF',
      isOwner: true,
      editingVersionId: 'v-1',
      collaborators: [],
      chapters: [
        {
          id: 'ch-1',
          title: 'Chapter 1',
          sections: [{ id: 's-1', title: 'Iris', content: '', aiLinks: [], tasks: [], resources: [] }],
        },
      ],
    }) as TEditableCourse;

  beforeEach(() => {
    signInAs(ROLES.teacher);
    server.on(`GET ${COURSE_API.filters}`, () => ok({ directions: [], stages: [], difficulties: [], tags: [] }));
  });

  it('links an experiment to one of their projects, found by name', async () => {
    server.on(`GET ${B}/c-1/edit`, () => ok(editable('draft')));
    server.on(`GET ${API.myProjects}`, () =>
      ok({ list: [{ ...PROJECT, id: TEMPLATE_ID, canEdit: true, isOwner: true, reviewing: false }], total: 1 }),
    );
    server.on(`POST ${B}/sections/s-1/tasks`, () => ok(editable('draft')));
    const user = userEvent.setup();
    renderApp('/pjedu/courses/c-1/edit?section=s-1');
    const builder = await screen.findByRole('region', { name: 'Add a quiz' });
    await user.click(within(builder).getByRole('combobox', { name: 'Type' }));
    await user.click(await screen.findByTitle('Experiment'));
    await user.type(within(builder).getByRole('textbox', { name: 'Question' }), 'Train it');
    await user.type(within(builder).getByRole('combobox', { name: 'Template project' }), 'iris');
    await waitFor(() => expect(server.to(API.myProjects).at(-1)?.url).toContain('keyword=iris'));
    await user.click(await screen.findByTitle('Iris template'));
    await user.click(within(builder).getByRole('button', { name: 'Save task' }));
    await waitFor(() => expect(server.to(`${B}/sections/s-1/tasks`)).toHaveLength(1));
    expect(JSON.parse(server.to(`${B}/sections/s-1/tasks`)[0]!.body!).questions).toEqual([
      { id: 'q1', type: 'experiment', prompt: 'Train it', projectId: TEMPLATE_ID },
    ]);
  }, 30_000);

  it('opens each learner’s copy from the results', async () => {
    server.on(`GET ${B}/c-1/edit`, () => ok(editable('published')));
    server.on(`GET ${B}/c-1/results`, () => ok([]));
    server.on(`GET ${B}/c-1/experiment-copies`, () =>
      ok([
        {
          id: 'e-1',
          taskId: 't-1',
          taskTitle: 'Build it',
          questionId: 'x',
          userId: 'u-kid',
          learnerName: 'Ada',
          projectId: COPY_ID,
          createdAt: '2026-11-23T10:00:00+08:00',
        },
      ]),
    );
    renderApp('/pjedu/courses/c-1/edit');
    const copies = await screen.findByRole('region', { name: 'Experiment copies' });
    expect(within(copies).getByText('Build it')).toBeTruthy();
    const open = within(copies).getByRole('link', { name: 'Open read-only: Ada' });
    expect(open.getAttribute('href')).toBe(`/pjedu/projects/${COPY_ID}/editor`);
  });

  it('sees the learner’s copy read-only: the files and outputs, nothing to change or run', async () => {
    const api = projectApi(COPY_ID);
    server.on(`GET ${api.base}`, () => ok(PROJECT));
    server.on(`GET ${api.files}`, () =>
      ok([{ name: 'main.ipynb', path: 'main.ipynb', kind: 'file', size: 300, modifiedAt: PROJECT.updatedAt }]),
    );
    server.on(`GET ${api.fileContent}`, () => ok({ path: 'main.ipynb', content: JSON.stringify(NOTEBOOK), size: 300 }));
    // The learner's runtime may be running: the reviewing teacher still gets no way to use it.
    server.on(`GET ${api.runtime}`, () =>
      ok(
        aRuntime({
          state: 'RUNNING',
          startedAt: PROJECT.updatedAt,
          startedBy: 'u-kid',
          stopReason: null,
          proxyPath: api.proxy,
        }),
      ),
    );
    server.on(`GET ${API.runtimeAvailability}`, () =>
      ok({ state: 'ready', command: '', progress: '', limits: 'none' }),
    );
    renderApp(`/pjedu/projects/${COPY_ID}/editor`);
    expect(
      await screen.findByText("You are looking at Ada's copy for your course. You cannot change it."),
    ).toBeTruthy();
    expect(await screen.findByText('42', { exact: false })).toBeTruthy();
    for (const name of [/Start/, /Stop/, /Run all/, /^Run$/, /Terminal/, /Add code/, /New file/, /Upload/]) {
      expect(screen.queryByRole('button', { name }), String(name)).toBeNull();
    }
    expect(server.requests.filter((r) => r.method !== 'GET')).toEqual([]);
    expect(server.requests.filter((r) => r.url.startsWith(api.proxy))).toEqual([]);
  }, 30_000);
});
