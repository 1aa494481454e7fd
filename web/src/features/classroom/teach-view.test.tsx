import {
  classroomApi,
  classroomSessionApi,
  ROLES,
  scheduleApi,
  UI_SIZES,
  type TClassroom,
  type TClassroomRoster,
  type TClassroomSession,
} from '@aiedu/contracts';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { changeLanguage } from '../../app/i18n';
import { ok, type FakeServer } from '../../test/fake-api';
import { axeViolations, lastChange, signInAs, startFakeApi, stopFakeApi } from '../../test/page-kit';
import { renderApp } from '../../test/render-app';
import { CLASSROOM, FakeSocket, givenTask, ROSTER, serveClassroom, SESSION } from './classroom-fixtures';
import { POLL_MS } from './use-live-classroom';

const PAGE = '/pjedu/schedules/s-1/classroom';
const LESSON = classroomSessionApi(SESSION.id);
let server: FakeServer;
let state: ReturnType<typeof serveClassroom>;

beforeAll(() => import('./classroom-pages'), 60_000);

beforeEach(async () => {
  server = await startFakeApi();
  state = serveClassroom(server);
  FakeSocket.made = [];
  vi.stubGlobal('WebSocket', FakeSocket);
  signInAs(ROLES.teacher);
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  stopFakeApi();
});

/** The page's socket opens and the server answers its join as the teacher's, with the roster. */
async function connected(session: TClassroomSession | null = SESSION, roster: TClassroomRoster = ROSTER) {
  await waitFor(() => expect(FakeSocket.made.length).toBeGreaterThan(0));
  const socket = FakeSocket.last;
  act(() => socket.open());
  expect(socket.sentOf('join')).toEqual([{ type: 'join', scheduleId: 's-1' }]);
  act(() => socket.receive({ type: 'joined', scheduleId: 's-1', role: 'teacher', session }));
  act(() => socket.receive({ type: 'roster', scheduleId: 's-1', roster }));
  return socket;
}

const shownSection = (name: string) => screen.findByRole('heading', { level: 2, name });
const rowOf = (name: string) => screen.getByRole('row', { name: new RegExp(`^${name}`) });

