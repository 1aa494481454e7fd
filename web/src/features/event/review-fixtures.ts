import {
  EVENT_API,
  type TEvent,
  type TJudgingItem,
  type TResultRow,
  type TReviewProgress,
  type TReviewSettingsView,
  type TRunsView,
  type TScore,
  type TWork,
} from '@aiedu/contracts';
import { ok, type FakeServer } from '../../test/fake-api';
import { EVENT as EVENT_PAGE_EVENT } from './event-page-fixtures';

/** An event in its submission phase by the server's clock, years away from the browser's. */
export const EVENT: TEvent = {
  ...EVENT_PAGE_EVENT,
  id: '3c9e1a52-7d1b-4a6f-8f0e-2b5d7c9a1e01',
  name: 'Robots of tomorrow',
  description: 'Build a robot.',
  tracks: [
    { id: 'design', name: 'Design', kind: 'judged', dailyRuns: 5, higherIsBetter: true },
    { id: 'forecast', name: 'Forecast', kind: 'auto', dailyRuns: 3, higherIsBetter: true },
  ],
  phases: {
    registrationStart: '2031-03-01T00:00:00Z',
    registrationEnd: '2031-03-10T00:00:00Z',
    submissionStart: '2031-03-05T00:00:00Z',
    submissionEnd: '2031-03-20T00:00:00Z',
    reviewStart: '2031-03-21T00:00:00Z',
    reviewEnd: '2031-03-28T00:00:00Z',
    resultsAt: '2031-03-30T00:00:00Z',
  },
  eligibility: { customerIds: [], stages: [], grades: [] },
  teamMax: 3,
  mentorMax: 2,
  teamCount: 4,
  workCount: 3,
  // 7 days, 16 hours and 30 seconds before submission closes.
  serverTime: '2031-03-12T07:59:30Z',
  createdAt: '2031-02-01T00:00:00Z',
};

export const AS_TEAM: TEvent = {
  ...EVENT,
  viewer: { ...EVENT.viewer, registrationId: '9b0c6a44-1111-4c1d-8e2f-000000000001' },
};
export const AS_ORGANISER: TEvent = { ...EVENT, phase: 'review', viewer: { ...EVENT.viewer, organiser: true } };
export const AS_JUDGE: TEvent = { ...EVENT, phase: 'review', viewer: { ...EVENT.viewer, judge: true } };

export const WORK: TWork = {
  id: '6f1d2e3c-2222-4b5a-9c8d-000000000001',
  eventId: EVENT.id,
  registrationId: AS_TEAM.viewer.registrationId!,
  teamName: 'Night owls',
  schoolName: 'No. 1 Middle School',
  trackId: 'design',
  name: 'Sorting robot',
  description: 'It sorts rubbish.',
  tags: ['recycling'],
  link: 'https://example.com/robot',
  coverUrl: null,
  coverKey: null,
  hasVideo: false,
  videoKey: null,
  projectId: null,
  projectName: null,
  projectVersion: null,
  state: 'DRAFT',
  failReason: null,
  judgeGroup: null,
  reviewRound: 1,
  score: null,
  rank: null,
  award: null,
  submittedAt: null,
  updatedAt: '2031-03-06T10:00:00Z',
};

export const registration = (trackId: string) => ({
  id: AS_TEAM.viewer.registrationId,
  eventId: EVENT.id,
  trackId,
  teamName: 'Night owls',
  state: 'passed',
});

export const RUNS: TRunsView = {
  runs: [
    {
      id: 'aa000000-0000-4000-8000-000000000001',
      eventId: EVENT.id,
      trackId: 'forecast',
      registrationId: AS_TEAM.viewer.registrationId!,
      teamName: 'Night owls',
      state: 'queued',
      score: null,
      error: null,
      platformFault: false,
      counted: false,
      queuedAt: '2031-03-12T07:00:00Z',
      startedAt: null,
      finishedAt: null,
    },
    {
      id: 'aa000000-0000-4000-8000-000000000002',
      eventId: EVENT.id,
      trackId: 'forecast',
      registrationId: AS_TEAM.viewer.registrationId!,
      teamName: 'Night owls',
      state: 'scored',
      score: 0.875,
      error: null,
      platformFault: false,
      counted: true,
      queuedAt: '2031-03-12T06:00:00Z',
      startedAt: '2031-03-12T06:00:30Z',
      finishedAt: '2031-03-12T06:01:00Z',
    },
  ],
  usedToday: 2,
  dailyRuns: 3,
  best: 0.875,
};

