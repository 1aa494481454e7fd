import { EVENT_API, type TEvent, type TRegistration, type TTeamMember } from '@aiedu/contracts';
import { ok, type FakeServer } from '../../test/fake-api';

/** An event in its submission phase by the server's clock (the browser's clock says nothing about it). */
export const EVENT: TEvent = {
  id: '7d6f4a1e-2b2c-4f43-9a55-1f0e6f1d1a01',
  name: 'AI for the city',
  coverUrl: null,
  coverKey: null,
  description: '## Rules\n\nBuild a model. <script>alert(1)</script>',
  tracks: [
    { id: 'vision', name: 'Vision', kind: 'judged', dailyRuns: 5, higherIsBetter: true },
    { id: 'forecast', name: 'Forecast', kind: 'auto', dailyRuns: 3, higherIsBetter: false },
  ],
  phases: {
    registrationStart: '2026-12-01T00:00:00Z',
    registrationEnd: '2026-12-10T00:00:00Z',
    submissionStart: '2026-12-05T00:00:00Z',
    submissionEnd: '2026-12-20T00:00:00Z',
    reviewStart: '2026-12-21T00:00:00Z',
    reviewEnd: '2026-12-28T00:00:00Z',
    resultsAt: '2026-12-30T00:00:00Z',
  },
  eligibility: { customerIds: [], stages: ['junior'], grades: [] },
  teamMin: 1,
  teamMax: 2,
  mentorMin: 1,
  mentorMax: 1,
  awards: [
    { name: 'Gold', count: 1 },
    { name: 'Silver', count: 2 },
  ],
  tieRule: 'earlierSubmission',
  platformWide: false,
  state: 'inProgress',
  phase: 'submission',
  organiserName: 'Demo District',
  teamCount: 14,
  workCount: 9,
  resultsPublished: false,
  viewer: { organiser: false, judge: false, registrationId: null, eligible: true },
  serverTime: '2026-12-12T08:00:00Z',
  createdAt: '2026-11-01T00:00:00Z',
};

export const at = (serverTime: string, more: Partial<TEvent> = {}): TEvent => ({ ...EVENT, serverTime, ...more });

export const page = <T>(list: T[], total = list.length, pageNo = 1) => ok({ list, total, page: pageNo, size: 12 });

export const member = (role: 'applicant' | 'mentor', name: string, more: Partial<TTeamMember> = {}) => ({
  role,
  userId: null,
  name,
  photoKey: null,
  photoUrl: null,
  birthday: null,
  ethnicity: '',
  documentType: null,
  documentNumber: '',
  school: 'No. 1 Middle School',
  grade: '8',
  studentNumber: '',
  phone: '',
  email: '',
  qq: '',
  wechat: '',
  address: '',
  district: '',
  ...more,
});

export const REGISTRATION: TRegistration = {
  id: '5a1b2c3d-0000-4000-8000-000000000001',
  eventId: EVENT.id,
  trackId: 'vision',
  teamName: 'Night owls',
  leaderId: 'u-1',
  leaderName: 'Li Lei',
  schoolName: 'No. 1 Middle School',
  state: 'pendingReview',
  refuseReason: null,
  members: [
    member('applicant', 'Li Lei', { documentType: 'passport', documentNumber: 'E1234567', phone: '13800000000' }),
    member('mentor', 'Ms Wang', { email: 'wang@example.com' }),
  ],
  submittedAt: '2026-12-08T09:00:00Z',
  decidedAt: null,
  createdAt: '2026-12-02T09:00:00Z',
  updatedAt: '2026-12-08T09:00:00Z',
};

/** The event calls of these screens, answered with the event above unless a test says otherwise. */
export function serveEvents(server: FakeServer, event: TEvent = EVENT) {
  server.on(`GET ${EVENT_API.events}`, () => page([event]));
  server.on(`GET ${EVENT_API.detail}`, () => ok(event));
  server.on(`GET ${EVENT_API.registration}`, () => ok(null));
}

export const queryOf = (server: FakeServer, path: string) =>
  new URL(server.to(path).at(-1)!.url, 'http://x').searchParams;
