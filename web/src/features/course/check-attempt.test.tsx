import { COURSE_API, ROLES, scheduleTaskApi, type TAttempt, type TEditableCourse } from '@aiedu/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ok, type FakeServer } from '../../test/fake-api';
import { lastChange, signInAs, startFakeApi, stopFakeApi } from '../../test/page-kit';
import { courseSummary } from '../../test/course-fixtures';
import { renderApp } from '../../test/render-app';
import { DETAIL, serveSchedule, SUBMISSIONS, TASK } from '../schedule/schedule-fixtures';

const B = COURSE_API.base;
const TESTS = [
  { name: 'Loads the data', points: 1, passed: true, message: '' },
  { name: 'Trains the model', points: 3, passed: false, message: 'Call fit() first — AssertionError' },
];
/** An answer to an experiment task with a written note: waiting for the teacher, an automatic check scored it 25. */
const ATTEMPT: TAttempt = {
  id: 'a-1',
  taskId: 't-1',
  userId: 'p-1',
  learnerName: 'Amy',
  status: 'pending',
  score: null,
  credits: {},
  autoScore: 25,
  checks: { x: { checkId: 'ck-1', status: 'failed', score: 25, tests: TESTS } },
  answers: [{ questionId: 'n', text: 'I used k = 3' }],
  comment: '',
  createdAt: '2026-11-22T02:00:00Z',
};

let server: FakeServer;

beforeEach(async () => {
  server = await startFakeApi();
  signInAs(ROLES.teacher);
});

afterEach(stopFakeApi);

describe('a teacher reads the automatic checks of answers', () => {
  it('in the course results: the automatic score offered as the score, and each test under the answer', async () => {
    server.on(`GET ${COURSE_API.filters}`, () => ok({ directions: [], stages: [], difficulties: [], tags: [] }));
    server.on(`GET ${B}/c-1/edit`, () =>
      ok({
        ...courseSummary({ name: 'Machine learning' }),
        code: 'ABCDEF',
        isOwner: true,
        editingVersionId: 'v-1',
        collaborators: [],
        chapters: [],
      } as TEditableCourse),
    );
    server.on(`GET ${B}/c-1/results`, () =>
      ok([ATTEMPT, { ...ATTEMPT, id: 'a-2', learnerName: 'Ben', score: 90, comment: 'Nice' }]),
    );
    server.on(`GET ${B}/c-1/experiment-copies`, () => ok([]));
    server.on(`PUT ${B}/attempts/a-1/grade`, () => ok(null));
    const user = userEvent.setup();
    renderApp('/pjedu/courses/c-1/edit');
    const results = await screen.findByRole('region', { name: "Learners' results" });
    const amy = (await within(results).findByText('Amy')).closest('tr')!;
    expect((within(amy).getByRole('spinbutton', { name: 'Score' }) as HTMLInputElement).value).toBe('25');
    expect(within(amy).getByText('Automatic check: 25')).toBeTruthy();
    // The teacher's own score stays theirs.
    const ben = within(results).getByText('Ben').closest('tr')!;
    expect((within(ben).getByRole('spinbutton', { name: 'Score' }) as HTMLInputElement).value).toBe('90');

    await user.click(within(amy).getByRole('button', { name: /Expand row/ }));
    const check = await within(results).findByRole('region', { name: 'Automatic check 1' });
    expect(within(check).getByText('Automatic check 1: 25 / 100 · some tests failed')).toBeTruthy();
    expect(
      within(check)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['PassedLoads the data1 point', 'Not passedTrains the model3 pointsCall fit() first — AssertionError']);
    expect(within(results).getByText('I used k = 3')).toBeTruthy();

    await user.click(within(amy).getByRole('button', { name: 'Grade' }));
    await waitFor(() => expect(lastChange(server, `${B}/attempts/a-1/grade`)).toEqual({ score: 25, comment: '' }));
  }, 30_000);

  it('in a schedule’s answers: saving takes the automatic score unless the teacher changes it', async () => {
    serveSchedule(server, { ...DETAIL, status: 'inProgress' }, [{ ...TASK, questionTypes: ['experiment'] }]);
    server.on(`GET ${scheduleTaskApi(TASK.id).submissions}`, () =>
      ok([
        { ...SUBMISSIONS[0]!, attempt: ATTEMPT },
        { ...SUBMISSIONS[1]!, attempt: { ...ATTEMPT, id: 'a-2', userId: 'p-2', autoScore: 100, checks: {} } },
      ]),
    );
    const user = userEvent.setup();
    renderApp('/pjedu/schedules/s-1');
    await user.click(await screen.findByRole('tab', { name: 'Tasks' }));
    const row = (await screen.findByText('Explain')).closest('tr')!;
    await user.click(within(row).getByRole('button', { name: 'Answers and scores' }));
    const drawer = await screen.findByRole('dialog');
    const amy = (await within(drawer).findByText('Amy')).closest('tr')!;
    expect((within(amy).getByRole('spinbutton', { name: 'Score of Amy' }) as HTMLInputElement).value).toBe('25');
    expect(within(amy).getByText('Automatic check: 25')).toBeTruthy();

    await user.click(within(amy).getByRole('button', { name: /Expand row/ }));
    const check = await within(drawer).findByRole('region', { name: 'Automatic check 1' });
    expect(within(check).getByText('Trains the model')).toBeTruthy();
    expect(within(check).getByText('Call fit() first — AssertionError')).toBeTruthy();
    expect(within(check).getByText('Not passed')).toBeTruthy();

    // Ben's automatic 100 is overridden; Amy's 25 is taken as it is.
    const score = within(drawer).getByRole('spinbutton', { name: 'Score of Ben' });
    await user.clear(score);
    await user.type(score, '80');
    await user.click(within(drawer).getByRole('button', { name: 'Save scores (2)' }));
    await waitFor(() =>
      expect(lastChange(server, scheduleTaskApi(TASK.id).scores)).toEqual({
        scores: [
          { attemptId: 'a-1', score: 25, comment: '' },
          { attemptId: 'a-2', score: 80, comment: '' },
        ],
      }),
    );
  }, 30_000);
});