export const SETTINGS: TReviewSettingsView = {
  scoringType: 'criteria',
  criteria: [
    { id: 'idea', name: 'Idea', weight: 2 },
    { id: 'code', name: 'Code', weight: 1 },
  ],
  groupCount: 2,
  judgesPerGroup: 2,
  worksPerGroup: 0,
  rules: 'Score each criterion from 0 to 100.',
  manualKey: null,
  sheetKey: null,
  date: '2031-03-25',
  manualUrl: null,
  sheetUrl: null,
  roundName: '',
  rounds: [],
};

/** The settings of a review in two rounds: the second, "Final", takes the best 2 works of each track. */
export const TWO_ROUNDS: TReviewSettingsView = {
  ...SETTINGS,
  roundName: 'Heats',
  rounds: [{ name: 'Final', advance: 2, groupCount: 1, judgesPerGroup: 3, worksPerGroup: 0 }],
};

export const JUDGE = {
  id: 'bb000000-0000-4000-8000-000000000001',
  userId: 'u-9',
  username: 'judge.zhao',
  realName: 'Zhao Min',
  schoolName: 'No. 2 Middle School',
  group: 1,
  round: 1,
};

export const PROGRESS: TReviewProgress = {
  round: 1,
  currentRound: 1,
  rounds: 1,
  groups: [
    {
      group: 1,
      works: 2,
      done: 1,
      judges: [
        {
          ...JUDGE,
          submitted: 1,
          scores: [
            {
              id: 'cc000000-0000-4000-8000-000000000001',
              workId: WORK.id,
              workName: WORK.name,
              total: 80,
              submittedAt: '2031-03-22T09:00:00Z',
            },
          ],
        },
      ],
    },
  ],
  unassigned: 3,
};

export const ITEM: TJudgingItem = {
  work: { ...WORK, state: 'IN_REVIEW', judgeGroup: 1, submittedAt: '2031-03-15T10:00:00Z' },
  score: null,
  round: 1,
  closed: false,
};

/** The event and the calls every screen of this part makes. */
/** The judge's own score of ITEM: criteria idea and code, submitted unless told otherwise. */
export const scoreOf = (idea: number, code: number, rest: Partial<TScore> = {}): TScore => ({
  id: 's-1',
  workId: ITEM.work.id,
  judgeId: 'j-1',
  judgeName: 'Zhao Min',
  scores: [
    { criterionId: 'idea', score: idea },
    { criterionId: 'code', score: code },
  ],
  overall: null,
  total: null,
  comment: '',
  state: 'submitted',
  reopenReason: null,
  submittedAt: '2031-03-22T09:00:00Z',
  round: 1,
  ...rest,
});

/** A result row of WORK, first with Gold, in round 1 unless told otherwise. */
export const resultRow = (rest: Partial<TResultRow> = {}): TResultRow => ({
  rank: 1,
  workId: WORK.id,
  workName: WORK.name,
  teamName: 'Night owls',
  schoolName: 'No. 1 Middle School',
  trackId: 'design',
  score: 88.5,
  award: 'Gold',
  submittedAt: '2031-03-15T10:00:00Z',
  round: 1,
  ...rest,
});

export function serveEvent(server: FakeServer, event: TEvent) {
  server.on(`GET ${EVENT_API.detail}`, () => ok(event));
}

export const queryOf = (server: FakeServer, path: string, method = 'GET') =>
  new URL(server.to(path).findLast((r) => r.method === method)!.url, 'http://x').searchParams;
