import type { Db } from '../platform/db/client.js';
import {
  eventJudges,
  eventRegistrations,
  eventRuns,
  events,
  eventScores,
  eventTeamMembers,
  eventWorks,
} from '../platform/db/schema/index.js';
import { TRACKS } from '../modules/event/event-test-world.js';

const DAY = 86_400_000;

/** Every table the events module writes: none may change when another customer's caller names its objects. */
export const EVENT_TABLES = [
  'events',
  'event_registrations',
  'event_team_members',
  'event_works',
  'event_judges',
  'event_scores',
  'event_evaluations',
  'event_runs',
  'event_certificate_issuances',
];

/**
 * A customer's own event (not platform-wide, open to its own users only) with a judged and an auto-scored track,
 * registration and submission open now, so that any step a caller wrongly reached would succeed: a passed team
 * (the student leads, the teacher mentors), its submitted work with a video, a judge with a submitted score of it,
 * and a queued run of the team on the auto-scored track.
 */
export async function buildEventTargets(
  db: Db,
  people: { customerId: string; schoolId: string; organiserId: string; teacherId: string; studentId: string },
) {
  const { customerId, schoolId, organiserId, teacherId, studentId } = people;
  const now = Date.now();
  const days = (n: number) => new Date(now + n * DAY);
  const [event] = await db
    .insert(events)
    .values({
      customerId,
      name: 'Their contest',
      tracks: TRACKS,
      registrationStart: days(-2),
      registrationEnd: days(5),
      submissionStart: days(-1),
      submissionEnd: days(6),
      reviewStart: days(7),
      reviewEnd: days(8),
      resultsAt: days(9),
      eligibility: { customerIds: [], stages: [], grades: [] },
      awards: [{ name: 'Gold', count: 1 }],
      review: { scoringType: 'overall', groupCount: 1, judgesPerGroup: 1 },
      organiserId,
    })
    .returning();
  const eventId = event!.id;
  const [registration] = await db
    .insert(eventRegistrations)
    .values({
      eventId,
      trackId: 'ai',
      teamName: 'Their team',
      leaderId: studentId,
      customerId,
      schoolId,
      state: 'passed',
      submittedAt: days(-1),
      decidedAt: days(-1),
    })
    .returning();
  const registrationId = registration!.id;
  await db.insert(eventTeamMembers).values([
    { registrationId, eventId, position: 0, role: 'applicant', userId: studentId, name: 'Their student' },
    { registrationId, eventId, position: 1, role: 'mentor', userId: teacherId, name: 'Their teacher' },
  ]);
  const [work] = await db
    .insert(eventWorks)
    .values({
      eventId,
      registrationId,
      trackId: 'ai',
      name: 'Their work',
      videoKey: 'event-videos/theirs.mp4',
      state: 'SUBMITTED',
      submittedAt: days(-1),
      createdBy: studentId,
    })
    .returning();
  const [judge] = await db.insert(eventJudges).values({ eventId, userId: teacherId, groupNo: 1, schoolId }).returning();
  const [score] = await db
    .insert(eventScores)
    .values({
      eventId,
      workId: work!.id,
      judgeUserId: teacherId,
      overall: 80,
      total: 80,
      state: 'submitted',
      submittedAt: days(-1),
    })
    .returning();
  const [run] = await db
    .insert(eventRuns)
    .values({
      eventId,
      trackId: 'iris',
      registrationId,
      submittedBy: studentId,
      predictionsKey: 'event-runs/theirs.csv',
      day: days(0).toISOString().slice(0, 10),
    })
    .returning();
  return {
    event: eventId,
    eventRegistration: registrationId,
    eventWork: work!.id,
    eventJudge: judge!.id,
    eventScore: score!.id,
    eventRun: run!.id,
  };
}
