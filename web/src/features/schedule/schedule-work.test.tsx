import { COURSE_API, ROLES, SCHEDULE_API, scheduleApi, scheduleTaskApi } from '@aiedu/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ok, type FakeServer } from '../../test/fake-api';
import { axeViolations, lastChange, signInAs, startFakeApi, stopFakeApi } from '../../test/page-kit';
import { renderApp } from '../../test/render-app';
import { DETAIL, serveSchedule, TASK } from './schedule-fixtures';

let server: FakeServer;

beforeAll(() => import('./schedule-pages'), 60_000);
beforeEach(async () => {
  server = await startFakeApi();
});
afterEach(stopFakeApi);

describe('a schedule’s work', () => {
  it('scores two answers at once, and reopens the task for one student', async () => {
    serveSchedule(server, { ...DETAIL, status: 'inProgress' });
    signInAs(ROLES.teacher);
    const user = userEvent.setup();
    renderApp('/pjedu/schedules/s-1');
    await user.click(await screen.findByRole('tab', { name: 'Tasks' }));
    const row = (await screen.findByText('Explain')).closest('tr')!;
    expect(within(row).getByText('2 of 2')).toBeTruthy();
    await user.click(within(row).getByRole('button', { name: 'Answers and scores' }));
    const drawer = await screen.findByRole('dialog');
    expect(within(drawer).getByText('Answers to "Explain"')).toBeTruthy();
    expect(within(drawer).getByText(/A function fitted to data/)).toBeTruthy();
    await user.type(within(drawer).getByRole('spinbutton', { name: 'Score of Amy' }), '88');
    await user.type(within(drawer).getByRole('textbox', { name: 'Comment for Amy' }), 'Clear');
    await user.type(within(drawer).getByRole('spinbutton', { name: 'Score of Ben' }), '61');
    await user.click(within(drawer).getByRole('button', { name: 'Save scores (2)' }));
    await waitFor(() =>
      expect(lastChange(server, scheduleTaskApi(TASK.id).scores)).toEqual({
        scores: [
          { attemptId: 'a-1', score: 88, comment: 'Clear' },
          { attemptId: 'a-2', score: 61, comment: '' },
        ],
      }),
    );

    const ben = within(drawer).getByText('Ben').closest('tr')!;
    await user.click(within(ben).getByRole('button', { name: 'Reopen' }));
    await screen.findByText('Reopen the task for Ben');
    const dialog = screen.getAllByRole('dialog').at(-1)!;
    await user.click(within(dialog).getByRole('checkbox', { name: 'No due time' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(lastChange(server, scheduleTaskApi(TASK.id).reopen)).toEqual({ userId: 'p-2', dueAt: null }),
    );
  });

  it('shows a student their due time, score and comment, and sends them to the section to answer', async () => {
    const mine = {
      dueAt: TASK.dueAt,
      open: false,
      status: 'graded' as const,
      score: 88,
      comment: 'Clear',
      submittedAt: '2026-11-20T08:00:00.000Z',
    };
    serveSchedule(server, { ...DETAIL, role: 'student', status: 'inProgress' }, [
      { ...TASK, counts: null, mine },
      {
        ...TASK,
        id: 'st-2',
        title: 'Quiz',
        counts: null,
        mine: { ...mine, open: true, status: 'todo', score: null, comment: '', submittedAt: null },
      },
    ]);
    signInAs(ROLES.student);
    const user = userEvent.setup();
    renderApp('/pjedu/schedules/s-1');
    expect(screen.queryByRole('button', { name: 'Start' })).toBeNull();
    await user.click(await screen.findByRole('tab', { name: 'Tasks' }));
    const scored = (await screen.findByText('Explain')).closest('tr')!;
    expect(within(scored).getByText('Scored')).toBeTruthy();
    expect(within(scored).getByText('88')).toBeTruthy();
    expect(within(scored).getByText('Clear')).toBeTruthy();
    expect(within(scored).queryByRole('link')).toBeNull();
    const todo = screen.getByText('Quiz').closest('tr')!;
    const answer = within(todo).getByRole('link', { name: 'Answer' });
    expect(answer.getAttribute('href')).toBe('/pjedu/courses/c-1?section=sec-1');
    expect(await axeViolations()).toEqual([]);
  });

  it('lists a student’s schedules in my study', async () => {
    server.on(`GET ${COURSE_API.study}`, () => ok([]));
    server.on(`GET ${SCHEDULE_API.study}`, () =>
      ok([
        {
          id: 's-1',
          name: 'Autumn AI',
          status: 'finished',
          startAt: DETAIL.startAt,
          teachers: DETAIL.teachers,
          courses: [{ courseId: 'c-1', name: 'Intro to AI', versionNumber: 1, state: 'takenDown' }],
          tasks: { assigned: 3, submitted: 2 },
        },
      ]),
    );
    signInAs(ROLES.student);
    renderApp('/pjedu/my/courses');
    const link = await screen.findByRole('link', { name: 'Autumn AI' });
    expect(link.getAttribute('href')).toBe('/pjedu/schedules/s-1');
    const card = link.closest('.ant-card') as HTMLElement;
    expect(within(card).getByText('Finished')).toBeTruthy();
    expect(within(card).getByText('Course taken down')).toBeTruthy();
    expect(within(card).getByText('Tasks answered: 2 of 3')).toBeTruthy();
    expect(await axeViolations()).toEqual([]);
  });

  it('shows the teacher the students with progress and results, and exports them', async () => {
    serveSchedule(server);
    server.on(`GET ${scheduleApi('s-1').students}`, () =>
      ok([
        {
          userId: 'p-1',
          username: 'amy',
          name: 'Amy',
          classId: 'class-1',
          className: '4-1',
          schoolNumber: null,
          progress: 50,
          completedSections: 1,
          secondsSpent: 600,
          lastActiveAt: '2026-11-22T02:00:00Z',
          sections: [],
          tasks: [{ scheduleTaskId: 'st-1', status: 'graded', score: 88 }],
        },
      ]),
    );
    server.on(`GET ${scheduleApi('s-1').studentsExport}`, () => ({
      body: 'xlsx',
      contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    }));
    signInAs(ROLES.teacher);
    const user = userEvent.setup();
    renderApp('/pjedu/schedules/s-1/students');
    const row = (await screen.findByText('amy')).closest('tr')!;
    expect(within(row).getByText('10 min')).toBeTruthy();
    expect(within(row).getByText('88')).toBeTruthy();
    expect(screen.getByRole('columnheader', { name: 'Explain' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: /Export to Excel/ }));
    await waitFor(() => expect(server.to(scheduleApi('s-1').studentsExport)).toHaveLength(1));
    expect(await axeViolations()).toEqual([]);
  });
});
