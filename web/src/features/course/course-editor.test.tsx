import { COURSE_API, ROLES, type TEditableCourse, type TOutlineRequest } from '@aiedu/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { changeLanguage } from '../../app/i18n';
import { ok, type FakeServer } from '../../test/fake-api';
import { axeViolations, lastChange, signInAs, startFakeApi, stopFakeApi } from '../../test/page-kit';
import { courseSummary } from '../../test/course-fixtures';
import { renderApp } from '../../test/render-app';

const B = COURSE_API.base;
const section = (id: string, title: string, extra: object = {}) => ({
  id,
  title,
  content: '',
  aiLinks: [],
  tasks: [],
  resources: [],
  ...extra,
});
const QUIZ = {
  id: 't-1',
  title: 'Quiz',
  questions: [
    { id: 'q1', type: 'single' as const, prompt: '1 + 1 = ?', options: ['1', '2'], answer: [1] },
    { id: 'q7', type: 'short' as const, prompt: 'Why?' },
  ],
};
const COURSE: TEditableCourse = {
  ...courseSummary({ name: 'Robots one', status: 'draft', versionNumber: null, publishedAt: null }),
  code: 'ABCDEF',
  isOwner: true,
  editingVersionId: 'v-1',
  collaborators: [{ id: 'u-2', username: 'editor', name: 'Li Na' }],
  chapters: [
    {
      id: 'ch-1',
      title: 'Basics',
      sections: [
        section('s-1', 'Hello', { tasks: [QUIZ, { ...QUIZ, id: 't-2', title: 'Second quiz' }] }),
        section('s-2', 'Motors'),
      ],
    },
    { id: 'ch-2', title: 'Sensors', sections: [section('s-3', 'Light')] },
  ],
};

/** The course as the server answers an outline: its chapters and sections in the order sent. */
function ordered(course: TEditableCourse, body: TOutlineRequest): TEditableCourse {
  const sections = new Map(course.chapters.flatMap((c) => c.sections.map((s) => [s.id, s])));
  return {
    ...course,
    chapters: body.chapters.map((c) => ({
      ...course.chapters.find((x) => x.id === c.id)!,
      sections: c.sections.map((id) => sections.get(id)!),
    })),
  };
}

let server: FakeServer;
let course: TEditableCourse;

beforeEach(async () => {
  server = await startFakeApi();
  signInAs(ROLES.teacher);
  course = COURSE;
  server.on(`GET ${COURSE_API.filters}`, () => ok({ directions: [], stages: [], difficulties: [], tags: [] }));
  server.on(`GET ${B}/c-1/edit`, () => ok(course));
  server.on(`PUT ${B}/c-1/outline`, (r) => {
    course = ordered(course, JSON.parse(r.body!) as TOutlineRequest);
    return ok(course);
  });
  server.on(`PUT ${B}/chapters/ch-1`, (r) => {
    const { title } = JSON.parse(r.body!) as { title: string };
    course = { ...course, chapters: course.chapters.map((c) => (c.id === 'ch-1' ? { ...c, title } : c)) };
    return ok(course);
  });
  server.on(`PUT ${B}/tasks/t-1`, () => ok(course));
  server.on(`PUT ${B}/sections/s-1/tasks/order`, () => ok(course));
  server.on(`PUT ${B}/sections/s-1`, () => ok(course));
  server.on(`PUT ${B}/c-1/collaborators`, (r) => {
    const { usernames } = JSON.parse(r.body!) as { usernames: string[] };
    const people = [...COURSE.collaborators, { id: 'u-3', username: 'wang', name: 'Wang Fang' }];
    course = { ...course, collaborators: people.filter((p) => usernames.includes(p.username)) };
    return ok(course);
  });
  server.on(`GET ${B}/c-1/collaborators/candidates`, () => ok([{ id: 'u-3', username: 'wang', name: 'Wang Fang' }]));
  server.on(`GET ${B}/c-1/versions`, () =>
    ok([
      {
        id: 'v-3',
        number: null,
        status: 'draft',
        name: 'Robots one',
        current: false,
        editing: true,
        learners: 0,
        createdAt: '2026-11-20T08:00:00Z',
        publishedAt: null,
      },
      {
        id: 'v-2',
        number: 2,
        status: 'published',
        name: 'Robots',
        current: true,
        editing: false,
        learners: 5,
        createdAt: '2026-11-10T08:00:00Z',
        publishedAt: '2026-11-11T08:00:00Z',
      },
      {
        id: 'v-x',
        number: null,
        status: 'abandoned',
        name: 'Robots?',
        current: false,
        editing: false,
        learners: 0,
        createdAt: '2026-11-05T08:00:00Z',
        publishedAt: null,
      },
    ]),
  );
});

