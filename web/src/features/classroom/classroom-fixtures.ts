import {
  classroomApi,
  classroomSessionApi,
  COURSE_API,
  scheduleApi,
  type TClassroom,
  type TClassroomRoster,
  type TClassroomSession,
  type TLearnerSection,
  type TLessonNote,
  type TScheduleTask,
  type TServerMessage,
} from '@aiedu/contracts';
import { ok, type FakeServer } from '../../test/fake-api';
import { DETAIL } from '../schedule/schedule-fixtures';

/** A lesson of schedule s-1 being taught on its first section, the class following. */
export const SESSION: TClassroomSession = {
  id: '0190a000-0000-7000-8000-000000000001',
  status: 'teaching',
  mode: 'follow',
  sectionId: 'sec-1',
  revision: 1,
  startedAt: '2026-11-24T01:00:00Z',
  finishedAt: null,
  startedBy: 'u-1',
};

/** Schedule s-1 in progress on "Intro to AI" version 1: "What is a model" (no task), then "Quiz" (a short answer). */
export const CLASSROOM: TClassroom = {
  scheduleId: 's-1',
  name: 'Autumn AI',
  scheduleStatus: 'inProgress',
  role: 'teacher',
  session: SESSION,
  courses: [
    {
      ...DETAIL.courses[0]!,
      sections: [
        { id: 'sec-1', title: 'What is a model', chapterTitle: 'Basics', tasks: [] },
        {
          id: 'sec-2',
          title: 'Quiz',
          chapterTitle: 'Basics',
          tasks: [{ id: 't-1', title: 'Explain', questionTypes: ['short'] }],
        },
      ],
    },
  ],
};

export const SECTIONS: Record<string, TLearnerSection> = {
  'sec-1': {
    id: 'sec-1',
    title: 'What is a model',
    content: 'A model is a function fitted to data.',
    aiLinks: [],
    resources: [],
    tasks: [],
    nextSectionId: 'sec-2',
    completed: false,
  },
  'sec-2': {
    id: 'sec-2',
    title: 'Quiz',
    content: 'Answer in your own words.',
    aiLinks: [],
    resources: [],
    tasks: [
      { id: 't-1', title: 'Explain', questions: [{ id: 'q-1', type: 'short', prompt: 'What does a model do?' }] },
    ],
    nextSectionId: null,
    completed: false,
  },
};

export const ROSTER: TClassroomRoster = {
  sectionId: 'sec-1',
  students: [
    { userId: 'p-1', name: 'Amy', className: '4-1', online: true, sectionId: 'sec-1', submitted: null },
    { userId: 'p-2', name: 'Ben', className: '4-1', online: false, sectionId: null, submitted: null },
  ],
};

/** Task t-1 given in the schedule, as a student sees it: `mine` says where they stand. */
export const givenTask = (mine: TScheduleTask['mine']): TScheduleTask => ({
  id: 'st-1',
  taskId: 't-1',
  courseId: 'c-1',
  courseName: 'Intro to AI',
  sectionId: 'sec-2',
  sectionTitle: 'Quiz',
  title: 'Explain',
  questionTypes: ['short'],
  dueAt: null,
  createdAt: '2026-11-21T00:00:00Z',
  counts: mine ? null : { students: 2, submitted: 1, graded: 0 },
  mine,
});

const sectionQuery = (url: string) => new URL(url, 'http://x').searchParams.get('sectionId') ?? '';

/** Answers the classroom's calls for schedule s-1; `state` is what the server holds, for a test to change. */
export function serveClassroom(server: FakeServer, classroom: TClassroom = CLASSROOM) {
  const state = {
    session: classroom.session,
    roster: ROSTER,
    notes: [] as TLessonNote[],
    tasks: [] as TScheduleTask[],
  };
  const api = classroomApi(classroom.scheduleId);
  server.on(`GET ${api.base}`, () => ok(classroom));
  server.on(`GET ${api.section}`, (r) => ok(SECTIONS[sectionQuery(r.url)]));
  server.on(`GET ${api.notes}`, () => ok(state.notes));
  server.on(`PUT ${api.notes}`, (r) => {
    const { sectionId, body } = JSON.parse(r.body ?? '{}') as { sectionId: string; body: string };
    const note = { sectionId, body, updatedAt: '2026-11-24T01:05:00Z', updatedBy: 'Teacher One' };
    state.notes = [...state.notes.filter((n) => n.sectionId !== sectionId), note];
    return ok(note);
  });
  server.on(`GET ${api.roster}`, () => ok(state.roster));
  server.on(`POST ${api.presence}`, () => ok(state.session));
  server.on(`GET ${scheduleApi(classroom.scheduleId).tasks}`, () => ok(state.tasks));
  const session = classroomSessionApi(SESSION.id);
  const moved = (change: Partial<TClassroomSession>) => {
    state.session = { ...state.session!, ...change, revision: state.session!.revision + 1 };
    return ok(state.session);
  };
  server.on(`PUT ${session.mode}`, (r) => moved(JSON.parse(r.body ?? '{}') as Partial<TClassroomSession>));
  server.on(`PUT ${session.section}`, (r) => moved(JSON.parse(r.body ?? '{}') as Partial<TClassroomSession>));
  server.on(`POST ${api.open}`, () => {
    state.session = {
      ...SESSION,
      status: 'notStarted',
      sectionId: null,
      revision: 0,
      startedAt: null,
      startedBy: null,
    };
    return ok(state.session);
  });
  server.on(`POST ${session.start}`, () => moved({ status: 'teaching', sectionId: 'sec-1' }));
  server.on(`POST ${session.finish}`, () => moved({ status: 'finished' }));
  for (const section of Object.values(SECTIONS)) {
    server.on(`GET ${COURSE_API.base}/sections/${section.id}/learn`, () => ok(section));
    server.on(`POST ${COURSE_API.base}/sections/${section.id}/record`, () => ok(null));
  }
  return state;
}

/**
 * A browser WebSocket in a test: `open`, `receive` and `drop` play the server; `sent` is what the page sent. Every
 * socket made is in `FakeSocket.made`, newest last.
 */
export class FakeSocket {
  static made: FakeSocket[] = [];
  static readonly OPEN = 1;
  readyState = 0;
  readonly sent: Record<string, unknown>[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((event: { data: string }) => void) | null = null;
  onclose: ((event: { code: number }) => void) | null = null;

  constructor(readonly url: string) {
    FakeSocket.made.push(this);
  }

  static get last(): FakeSocket {
    const socket = FakeSocket.made.at(-1);
    if (!socket) throw new Error('no socket was opened');
    return socket;
  }

  send(text: string) {
    this.sent.push(JSON.parse(text) as Record<string, unknown>);
  }

  close() {
    this.readyState = 3;
  }

  open() {
    this.readyState = 1;
    this.onopen?.();
  }

  receive(message: TServerMessage) {
    this.onmessage?.({ data: JSON.stringify(message) });
  }

  /** The server or the network ends the socket. */
  drop(code = 1006) {
    this.readyState = 3;
    this.onclose?.({ code });
  }

  /** The messages of a type the page sent. */
  sentOf(type: string) {
    return this.sent.filter((m) => m.type === type);
  }
}
