import { COURSE_API, ROLES, type TAttempt, type TCheckResult } from '@aiedu/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ok, type FakeServer } from '../../test/fake-api';
import { axeViolations, signInAs, startFakeApi, stopFakeApi } from '../../test/page-kit';
import { courseSummary, enrolledCourse } from '../../test/course-fixtures';
import { renderApp } from '../../test/render-app';

const B = COURSE_API.base;
const COPY_ID = '0192f7a0-0000-7000-8000-0000000000c1';
const DETAIL = enrolledCourse(courseSummary({ name: 'Machine learning', publicScope: 'customer' }));
const LATEST = `${B}/tasks/t-1/experiment/check`;
const section = (projectId: string | null) => ({
  id: 's-1',
  title: 'Iris',
  content: 'Train a classifier.',
  aiLinks: [],
  resources: [],
  tasks: [
    {
      id: 't-1',
      title: 'Build it',
      questions: [
        {
          id: 'x',
          type: 'experiment',
          prompt: 'Train it',
          experiment: { linked: true, projectId, checked: true, notebook: 'iris.ipynb' },
        },
      ],
    },
  ],
  nextSectionId: null,
  completed: false,
});
const ago = (seconds: number) => new Date(Date.now() - seconds * 1000).toISOString();
const aCheck = (overrides: Partial<TCheckResult> = {}): TCheckResult => ({
  id: 'ck-1',
  taskId: 't-1',
  questionId: 'x',
  userId: 'u-1',
  trial: null,
  status: 'running',
  score: null,
  tests: [],
  reason: null,
  detail: '',
  durationMs: null,
  createdAt: ago(1),
  finishedAt: null,
  ...overrides,
});
const TESTS_HALF = [
  { name: 'Loads the data', points: 2, passed: true, message: '' },
  { name: 'Trains the model', points: 2, passed: false, message: 'Call fit() on your model — NameError: model' },
];
const TESTS_ALL = TESTS_HALF.map((t) => ({ ...t, passed: true, message: '' }));

let server: FakeServer;

beforeEach(async () => {
  server = await startFakeApi();
  signInAs(ROLES.student);
  server.on(`GET ${B}/c-1`, () => ok(DETAIL));
  server.on(`POST ${B}/sections/s-1/record`, () => ok(DETAIL));
  server.on(`GET ${B}/sections/s-1/learn`, () => ok(section(COPY_ID)));
  server.on(`GET ${LATEST}`, () => ok(null));
});

afterEach(stopFakeApi);

/** Answers the runs of one check id in turn: while running, then ended; the last answer stays. */
/** The answer the server grades at once, from the checks it took its credit from. */
const gradedAttempt = (checks: TAttempt['checks']): TAttempt => ({
  id: 'a-1',
  taskId: 't-1',
  userId: 'u-1',
  learnerName: 'Kid',
  status: 'graded',
  score: 100,
  credits: { x: 1 },
  autoScore: 100,
  checks,
  answers: [],
  comment: '',
  createdAt: ago(0),
});

function serveRuns(id: string, ...answers: TCheckResult[]) {
  let call = 0;
  server.on(`GET ${COURSE_API.checks}/${id}`, () => ok(answers[Math.min(call++, answers.length - 1)]));
}

