import { classroomApi, COURSE_API, ROLES, type TClassroomSession } from '@aiedu/contracts';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { changeLanguage } from '../../app/i18n';
import { ok, type FakeServer } from '../../test/fake-api';
import { axeViolations, lastChange, signInAs, startFakeApi, stopFakeApi } from '../../test/page-kit';
import { renderApp } from '../../test/render-app';
import { DETAIL, serveSchedule } from '../schedule/schedule-fixtures';
import { CLASSROOM, FakeSocket, givenTask, serveClassroom, SESSION } from './classroom-fixtures';
import { POLL_MS } from './use-live-classroom';

const PAGE = '/pjedu/schedules/s-1/classroom';
const STUDENT_VIEW = { ...CLASSROOM, role: 'student' as const };
let server: FakeServer;
let state: ReturnType<typeof serveClassroom>;

beforeAll(() => import('./classroom-pages'), 60_000);

beforeEach(async () => {
  server = await startFakeApi();
  state = serveClassroom(server, STUDENT_VIEW);
  FakeSocket.made = [];
  vi.stubGlobal('WebSocket', FakeSocket);
  signInAs(ROLES.student);
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  stopFakeApi();
});

/** The page's socket opens and the server answers its join with the lesson as it is. */
async function connected(session: TClassroomSession | null = SESSION) {
  await waitFor(() => expect(FakeSocket.made.length).toBeGreaterThan(0));
  const socket = FakeSocket.last;
  act(() => socket.open());
  act(() => socket.receive({ type: 'joined', scheduleId: 's-1', role: 'student', session }));
  return socket;
}

const moved = (socket: FakeSocket, change: Partial<TClassroomSession>, revision: number) =>
  act(() => socket.receive({ type: 'session', scheduleId: 's-1', session: { ...SESSION, ...change, revision } }));
const shownSection = (name: string) => screen.findByRole('heading', { level: 2, name });
const sectionButton = (name: RegExp) =>
  within(screen.getByRole('navigation', { name: 'Sections' })).getByRole('button', { name });