describe('the teach view', () => {
  it('moves the class with the keyboard over the socket, keeps the newest lesson, and shows a refusal', async () => {
    const user = userEvent.setup();
    renderApp(PAGE);
    expect(await shownSection('What is a model')).toBeTruthy();
    const socket = await connected();

    await user.keyboard('{ArrowRight}');
    expect(socket.sentOf('show')).toEqual([
      { type: 'show', scheduleId: 's-1', sessionId: SESSION.id, sectionId: 'sec-2' },
    ]);
    // Another teacher finished the lesson meanwhile: the move is refused with the catalogue's words.
    const refusal = "This cannot be done in the lesson's current state";
    act(() => socket.receive({ type: 'refused', scheduleId: 's-1', errorCode: '4301', errorMsg: refusal }));
    expect(await screen.findByText(refusal)).toBeTruthy();
    expect(await shownSection('What is a model')).toBeTruthy();

    await user.keyboard('{PageDown}');
    act(() =>
      socket.receive({ type: 'session', scheduleId: 's-1', session: { ...SESSION, sectionId: 'sec-2', revision: 3 } }),
    );
    expect(await shownSection('Quiz')).toBeTruthy();
    // A late answer about an older state of the lesson does not move it back.
    act(() => socket.receive({ type: 'session', scheduleId: 's-1', session: { ...SESSION, revision: 2 } }));
    expect(screen.getByRole('heading', { level: 2, name: 'Quiz' })).toBeTruthy();
    expect(screen.getByRole('button', { name: /Next section/ })).toHaveProperty('disabled', true);

    // Keys typed into the notes stay there.
    await user.click(screen.getByRole('textbox', { name: 'Lesson notes for this section (Markdown)' }));
    await user.keyboard('{ArrowLeft}');
    expect(socket.sentOf('show')).toHaveLength(2);
    await user.click(screen.getByRole('button', { name: /Previous section/ }));
    expect(socket.sentOf('show').at(-1)).toMatchObject({ sectionId: 'sec-1' });
  });

  it('releases the class and calls it back', async () => {
    const user = userEvent.setup();
    renderApp(PAGE);
    await connected();
    expect(await screen.findByText('The class follows you: students see the section you show.')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: /Release the class/ }));
    await waitFor(() => expect(lastChange(server, LESSON.mode)).toEqual({ mode: 'free' }));
    expect(
      await screen.findByText('The class is released: students move through the sections on their own.'),
    ).toBeTruthy();
    await user.click(screen.getByRole('button', { name: /Call the class back/ }));
    await waitFor(() => expect(lastChange(server, LESSON.mode)).toEqual({ mode: 'follow' }));
    expect(await screen.findByRole('button', { name: /Release the class/ })).toBeTruthy();
  });

  it('opens, starts and finishes a lesson, finishing only after the 472 px confirmation', async () => {
    serveClassroom(server, { ...CLASSROOM, session: null });
    const user = userEvent.setup();
    renderApp(PAGE);
    expect(await screen.findByText(/No lesson is open\. Open a lesson/)).toBeTruthy();
    // Before the lesson, the teacher walks the sections alone: nothing is sent to the class.
    const socket = await connected(null);
    await user.keyboard('{ArrowRight}');
    expect(await shownSection('Quiz')).toBeTruthy();
    expect(socket.sentOf('show')).toEqual([]);

    await user.click(screen.getByRole('button', { name: /Open a lesson/ }));
    expect(await screen.findByText('Lesson not started')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: /Start the lesson/ }));
    expect(await screen.findByText('Teaching')).toBeTruthy();
    expect(await shownSection('What is a model')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: /Finish the lesson/ }));
    const confirm = await screen.findByRole('dialog');
    expect((confirm.closest('.ant-modal') as HTMLElement).style.width).toBe(`${UI_SIZES.confirmDialogWidth}px`);
    expect(server.to(LESSON.finish)).toHaveLength(0);
    await user.click(within(confirm).getByRole('button', { name: 'Finish the lesson' }));
    await waitFor(() => expect(server.to(LESSON.finish)).toHaveLength(1));
    expect(await screen.findByText('Lesson finished')).toBeTruthy();
    expect(screen.getByRole('button', { name: /Open a lesson/ })).toBeTruthy();
  });

  it('keeps a live roster in a table, and reads out who came, went and answered', async () => {
    renderApp(PAGE);
    const socket = await connected();
    expect(await screen.findByRole('table', { name: /Students of the schedule/ })).toBeTruthy();
    expect(within(rowOf('Amy')).getByText('Online')).toBeTruthy();
    expect(within(rowOf('Amy')).getByText('What is a model')).toBeTruthy();
    expect(within(rowOf('Ben')).getByText('Offline')).toBeTruthy();
    expect(screen.getByText('Online: 1 of 2')).toBeTruthy();

    const ben = { ...ROSTER.students[1]!, online: true, sectionId: 'sec-1' };
    act(() => socket.receive({ type: 'presence', scheduleId: 's-1', student: ben }));
    await waitFor(() => expect(within(rowOf('Ben')).getByText('Online')).toBeTruthy());
    expect(screen.getByText('Ben joined the class.')).toBeTruthy();
    expect(screen.getByText('Online: 2 of 2')).toBeTruthy();

    // The class moves to the quiz: who answered its task.
    const onQuiz = (s: TClassroomRoster['students'][number]) => ({
      ...s,
      online: true,
      sectionId: 'sec-2',
      submitted: false,
    });
    act(() =>
      socket.receive({
        type: 'roster',
        scheduleId: 's-1',
        roster: { sectionId: 'sec-2', students: ROSTER.students.map(onQuiz) },
      }),
    );
    expect(await screen.findByText('Answered: 0 of 2')).toBeTruthy();
    const amy = { ...onQuiz(ROSTER.students[0]!), submitted: true };
    act(() => socket.receive({ type: 'presence', scheduleId: 's-1', student: amy }));
    await waitFor(() => expect(within(rowOf('Amy')).getByText('Answered')).toBeTruthy());
    expect(within(rowOf('Ben')).getByText('Not yet')).toBeTruthy();
    expect(screen.getByText('Amy answered.')).toBeTruthy();
    expect(screen.getByText(/Answered: 1 of 2/)).toBeTruthy();
  });

  it('saves the lesson notes of each section by themselves, previews their Markdown, and saves on moving on', async () => {
    const user = userEvent.setup();
    renderApp(PAGE);
    await connected();
    const notes = await screen.findByRole('textbox', { name: 'Lesson notes for this section (Markdown)' });
    await user.type(notes, '# Ask why');
    await waitFor(() =>
      expect(lastChange(server, classroomApi('s-1').notes)).toEqual({ sectionId: 'sec-1', body: '# Ask why' }),
    );
    expect(await screen.findByText(/Saved by Teacher One/)).toBeTruthy();
    await user.click(screen.getByRole('tab', { name: 'Preview' }));
    expect(await screen.findByRole('heading', { level: 3, name: 'Ask why' })).toBeTruthy();

    await user.click(screen.getByRole('tab', { name: 'Write' }));
    await user.type(screen.getByRole('textbox', { name: 'Lesson notes for this section (Markdown)' }), ' now');
    // Straight to the next section, before the pause that saves.
    const nav = screen.getByRole('navigation', { name: 'Sections' });
    await user.click(within(nav).getByRole('button', { name: /Quiz/ }));
    await waitFor(() =>
      expect(lastChange(server, classroomApi('s-1').notes)).toEqual({ sectionId: 'sec-1', body: '# Ask why now' }),
    );
    expect(await shownSection('Quiz')).toBeTruthy();
    expect(await screen.findByText('No notes yet. They save by themselves as you type.')).toBeTruthy();
  });

  it('falls back to polling the roster and the lesson when the socket is refused, and stops once it reconnects', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    state.roster = { ...ROSTER, students: [{ ...ROSTER.students[0]!, sectionId: 'sec-1' }] };
    renderApp(PAGE);
    expect(await shownSection('What is a model')).toBeTruthy();
    await waitFor(() => expect(FakeSocket.made).toHaveLength(1));
    act(() => FakeSocket.last.drop(1006));
    expect(await screen.findByText(/The live connection was lost/)).toBeTruthy();
    expect(await screen.findByRole('table', { name: /Students of the schedule/ })).toBeTruthy();
    expect(server.to(classroomApi('s-1').roster)).toHaveLength(1);
    expect(server.to(classroomApi('s-1').presence)).toHaveLength(1);

    // Moves go over HTTP meanwhile.
    await user.keyboard('{ArrowRight}');
    await waitFor(() => expect(lastChange(server, LESSON.section)).toEqual({ sectionId: 'sec-2' }));
    expect(await shownSection('Quiz')).toBeTruthy();
    // Another teacher moves the class back: the next poll shows it.
    state.session = { ...state.session!, sectionId: 'sec-1', revision: state.session!.revision + 1 };
    await act(() => vi.advanceTimersByTimeAsync(POLL_MS));
    expect(await shownSection('What is a model')).toBeTruthy();
    expect(server.to(classroomApi('s-1').roster).length).toBeGreaterThanOrEqual(2);

    // The socket comes back (the retry made a new one): polling stops.
    await waitFor(() => expect(FakeSocket.made.length).toBeGreaterThanOrEqual(2));
    await connected(state.session);
    expect(await screen.findByText('Live')).toBeTruthy();
    const polls = server.to(classroomApi('s-1').roster).length;
    await act(() => vi.advanceTimersByTimeAsync(POLL_MS * 3));
    expect(server.to(classroomApi('s-1').roster)).toHaveLength(polls);
  });

  it("gives a task while the class's tasks are still loading, and offers its answers once the server has it", async () => {
    state = serveClassroom(server, { ...CLASSROOM, session: { ...SESSION, sectionId: 'sec-2' } });
    // The tasks' first answer is slow: it was read before the task was given, and arrives only after the gift.
    let answerLate: () => void = () => undefined;
    const late = new Promise<void>((resolve) => (answerLate = resolve));
    let reads = 0;
    server.on(`GET ${scheduleApi('s-1').tasks}`, async () => {
      reads += 1;
      if (reads > 1) return ok(state.tasks);
      const before = state.tasks;
      await late;
      return ok(before);
    });
    server.on(`POST ${scheduleApi('s-1').tasks}`, () => {
      state.tasks = [givenTask(null)];
      setTimeout(answerLate, 0);
      return ok(state.tasks);
    });
    const user = userEvent.setup();
    renderApp(PAGE);
    expect(await shownSection('Quiz')).toBeTruthy();
    const give = await screen.findByRole('button', { name: 'Give to the class' });
    await user.click(give);
    const answers = await screen.findByRole('button', { name: 'Answers and scores' });
    expect(screen.getByText('Answered: 1 of 2')).toBeTruthy();
    // A control of its own: the gift's button, reused, would carry its loading spinner over (in a browser its leave
    // motion can outlast the gift, the spinner then naming the button "loading Answers and scores").
    expect(answers).not.toBe(give);
    expect(answers.querySelector('.ant-btn-loading-icon')).toBeNull();
  });

  it('says what to do when the schedule has not started, and when its courses have no sections', async () => {
    const empty: TClassroom = {
      ...CLASSROOM,
      scheduleStatus: 'notStarted',
      session: null,
      courses: [{ ...CLASSROOM.courses[0]!, sections: [] }],
    };
    serveClassroom(server, empty);
    renderApp(PAGE);
    expect(await screen.findByText(/This schedule has not started\. Start it on the schedule page/)).toBeTruthy();
    expect(screen.getByText(/The schedule's courses have no sections yet/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Open a lesson/ })).toBeNull();
    expect(screen.getByRole('link', { name: 'Open the schedule' }).getAttribute('href')).toBe('/pjedu/schedules/s-1');
  });

  it.each(['en', 'zh_CHS'] as const)('passes axe in %s', async (language) => {
    await changeLanguage(language, { remember: false });
    renderApp(PAGE);
    await connected();
    await screen.findByRole('table');
    await screen.findByRole('heading', { level: 2, name: 'What is a model' });
    expect(await axeViolations()).toEqual([]);
  });
});
