import { API, COURSE_API, ROLES, type TCheckResult, type TEditableCourse } from '@aiedu/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ok, type FakeServer } from '../../test/fake-api';
import { axeViolations, lastChange, signInAs, startFakeApi, stopFakeApi } from '../../test/page-kit';
import { courseSummary } from '../../test/course-fixtures';
import { renderApp } from '../../test/render-app';
import type { CodeEditorProps } from '../project/notebook/code-editor';

// The code editor is a plain text box here: what matters is the code the check sends, not how it highlights.
vi.mock('../project/notebook/code-editor', () => ({
  CodeEditor: ({ value, label, onChange }: CodeEditorProps) => (
    <textarea aria-label={label} value={value} onChange={(e) => onChange(e.target.value)} />
  ),
}));

const B = COURSE_API.base;
const TEMPLATE_ID = '0192f7a0-0000-7000-8000-0000000000a1';
const TASK = {
  id: 't-1',
  title: 'Build it',
  questions: [{ id: 'q1', type: 'experiment' as const, prompt: 'Train it', projectId: TEMPLATE_ID, check: null }],
};
const course = (tasks: (typeof TASK)[]): TEditableCourse =>
  ({
    ...courseSummary({ name: 'Machine learning', status: 'draft', versionNumber: null, publishedAt: null }),
    code: 'ABCDEF',
    isOwner: true,
    editingVersionId: 'v-1',
    collaborators: [],
    chapters: [
      {
        id: 'ch-1',
        title: 'Chapter 1',
        sections: [{ id: 's-1', title: 'Iris', content: '', aiLinks: [], tasks, resources: [] }],
      },
    ],
  }) as TEditableCourse;
const SOLUTION = JSON.stringify({ cells: [{ cell_type: 'code', source: 'model = 1', metadata: {}, outputs: [] }] });

let server: FakeServer;

beforeEach(async () => {
  server = await startFakeApi();
  signInAs(ROLES.teacher);
  server.on(`GET ${COURSE_API.filters}`, () => ok({ directions: [], stages: [], difficulties: [], tags: [] }));
  server.on(`GET ${B}/c-1/edit`, () => ok(course([TASK])));
  server.on(`GET ${API.myProjects}`, () => ok({ list: [], total: 0 }));
  server.on(`PUT ${B}/tasks/t-1`, () => ok(course([TASK])));
});

afterEach(stopFakeApi);

async function openTask(user: ReturnType<typeof userEvent.setup>) {
  renderApp('/pjedu/courses/c-1/edit?section=s-1');
  await user.click(await screen.findByRole('button', { name: 'Edit "Build it"' }));
  const builder = screen.getByRole('region', { name: 'Edit "Build it"' });
  const check = within(builder).getByRole('group', { name: 'Automatic check' });
  expect(within(check).queryByRole('textbox', { name: /Notebook to check/ })).toBeNull();
  await user.click(within(check).getByRole('switch', { name: "Check learners' notebooks automatically" }));
  return { builder, check };
}

async function writeTest(
  user: ReturnType<typeof userEvent.setup>,
  test: HTMLElement,
  { name, hint, points, code }: { name: string; hint: string; points: string; code: string },
) {
  const fill = async (field: HTMLElement, text: string) => {
    await user.click(field);
    if (text) await user.paste(text);
  };
  await fill(within(test).getByRole('textbox', { name: 'Name' }), name);
  await fill(within(test).getByRole('textbox', { name: /Hint for learners/ }), hint);
  const score = within(test).getByRole('spinbutton', { name: 'Points' });
  await user.clear(score);
  await user.type(score, points);
  await fill(within(test).getByRole('textbox', { name: 'Python code' }), code);
}

