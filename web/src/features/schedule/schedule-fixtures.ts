import {
  SCHEDULE_API,
  scheduleApi,
  scheduleTaskApi,
  type TScheduleDetail,
  type TScheduleSubmission,
  type TScheduleTask,
} from '@aiedu/contracts';
import { ok, type FakeServer } from '../../test/fake-api';

/** A schedule of class 4-1 on "Intro to AI" version 1 (version 2 published since), as its teacher sees it. */
export const DETAIL: TScheduleDetail = {
  id: 's-1',
  name: 'Autumn AI',
  status: 'notStarted',
  startAt: '2026-11-23T00:00:00Z',
  startedAt: null,
  finishedAt: null,
  schoolId: 'school-1',
  schoolName: 'Demo Primary School',
  teachers: [{ id: 'u-1', name: 'Teacher One' }],
  classes: [{ id: 'class-1', name: '4-1' }],
  courses: [
    {
      courseId: 'c-1',
      versionId: 'v-1',
      versionNumber: 1,
      name: 'Intro to AI',
      state: 'open',
      latestVersionId: 'v-2',
      latestVersionNumber: 2,
      sections: [
        {
          id: 'sec-1',
          title: 'What is a model',
          chapterTitle: 'Basics',
          tasks: [{ id: 't-1', title: 'Explain', questionTypes: ['short'] }],
        },
      ],
    },
  ],
  studentCount: 2,
  createdAt: '2026-11-20T00:00:00Z',
  role: 'teacher',
  students: [],
};

export const TASK: TScheduleTask = {
  id: 'st-1',
  taskId: 't-1',
  courseId: 'c-1',
  courseName: 'Intro to AI',
  sectionId: 'sec-1',
  sectionTitle: 'What is a model',
  title: 'Explain',
  questionTypes: ['short'],
  dueAt: '2026-11-30T10:00:00Z',
  createdAt: '2026-11-21T00:00:00Z',
  counts: { students: 2, submitted: 2, graded: 0 },
  mine: null,
};

const attempt = (id: string, userId: string, text: string) => ({
  id,
  taskId: 't-1',
  userId,
  learnerName: userId,
  status: 'pending' as const,
  score: null,
  credits: {},
  autoScore: null,
  checks: {},
  answers: [{ questionId: 'q', text }],
  comment: '',
  createdAt: '2026-11-22T02:00:00Z',
});

export const SUBMISSIONS: TScheduleSubmission[] = [
  {
    userId: 'p-1',
    username: 'amy',
    name: 'Amy',
    className: '4-1',
    dueAt: TASK.dueAt,
    reopened: false,
    attempts: 1,
    attempt: attempt('a-1', 'p-1', 'A function fitted to data'),
  },
  {
    userId: 'p-2',
    username: 'ben',
    name: 'Ben',
    className: '4-1',
    dueAt: TASK.dueAt,
    reopened: false,
    attempts: 2,
    attempt: attempt('a-2', 'p-2', 'Rules learnt from examples'),
  },
];

/** Answers the schedule calls of a teacher's pages. */
export function serveSchedule(server: FakeServer, detail: TScheduleDetail = DETAIL, tasks: TScheduleTask[] = [TASK]) {
  const api = scheduleApi(detail.id);
  server.on(`GET ${api.base}`, () => ok(detail));
  server.on(`GET ${api.tasks}`, () => ok(tasks));
  server.on(`POST ${api.tasks}`, () => ok(tasks));
  server.on(`POST ${api.start}`, () => ok({ ...detail, status: 'inProgress' }));
  server.on(`POST ${api.finish}`, () => ok({ ...detail, status: 'finished' }));
  server.on(`PUT ${api.base}`, () => ok(detail));
  server.on(`DELETE ${api.base}`, () => ok(null));
  server.on(`GET ${api.statistics}`, () =>
    ok({
      students: 2,
      tasks: [{ id: 'st-1', title: 'Explain', submitted: 2, graded: 1, completion: 100, averageScore: 70 }],
      distribution: ['0-59', '60-69', '70-79', '80-89', '90-100'].map((band) => ({ band, count: 0 })),
      progress: [{ userId: 'p-1', name: 'Amy', progress: 50 }],
    }),
  );
  server.on(`GET ${scheduleTaskApi(TASK.id).submissions}`, () => ok(SUBMISSIONS));
  server.on(`PUT ${scheduleTaskApi(TASK.id).scores}`, () => ok(SUBMISSIONS));
  server.on(`POST ${scheduleTaskApi(TASK.id).reopen}`, () => ok(null));
  server.on(`GET ${SCHEDULE_API.options}`, () =>
    ok({
      teachers: [
        { id: 'u-1', name: 'Teacher One' },
        { id: 'u-2', name: 'Teacher Two' },
      ],
      classes: [{ id: 'class-1', name: '4-1', eduStage: 'primary', grade: 4, stuCount: 2 }],
    }),
  );
  server.on(`GET ${SCHEDULE_API.courseOptions}`, () =>
    ok([
      {
        id: 'c-1',
        name: 'Intro to AI',
        ownerName: 'Teacher One',
        currentVersionId: 'v-2',
        versions: [
          { id: 'v-2', number: 2 },
          { id: 'v-1', number: 1 },
        ],
      },
    ]),
  );
  server.on(`GET ${SCHEDULE_API.studentOptions}`, () => ok([]));
}