afterEach(stopFakeApi);

const outlineSent = () => lastChange(server, `${B}/c-1/outline`) as TOutlineRequest;
const outlineNav = () => screen.getByRole('navigation', { name: 'Chapters and sections' });

describe('shaping a course in the editor', () => {
  it('moves a chapter with the up and down buttons, in one call, and names every handle and button', async () => {
    const user = userEvent.setup();
    renderApp('/pjedu/courses/c-1/edit');
    await screen.findByRole('heading', { level: 3, name: 'Sensors' });
    expect(screen.getByRole('button', { name: 'Move "Basics" up' })).toHaveProperty('disabled', true);
    expect(screen.getByRole('button', { name: 'Move "Hello" up' })).toHaveProperty('disabled', true);
    expect(screen.getByRole('button', { name: 'Move "Light" down' })).toHaveProperty('disabled', true);
    // Drag handles carry their own name and the instructions for the keyboard.
    const handle = screen.getByRole('button', { name: 'Drag to move "Motors"' });
    expect(handle.getAttribute('aria-roledescription')).toBe('movable item');
    const instructions = document.getElementById(handle.getAttribute('aria-describedby')!);
    expect(instructions?.textContent).toMatch(/press Space or Enter on its handle/);

    await user.click(screen.getByRole('button', { name: 'Move "Sensors" up' }));
    await waitFor(() => expect(server.to(`${B}/c-1/outline`)).toHaveLength(1));
    expect(outlineSent()).toEqual({
      chapters: [
        { id: 'ch-2', sections: ['s-3'] },
        { id: 'ch-1', sections: ['s-1', 's-2'] },
      ],
    });
    await waitFor(() =>
      expect(
        within(outlineNav())
          .getAllByRole('heading', { level: 3 })
          .map((h) => h.textContent),
      ).toEqual(['Sensors', 'Basics']),
    );
  });

  it('moves a section from the end of its chapter into the next, leaving a place to drop into', async () => {
    const user = userEvent.setup();
    renderApp('/pjedu/courses/c-1/edit');
    await user.click(await screen.findByRole('button', { name: 'Move "Motors" down' }));
    await waitFor(() => expect(server.to(`${B}/c-1/outline`)).toHaveLength(1));
    expect(outlineSent()).toEqual({
      chapters: [
        { id: 'ch-1', sections: ['s-1'] },
        { id: 'ch-2', sections: ['s-2', 's-3'] },
      ],
    });
    await user.click(await screen.findByRole('button', { name: 'Move "Hello" down' }));
    await waitFor(() => expect(server.to(`${B}/c-1/outline`)).toHaveLength(2));
    expect(outlineSent()).toEqual({
      chapters: [
        { id: 'ch-1', sections: [] },
        { id: 'ch-2', sections: ['s-1', 's-2', 's-3'] },
      ],
    });
    expect(await screen.findByText('Drop a section here')).toBeTruthy();
  });

  it('renames a chapter in place', async () => {
    const user = userEvent.setup();
    renderApp('/pjedu/courses/c-1/edit');
    await user.click(await screen.findByRole('button', { name: 'Rename chapter "Basics"' }));
    const field = screen.getByRole('textbox', { name: 'Rename chapter "Basics"' });
    await user.clear(field);
    await user.type(field, 'Getting started{Enter}');
    await waitFor(() => expect(lastChange(server, `${B}/chapters/ch-1`)).toEqual({ title: 'Getting started' }));
    expect(await screen.findByRole('heading', { level: 3, name: 'Getting started' })).toBeTruthy();
  });

  it('opens a saved quiz with its questions and saves the change, keeping question ids', async () => {
    const user = userEvent.setup();
    renderApp('/pjedu/courses/c-1/edit?section=s-1');
    await user.click(await screen.findByRole('button', { name: 'Edit "Quiz"' }));
    const builder = screen.getByRole('region', { name: 'Edit "Quiz"' });
    const prompts = within(builder).getAllByRole('textbox', { name: 'Question' }) as HTMLInputElement[];
    expect(prompts.map((p) => p.value)).toEqual(['1 + 1 = ?', 'Why?']);
    expect(
      (within(builder).getByRole('textbox', { name: 'Options (one per line)' }) as HTMLTextAreaElement).value,
    ).toBe('1\n2');
    await user.clear(prompts[0]!);
    await user.type(prompts[0]!, '2 + 2 = ?');
    await user.click(within(builder).getByRole('button', { name: /Add question/ }));
    const added = within(builder).getAllByRole('textbox', { name: 'Question' }).at(-1)!;
    await user.type(added, 'What next?');
    await user.click(within(builder).getByRole('button', { name: 'Remove question 2' }));
    await user.click(within(builder).getByRole('button', { name: 'Save task' }));
    await waitFor(() => expect(server.to(`${B}/tasks/t-1`)).toHaveLength(1));
    expect(lastChange(server, `${B}/tasks/t-1`)).toEqual({
      title: 'Quiz',
      questions: [
        { id: 'q1', type: 'single', prompt: '2 + 2 = ?', options: ['1', '2'], answer: [1] },
        { id: 'q2', type: 'single', prompt: 'What next?', options: [], answer: [] },
      ],
    });
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Edit "Quiz"' })).toBeNull());
  });

  it('puts a section’s tasks in order with the buttons', async () => {
    const user = userEvent.setup();
    renderApp('/pjedu/courses/c-1/edit?section=s-1');
    await user.click(await screen.findByRole('button', { name: 'Move "Second quiz" up' }));
    await waitFor(() => expect(lastChange(server, `${B}/sections/s-1/tasks/order`)).toEqual({ ids: ['t-2', 't-1'] }));
  });

  it('saves AI experiences with the section, only with a name and an http(s) link each', async () => {
    const user = userEvent.setup();
    renderApp('/pjedu/courses/c-1/edit?section=s-1');
    const article = await screen.findByRole('article', { name: 'Hello' });
    await user.click(within(article).getByRole('button', { name: /Add an AI experience/ }));
    await user.type(within(article).getByRole('textbox', { name: 'AI experience 1: name' }), 'Chat assistant');
    const url = within(article).getByRole('textbox', { name: 'AI experience 1: link' });
    await user.type(url, 'javascript:alert(1)');
    expect(within(article).getByRole('alert').textContent).toMatch(/http:\/\/ or https:\/\//);
    const save = within(article).getByRole('button', { name: 'Save' });
    expect(save).toHaveProperty('disabled', true);
    await user.clear(url);
    await user.type(url, 'https://chat.example.com');
    await user.click(save);
    await waitFor(() => expect(server.to(`${B}/sections/s-1`)).toHaveLength(1));
    expect(lastChange(server, `${B}/sections/s-1`)).toEqual({
      title: 'Hello',
      content: '',
      aiLinks: [{ title: 'Chat assistant', url: 'https://chat.example.com' }],
    });
  });

  it('adds and removes collaborators in a drawer, by part of a name', async () => {
    const user = userEvent.setup();
    renderApp('/pjedu/courses/c-1/edit');
    await user.click(await screen.findByRole('button', { name: /Collaborators \(1\)/ }));
    const drawer = await screen.findByRole('dialog', { name: 'Collaborators' });
    expect(within(drawer).getByText('Li Na (editor)')).toBeTruthy();
    expect(await axeViolations()).toEqual([]);
    await user.type(within(drawer).getByRole('combobox', { name: 'Add a teacher' }), 'fang');
    await waitFor(() =>
      expect(server.requests.some((r) => r.url.includes('/collaborators/candidates?keyword=fang'))).toBe(true),
    );
    await user.click(await screen.findByTitle('Wang Fang (wang)'));
    await waitFor(() =>
      expect(lastChange(server, `${B}/c-1/collaborators`)).toEqual({ usernames: ['editor', 'wang'] }),
    );
    await user.click(await within(drawer).findByRole('button', { name: 'Remove Li Na (editor)' }));
    await waitFor(() => expect(lastChange(server, `${B}/c-1/collaborators`)).toEqual({ usernames: ['wang'] }));
    expect(await screen.findByRole('button', { name: /Collaborators \(1\)/ })).toBeTruthy();
  });

  it('shows a collaborator the list only', async () => {
    course = { ...COURSE, isOwner: false };
    const user = userEvent.setup();
    renderApp('/pjedu/courses/c-1/edit');
    await user.click(await screen.findByRole('button', { name: /Collaborators \(1\)/ }));
    const drawer = await screen.findByRole('dialog', { name: 'Collaborators' });
    expect(within(drawer).getByText("Only the course's owner chooses collaborators.")).toBeTruthy();
    expect(within(drawer).queryByRole('combobox')).toBeNull();
    expect(within(drawer).queryByRole('button', { name: /Remove/ })).toBeNull();
    expect(server.requests.some((r) => r.url.includes('/candidates'))).toBe(false);
  });

  it('lists the versions: the one being written, the current one and an abandoned revision', async () => {
    const user = userEvent.setup();
    renderApp('/pjedu/courses/c-1/edit');
    await user.click(await screen.findByRole('button', { name: /Versions/ }));
    const current = (await screen.findByText('Current')).closest('tr')!;
    expect(within(current).getByText('Version 2')).toBeTruthy();
    expect(within(current).getByText('5')).toBeTruthy();
    expect(screen.getByText('Being written').closest('tr')!.textContent).toContain('Unnumbered');
    expect(screen.getByText('Abandoned revision').closest('tr')!.textContent).toContain('Robots?');
  });

  const LANGUAGES = [
    ['en', { versions: 'Versions', open: /Collaborators \(1\)/, drawer: 'Collaborators' }],
    ['zh_CHS', { versions: '版本', open: /协作者（1）/, drawer: '协作者' }],
  ] as const;

  it.each(LANGUAGES)('passes axe in %s with the outline, a section and its tasks open', async (language) => {
    await changeLanguage(language, { remember: false });
    renderApp('/pjedu/courses/c-1/edit?section=s-1');
    await screen.findByRole('article');
    await screen.findAllByRole('button', { name: /Quiz|测验|Second/ });
    expect(await axeViolations()).toEqual([]);
  });

  it.each(LANGUAGES)('passes axe in %s with the versions open', async (language, names) => {
    await changeLanguage(language, { remember: false });
    const user = userEvent.setup();
    renderApp('/pjedu/courses/c-1/edit');
    await user.click(await screen.findByRole('button', { name: names.versions }));
    await screen.findByText('Robots?');
    expect(await axeViolations()).toEqual([]);
  });

  it.each(LANGUAGES)('passes axe in %s with the collaborators drawer open', async (language, names) => {
    await changeLanguage(language, { remember: false });
    const user = userEvent.setup();
    renderApp('/pjedu/courses/c-1/edit');
    await user.click(await screen.findByRole('button', { name: names.open }));
    await screen.findByRole('dialog', { name: names.drawer });
    expect(await axeViolations()).toEqual([]);
  });
});