describe('the automatic check of an experiment, in the course editor', () => {
  it('is built test by test and saved with the task', async () => {
    const user = userEvent.setup();
    const { builder, check } = await openTask(user);
    expect((within(check).getByRole('textbox', { name: /Notebook to check/ }) as HTMLInputElement).value).toBe(
      'main.ipynb',
    );
    expect((within(check).getByRole('spinbutton', { name: 'Time limit (seconds)' }) as HTMLInputElement).value).toBe(
      '120',
    );

    // Saving with an empty test says what to correct, and sends nothing.
    await user.click(within(builder).getByRole('button', { name: 'Save task' }));
    expect(await within(builder).findByText('Give the test a name (up to 100 characters).')).toBeTruthy();
    expect(within(builder).getByText("Write the test's Python code (up to 20000 characters).")).toBeTruthy();
    expect(
      within(builder).getByText('The automatic check has mistakes: correct the marked fields, then save.'),
    ).toBeTruthy();
    expect(server.to(`${B}/tasks/t-1`)).toEqual([]);

    await writeTest(user, within(check).getByRole('group', { name: 'Test 1' }), {
      name: 'Trains the model',
      hint: 'Call fit()',
      points: '3',
      code: 'assert model',
    });
    await user.click(within(check).getByRole('button', { name: 'Add test' }));
    await writeTest(user, within(check).getByRole('group', { name: 'Test 2' }), {
      name: 'Loads the data',
      hint: '',
      points: '2',
      code: 'assert len(data) == 150',
    });
    await user.click(within(check).getByRole('button', { name: 'Move test 2 up' }));
    expect(within(check).getByText('Total: 5 points')).toBeTruthy();

    const timeout = within(check).getByRole('spinbutton', { name: 'Time limit (seconds)' });
    await user.clear(timeout);
    await user.type(timeout, '60');
    const notebook = within(check).getByRole('textbox', { name: /Notebook to check/ });
    await user.clear(notebook);
    await user.paste('iris.ipynb');

    // Not a notebook: refused, with the reason.
    const upload = within(check).getByLabelText('Upload a solution notebook (.ipynb)');
    await user.upload(upload, new File(['not json'], 'notes.ipynb', { type: 'application/json' }));
    expect(
      await within(check).findByText('notes.ipynb is not a notebook. Choose an .ipynb file saved by Jupyter.'),
    ).toBeTruthy();
    await user.upload(upload, new File([SOLUTION], 'solution.ipynb', { type: 'application/json' }));
    expect(await within(check).findByText(/solution\.ipynb \(1 kB\)/)).toBeTruthy();
    expect(within(check).getByRole('button', { name: 'Remove the reference solution' })).toBeTruthy();

    await user.click(within(builder).getByRole('button', { name: 'Save task' }));
    await waitFor(() => expect(server.to(`${B}/tasks/t-1`)).toHaveLength(1));
    expect(lastChange(server, `${B}/tasks/t-1`)).toEqual({
      title: 'Build it',
      questions: [
        {
          id: 'q1',
          type: 'experiment',
          prompt: 'Train it',
          projectId: TEMPLATE_ID,
          check: {
            notebook: 'iris.ipynb',
            timeoutSeconds: 60,
            tests: [
              { name: 'Loads the data', hint: '', points: 2, code: 'assert len(data) == 150' },
              { name: 'Trains the model', hint: 'Call fit()', points: 3, code: 'assert model' },
            ],
            solution: SOLUTION,
          },
        },
      ],
    });
  }, 60_000);

  it('tries the draft against the reference solution and shows the result as learners see it', async () => {
    const running: TCheckResult = {
      id: 'tr-1',
      taskId: 't-1',
      questionId: 'q1',
      userId: 'u-1',
      trial: 'solution',
      status: 'running',
      score: null,
      tests: [],
      reason: null,
      detail: '',
      durationMs: null,
      createdAt: new Date().toISOString(),
      finishedAt: null,
    };
    server.on(`POST ${B}/tasks/t-1/experiment/check-trial`, () => ok(running));
    let polls = 0;
    server.on(`GET ${COURSE_API.checks}/tr-1`, () =>
      ok(
        ++polls < 2
          ? running
          : {
              ...running,
              status: 'passed',
              score: 100,
              tests: [{ name: 'Trains the model', points: 3, passed: true, message: '' }],
              durationMs: 3000,
              finishedAt: new Date().toISOString(),
            },
      ),
    );
    const user = userEvent.setup();
    const { check } = await openTask(user);
    expect(within(check).getByRole('button', { name: 'Try against solution' })).toHaveProperty('disabled', true);
    await writeTest(user, within(check).getByRole('group', { name: 'Test 1' }), {
      name: 'Trains the model',
      hint: '',
      points: '3',
      code: 'assert model',
    });
    await user.upload(
      within(check).getByLabelText('Upload a solution notebook (.ipynb)'),
      new File([SOLUTION], 'solution.ipynb', { type: 'application/json' }),
    );
    await user.click(await within(check).findByRole('button', { name: 'Try against solution' }));
    expect(await within(check).findByText('Running your notebook main.ipynb…')).toBeTruthy();
    expect(lastChange(server, `${B}/tasks/t-1/experiment/check-trial`)).toEqual({
      questionId: 'q1',
      against: 'solution',
      check: {
        notebook: 'main.ipynb',
        timeoutSeconds: 120,
        tests: [{ name: 'Trains the model', hint: '', points: 3, code: 'assert model' }],
        solution: SOLUTION,
      },
    });
    expect(
      await within(check).findByRole('progressbar', { name: 'Score: 100 out of 100' }, { timeout: 5000 }),
    ).toBeTruthy();
    expect(within(check).getByText('Result against the solution')).toBeTruthy();
    expect(within(check).getByText('Trains the model', { selector: '.check-tests__name' })).toBeTruthy();
    expect(await axeViolations()).toEqual([]);
  }, 60_000);

  it('asks to save a new task before trying its check', async () => {
    server.on(`GET ${B}/c-1/edit`, () => ok(course([])));
    const user = userEvent.setup();
    renderApp('/pjedu/courses/c-1/edit?section=s-1');
    const builder = await screen.findByRole('region', { name: 'Add a quiz' });
    await user.click(within(builder).getByRole('combobox', { name: 'Type' }));
    await user.click(await screen.findByTitle('Experiment'));
    await user.click(within(builder).getByRole('switch', { name: "Check learners' notebooks automatically" }));
    expect(
      within(builder).getByText(
        'Save the task, then try the tests here against the template and the reference solution.',
      ),
    ).toBeTruthy();
    expect(within(builder).queryByRole('button', { name: 'Try against template' })).toBeNull();
  }, 30_000);
});