describe('the learn view', () => {
  it('follows the section the teacher shows, and tells the teacher where the student is', async () => {
    renderApp(PAGE);
    expect(await shownSection('What is a model')).toBeTruthy();
    const socket = await connected();
    expect(await screen.findByText('Following your teacher: this page moves with the class.')).toBeTruthy();
    expect(screen.getByText('Live')).toBeTruthy();
    await waitFor(() => expect(socket.sentOf('at')).toEqual([{ type: 'at', scheduleId: 's-1', sectionId: 'sec-1' }]));
    // While the teacher leads, the student cannot wander off.
    expect(sectionButton(/Quiz/)).toHaveProperty('disabled', true);
    expect(screen.queryByRole('button', { name: /Next section/ })).toBeNull();

    moved(socket, { sectionId: 'sec-2' }, 2);
    expect(await shownSection('Quiz')).toBeTruthy();
    await waitFor(() =>
      expect(socket.sentOf('at').at(-1)).toEqual({ type: 'at', scheduleId: 's-1', sectionId: 'sec-2' }),
    );
    // An older state of the lesson arriving late changes nothing.
    moved(socket, { sectionId: 'sec-1' }, 1);
    expect(screen.getByRole('heading', { level: 2, name: 'Quiz' })).toBeTruthy();
  });

  it('moves alone once released, stays put when the class moves, and goes back when called back', async () => {
    const user = userEvent.setup();
    renderApp(PAGE);
    const socket = await connected();
    moved(socket, { mode: 'free' }, 2);
    expect(
      await screen.findByText('Working on my own: your teacher has released the class. Choose any section.'),
    ).toBeTruthy();
    await user.click(screen.getByRole('button', { name: /Next section/ }));
    expect(await shownSection('Quiz')).toBeTruthy();
    // The teacher walks on with those who follow nothing: the student stays where they are.
    moved(socket, { mode: 'free', sectionId: 'sec-2' }, 3);
    moved(socket, { mode: 'free', sectionId: 'sec-1' }, 4);
    expect(screen.getByRole('heading', { level: 2, name: 'Quiz' })).toBeTruthy();
    expect(within(sectionButton(/What is a model/)).getByText('The class is here')).toBeTruthy();
    await waitFor(() => expect(socket.sentOf('at').at(-1)).toMatchObject({ sectionId: 'sec-2' }));

    moved(socket, { mode: 'follow', sectionId: 'sec-1' }, 5);
    expect(await shownSection('What is a model')).toBeTruthy();
    expect(await screen.findByText('Following your teacher: this page moves with the class.')).toBeTruthy();
    expect(sectionButton(/Quiz/)).toHaveProperty('disabled', true);
  });

  it('sends an answer, tells the teachers, and shows the teacher’s score', async () => {
    const user = userEvent.setup();
    state.tasks = [givenTask({ dueAt: null, open: true, status: 'todo', score: null, comment: '', submittedAt: null })];
    server.on(`POST ${COURSE_API.base}/tasks/t-1/attempts`, () => {
      state.tasks = [
        givenTask({ dueAt: null, open: true, status: 'graded', score: 85, comment: 'Well put', submittedAt: null }),
      ];
      return ok({ id: 'a-1', taskId: 't-1', status: 'pending', score: null, credits: {} });
    });
    renderApp(PAGE);
    const socket = await connected({ ...SESSION, sectionId: 'sec-2', revision: 2 });
    expect(await shownSection('Quiz')).toBeTruthy();
    await user.type(screen.getByRole('textbox', { name: 'What does a model do?' }), 'It predicts');
    await user.click(screen.getByRole('button', { name: /Submit/ }));
    await waitFor(() =>
      expect(lastChange(server, `${COURSE_API.base}/tasks/t-1/attempts`)).toEqual({
        answers: [{ questionId: 'q-1', text: 'It predicts' }],
      }),
    );
    await waitFor(() => expect(socket.sentOf('submitted')).toEqual([{ type: 'submitted', scheduleId: 's-1' }]));
    expect(await screen.findByText('Your score: 85')).toBeTruthy();
    expect(screen.getByText("Teacher's comment: Well put")).toBeTruthy();
  });

  it('polls the lesson without its socket, saying where the student is, and lands where the class is on reconnecting', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    renderApp(PAGE);
    const first = await connected();
    expect(await shownSection('What is a model')).toBeTruthy();
    act(() => first.drop(1006));
    expect(await screen.findByText(/The live connection was lost/)).toBeTruthy();
    const presence = classroomApi('s-1').presence;
    await waitFor(() => expect(lastChange(server, presence)).toEqual({ sectionId: 'sec-1' }));

    // The teacher moves on: the next poll brings the page along, and the one after says where it is now.
    state.session = { ...SESSION, sectionId: 'sec-2', revision: 2 };
    await act(() => vi.advanceTimersByTimeAsync(POLL_MS));
    expect(await shownSection('Quiz')).toBeTruthy();
    await act(() => vi.advanceTimersByTimeAsync(POLL_MS));
    await waitFor(() => expect(lastChange(server, presence)).toEqual({ sectionId: 'sec-2' }));

    // A failing server slows the polls down and says so, without a blank page.
    server.on(`POST ${presence}`, () => ({ status: 502, body: 'Bad gateway', contentType: 'text/plain' }));
    await act(() => vi.advanceTimersByTimeAsync(POLL_MS));
    expect(await screen.findByText('The server cannot be reached right now. This page keeps trying.')).toBeTruthy();
    expect(screen.getByRole('heading', { level: 2, name: 'Quiz' })).toBeTruthy();
    const failed = server.to(presence).length;
    await act(() => vi.advanceTimersByTimeAsync(POLL_MS));
    expect(server.to(presence)).toHaveLength(failed);
    await act(() => vi.advanceTimersByTimeAsync(POLL_MS * 2));
    expect(server.to(presence)).toHaveLength(failed + 1);

    // Reconnected: the class moved again meanwhile, and the page lands where it is.
    await waitFor(() => expect(FakeSocket.made.length).toBeGreaterThanOrEqual(2));
    const again = await connected({ ...SESSION, sectionId: 'sec-1', revision: 5 });
    expect(await shownSection('What is a model')).toBeTruthy();
    expect(await screen.findByText('Live')).toBeTruthy();
    await waitFor(() => expect(again.sentOf('at')).toEqual([{ type: 'at', scheduleId: 's-1', sectionId: 'sec-1' }]));
  });

  it('waits for the lesson to start, and moves by itself when it does', async () => {
    serveClassroom(server, { ...STUDENT_VIEW, session: null });
    renderApp(PAGE);
    expect(await screen.findByRole('heading', { level: 2, name: 'The lesson has not started yet' })).toBeTruthy();
    const socket = await connected(null);
    moved(socket, {}, 1);
    expect(await shownSection('What is a model')).toBeTruthy();
    moved(socket, { status: 'finished' }, 2);
    expect(await screen.findByRole('heading', { level: 2, name: 'The lesson has finished' })).toBeTruthy();
  });

  it('is reached from a schedule in progress by "Join the class"', async () => {
    serveSchedule(server, { ...DETAIL, status: 'inProgress', role: 'student' }, []);
    const user = userEvent.setup();
    const { router } = renderApp('/pjedu/schedules/s-1');
    await user.click(await screen.findByRole('link', { name: /Join the class/ }));
    await waitFor(() => expect(router.state.location.pathname).toBe(PAGE));
    expect(await shownSection('What is a model')).toBeTruthy();
  });

  it.each(['en', 'zh_CHS'] as const)('passes axe in %s', async (language) => {
    await changeLanguage(language, { remember: false });
    renderApp(PAGE);
    await connected({ ...SESSION, sectionId: 'sec-2', revision: 2 });
    await screen.findByRole('heading', { level: 2, name: 'Quiz' });
    expect(await axeViolations()).toEqual([]);
  });
});