describe('a learner checks their experiment', () => {
  it('runs the check, sees it running, then each test and the score; checks again and passes', async () => {
    let runs = 0;
    server.on(`POST ${LATEST}`, () => ok(aCheck({ id: ++runs === 1 ? 'ck-1' : 'ck-2' })));
    serveRuns(
      'ck-1',
      aCheck(),
      aCheck({ status: 'failed', score: 50, tests: TESTS_HALF, durationMs: 4000, finishedAt: ago(0) }),
    );
    serveRuns('ck-2', aCheck({ id: 'ck-2', status: 'passed', score: 100, tests: TESTS_ALL, finishedAt: ago(0) }));
    const user = userEvent.setup();
    renderApp('/pjedu/courses/c-1?section=s-1');
    const quiz = await screen.findByRole('region', { name: 'Build it' });
    await waitFor(() => expect(server.to(LATEST).at(0)?.url).toContain('questionId=x'));
    await user.click(within(quiz).getByRole('button', { name: 'Check my work' }));
    expect(await within(quiz).findByText('Running your notebook iris.ipynb…')).toBeTruthy();
    expect(JSON.parse(server.to(LATEST).find((r) => r.method === 'POST')!.body!)).toEqual({ questionId: 'x' });

    const result = await within(quiz).findByRole('progressbar', { name: 'Score: 50 out of 100' }, { timeout: 5000 });
    const live = result.closest('[aria-live="polite"]') as HTMLElement;
    expect(live.getAttribute('role')).toBe('status');
    const tests = within(live).getAllByRole('listitem');
    expect(tests.map((li) => li.textContent)).toEqual([
      'PassedLoads the data2 points',
      'Not passedTrains the model2 pointsCall fit() on your model — NameError: model',
    ]);
    expect(within(live).getByText(/Some tests did not pass yet/)).toBeTruthy();

    await user.click(within(quiz).getByRole('button', { name: 'Check again' }));
    expect(await within(quiz).findByRole('progressbar', { name: 'Score: 100 out of 100' }, { timeout: 5000 }));
    expect(within(quiz).getByText('Well done! Every test passed.')).toBeTruthy();
    expect(within(quiz).queryByText('Not passed')).toBeNull();
    expect(await axeViolations()).toEqual([]);
  }, 30_000);

  it('shows the latest check on load, and why it could not finish, in plain words', async () => {
    server.on(`GET ${LATEST}`, () =>
      ok(
        aCheck({
          status: 'error',
          score: 0,
          reason: 'timeout',
          durationMs: 120_400,
          detail: 'cell 3: KeyboardInterrupt',
          tests: [{ name: 'Loads the data', points: 2, passed: false, message: 'not run (timeout)' }],
          finishedAt: ago(30),
        }),
      ),
    );
    renderApp('/pjedu/courses/c-1?section=s-1');
    expect(await screen.findByText('The check could not finish')).toBeTruthy();
    expect(
      screen.getByText(
        'Your notebook took longer than 120 s, so the check stopped it. Look for a loop that never ends, or make your code faster.',
      ),
    ).toBeTruthy();
    expect(screen.getByText('cell 3: KeyboardInterrupt').tagName).toBe('CODE');
    expect(screen.getByText('First error:', { exact: false })).toBeTruthy();
  });

  it('says when they can check again after using the hour’s checks', async () => {
    server.on(`POST ${LATEST}`, () => ({
      status: 429,
      body: { errorCode: '1109', errorMsg: 'Too many requests', data: { retryAfterSeconds: 1450, perHour: 20 } },
    }));
    const user = userEvent.setup();
    renderApp('/pjedu/courses/c-1?section=s-1');
    await user.click(await screen.findByRole('button', { name: 'Check my work' }));
    const message = await screen.findByText(
      'You have used all 20 checks for this hour. You can check again in 25 min.',
    );
    expect(message.closest('[role="status"]')).toBeTruthy();
  });

  it('explains the check runs on their copy before the experiment is started', async () => {
    server.on(`GET ${B}/sections/s-1/learn`, () => ok(section(null)));
    renderApp('/pjedu/courses/c-1?section=s-1');
    expect(
      await screen.findByText(
        'Once you start the experiment, you can check your work here: the check runs iris.ipynb in your own copy.',
      ),
    ).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Check my work' })).toBeNull();
    expect(server.to(LATEST)).toEqual([]);
  });
});

describe('submitting a task with a checked experiment', () => {
  it('checks first when the latest check is older than a minute, then submits and shows the score', async () => {
    server.on(`GET ${LATEST}`, () =>
      ok(aCheck({ id: 'ck-0', status: 'failed', score: 0, createdAt: ago(300), finishedAt: ago(290) })),
    );
    server.on(`POST ${LATEST}`, () => ok(aCheck()));
    serveRuns('ck-1', aCheck(), aCheck({ status: 'passed', score: 100, tests: TESTS_ALL, finishedAt: ago(0) }));
    server.on(`POST ${B}/tasks/t-1/attempts`, () =>
      ok(gradedAttempt({ x: { checkId: 'ck-1', status: 'passed', score: 100, tests: TESTS_ALL } })),
    );
    const user = userEvent.setup();
    renderApp('/pjedu/courses/c-1?section=s-1');
    await screen.findByText(/Some tests did not pass yet/);
    await user.click(screen.getByRole('button', { name: 'Submit answers' }));
    expect(await screen.findByRole('button', { name: /Checking, then submitting…/ })).toBeTruthy();
    expect(await screen.findByText('Your score: 100', {}, { timeout: 5000 })).toBeTruthy();
    const order = server.requests
      .filter((r) => r.method === 'POST' && r.url.includes('/tasks/t-1/'))
      .map((r) => r.url.replace(`${B}/tasks/t-1/`, ''));
    expect(order).toEqual(['experiment/check', 'attempts']);
    expect(screen.getByRole('button', { name: /Submit answers/ })).toBeTruthy();
  }, 30_000);

  it('submits at once when the experiment was checked in the last minute', async () => {
    server.on(`GET ${LATEST}`, () =>
      ok(aCheck({ status: 'passed', score: 100, tests: TESTS_ALL, createdAt: ago(20), finishedAt: ago(10) })),
    );
    server.on(`POST ${B}/tasks/t-1/attempts`, () => ok(gradedAttempt({})));
    const user = userEvent.setup();
    renderApp('/pjedu/courses/c-1?section=s-1');
    await screen.findByText('Well done! Every test passed.');
    await user.click(screen.getByRole('button', { name: 'Submit answers' }));
    expect(await screen.findByText('Your score: 100')).toBeTruthy();
    expect(server.to(LATEST).filter((r) => r.method === 'POST')).toEqual([]);
  });
});
