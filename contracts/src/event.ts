import { z } from 'zod';
import { EDU_STAGES } from './institution.js';
import { required, text } from './event-fields.js';
import { ZListQuery } from './user.js';

/**
 * Events and contests (spec 1, 2, 3, 4, 5, 6 and 9): organisers publish an event with tracks and dated phases; teams
 * register with applicants and mentors and pass a qualification audit; they submit works before a deadline the
 * server's clock enforces; judges in groups score the works they are given; organisers publish a ranking with
 * awards and give the winners certificates. Auto-scored tracks run the organiser's evaluation script on a team's
 * predictions and keep a ladder of personal bests.
 */

const MB = 1024 * 1024;

export const EVENT_LIMITS = {
  name: 100,
  description: 20_000,
  trackName: 50,
  tracks: 10,
  teamName: 50,
  /** Applicants and mentors of one team, whatever the event allows. */
  teamMax: 10,
  mentorMax: 5,
  workName: 100,
  workDescription: 2000,
  tags: 10,
  tag: 20,
  link: 500,
  reason: 200,
  comment: 1000,
  criteria: 10,
  criterionName: 50,
  awards: 10,
  awardName: 30,
  rules: 5000,
  /** Review rounds after the first (spec 9: scoring rounds have groups). */
  laterRounds: 4,
  roundName: 30,
  /** Spec 5: event images and covers under 10 MB, the declaration photo under 2 MB, video MP4 under 500 MB. */
  imageBytes: 10 * MB,
  photoBytes: 2 * MB,
  videoBytes: 500 * MB,
  /** Spec 5: the review sheet PDF up to 500 MB; the judges' manual is a PDF of the same limit. */
  sheetBytes: 500 * MB,
  /** The evaluation script and the hidden answer set of an auto-scored track. */
  scriptBytes: 1 * MB,
  answersBytes: 50 * MB,
  /** A team's predictions file. */
  predictionsBytes: 50 * MB,
  /** Spec 9: the ladder shows the top 50 by personal best. */
  ladder: 50,
  dailyRunsMax: 100,
} as const;

/** Spec 4: events are not started, in progress or ended, by the server's clock. */
export const EVENT_STATES = ['notStarted', 'inProgress', 'ended'] as const;
export type EventState = (typeof EVENT_STATES)[number];
/** The phase an event is in, by the server's clock: the last one whose start has passed (`before` until registration opens). */
export const EVENT_PHASES = ['before', 'registration', 'submission', 'review', 'results'] as const;
export type EventPhase = (typeof EVENT_PHASES)[number];

/**
 * Spec 4: a team's registration is in progress (being filled, or corrected after a refusal), pending review (sent to
 * the organisers), passed, or ended (refused for good, withdrawn, or never sent before registration closed).
 */
export const REGISTRATION_STATES = ['inProgress', 'pendingReview', 'passed', 'ended'] as const;
export type RegistrationState = (typeof REGISTRATION_STATES)[number];

/**
 * Spec 3/4's work states: DRAFT → SUBMITTED (the team sent it) → PENDING_REVIEW (the organisers accepted it for
 * review) → IN_REVIEW (given to a judge group) → AUDITED (every judge of its group scored it) or FAIL (refused with
 * a reason); an AUDITED work among a closed round's best is IN_REVIEW again, in the next round's groups; CLOSED (withdrawn, or a draft left when submission closed).
 */
export const WORK_STATES = ['DRAFT', 'SUBMITTED', 'PENDING_REVIEW', 'IN_REVIEW', 'AUDITED', 'FAIL', 'CLOSED'] as const;
export type WorkState = (typeof WORK_STATES)[number];

/** Every legal move of a work; anything else is refused with 4503. */
export const WORK_TRANSITIONS: Record<WorkState, readonly WorkState[]> = {
  DRAFT: ['SUBMITTED', 'CLOSED'],
  SUBMITTED: ['DRAFT', 'PENDING_REVIEW', 'FAIL', 'CLOSED'],
  PENDING_REVIEW: ['IN_REVIEW', 'FAIL', 'CLOSED'],
  IN_REVIEW: ['AUDITED', 'FAIL', 'PENDING_REVIEW'],
  /** Only when the organisers close a review round and the work is among its best: into the next round's groups. */
  AUDITED: ['IN_REVIEW'],
  FAIL: [],
  CLOSED: [],
};

export function canMoveWork(from: WorkState, to: WorkState): boolean {
  return WORK_TRANSITIONS[from].includes(to);
}

export const DOCUMENT_TYPES = ['idCard', 'hkMacaoPass', 'passport', 'other'] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];
export const TEAM_ROLES = ['applicant', 'mentor'] as const;
export type TeamRole = (typeof TEAM_ROLES)[number];

/** How judges score: per criterion with weights (the total is the weighted mean), or one overall score. */
export const SCORING_TYPES = ['criteria', 'overall'] as const;
export type ScoringType = (typeof SCORING_TYPES)[number];
/**
 * How ties in the ranking are broken, stated on the results page: by the earlier submission, or shared ranks
 * (1, 1, 3).
 */
export const TIE_RULES = ['earlierSubmission', 'shared'] as const;
export type TieRule = (typeof TIE_RULES)[number];
/** A track is scored by judges, or automatically by the organiser's evaluation script. */
export const TRACK_KINDS = ['judged', 'auto'] as const;
export type TrackKind = (typeof TRACK_KINDS)[number];
/** A judge's score: saved while being written, submitted (final), or reopened by an organiser. */
export const SCORE_STATES = ['draft', 'submitted', 'reopened'] as const;
export type ScoreState = (typeof SCORE_STATES)[number];
/** An auto-scoring run; `cancelled` and platform failures never count against the daily limit. */
export const EVENT_RUN_STATES = ['queued', 'running', 'scored', 'failed', 'cancelled'] as const;
export type EventRunState = (typeof EVENT_RUN_STATES)[number];

/** Event API paths. Lists answer `ZPage`; ids travel as query parameters, as the rest of the API does. */
export const EVENT_API = {
  /** GET public list (`ZEventListQuery`, no sign-in); POST create, PUT update (`id` in the body), DELETE `?eventId` (organisers). */
  events: '/api/v1/event',
  /** GET `?eventId`: one event, public. */
  detail: '/api/v1/event/detail',
  /** GET: the caller's contests: as a team member, a judge or an organiser. */
  mine: '/api/v1/event/mine',
  /** POST multipart `file` (JPG/PNG ≤ 10 MB): an event cover or image; answers `ZEventImage`. */
  uploadImage: '/api/v1/event/uploadImage',
  /** GET `?key`: an uploaded event file (covers public; others to those who may see them). */
  file: '/api/v1/event/file',

  /** GET `?eventId`: the caller's team registration (or null). POST `ZSaveRegistration` creates or updates it while in progress. */
  registration: '/api/v1/event/registration',
  /** PUT `?registrationId`: sends the registration for the qualification audit (→ pendingReview). */
  registrationSubmit: '/api/v1/event/registration/submit',
  /** PUT `?registrationId`: the team withdraws (→ ended). */
  registrationWithdraw: '/api/v1/event/registration/withdraw',
  /** POST multipart `file` (JPG/PNG ≤ 2 MB): a declaration photo; answers `ZEventImage`. */
  uploadPhoto: '/api/v1/event/registration/uploadPhoto',

  /** GET `?eventId&state`: registrations for the organisers' qualification audit (full applicant data). */
  qualification: '/api/v1/event/qualification',
  /** POST `ZQualificationDecision`. */
  qualificationDecide: '/api/v1/event/qualification/decide',

  /** GET `?eventId`: the caller's team's works. POST `ZSaveWork` creates, PUT `ZSaveWork & { id }` updates a draft. */
  works: '/api/v1/event/work',
  /** GET `?workId`: one work (its team, its judges, organisers; anyone once results are published and it placed). */
  workDetail: '/api/v1/event/work/detail',
  /** PUT `?workId`: DRAFT → SUBMITTED, freezing the attached project's snapshot. */
  workSubmit: '/api/v1/event/work/submit',
  /** PUT `?workId`: SUBMITTED → DRAFT, while submission is open. */
  workRecall: '/api/v1/event/work/recall',
  /** PUT `?workId`: the team withdraws its work (→ CLOSED). */
  workWithdraw: '/api/v1/event/work/withdraw',
  /** POST multipart `file`: a work's cover (JPG/PNG ≤ 10 MB). The video goes through the tus uploads (`kind: eventVideo`). */
  uploadWorkCover: '/api/v1/event/work/uploadCover',
  /** GET `?workId`: the work's video, with range requests, to play in the browser. */
  workVideo: '/api/v1/event/work/video',
  /**
   * Resumable (tus) uploads of a work's video (MP4 ≤ 500 MB): `workId` in the Upload-Metadata header; the finished
   * upload becomes the draft's video and its storage key is answered in the `x-video-key` header.
   */
  workVideoUploads: '/api/v1/event/work/videoUploads',
  /** GET `?eventId&state&trackId`: every work of an event (organisers). */
  workAdmin: '/api/v1/event/work/admin',
  /** POST `ZWorkAuditDecision`: organisers accept a submitted work for review or refuse it with a reason. */
  workAudit: '/api/v1/event/work/audit',

  /** GET / PUT `ZReviewSettings` `?eventId`. */
  reviewSettings: '/api/v1/event/review/settings',
  /** POST multipart `file` `?eventId&kind=manual|sheet`: the judges' manual or the review sheet (PDF). */
  uploadReviewFile: '/api/v1/event/review/uploadFile',
  /** GET `?eventId` the judges; POST `ZAddJudge`; DELETE `?judgeId`. */
  judges: '/api/v1/event/judge',
  /** POST `?eventId`: gives every PENDING_REVIEW work to a judge group, evenly, never to a judge of its own school. */
  assign: '/api/v1/event/review/assign',
  /** GET `?eventId&round`: per judge group of a round (the current one by default), works given, scores submitted, judges. */
  progress: '/api/v1/event/review/progress',
  /** POST `ZCloseRound`: closes the current round; its best works of each track go on to the next round's groups. */
  closeRound: '/api/v1/event/review/closeRound',
  /** PUT `?scoreId` with `{ reason }`: an organiser reopens one judge's submitted score (logged). */
  reopenScore: '/api/v1/event/review/reopen',

  /** GET `?eventId`: the works given to the caller as a judge, with their own scores. */
  judging: '/api/v1/event/judging',
  /** PUT `ZSaveScore`: saves a draft score. */
  score: '/api/v1/event/judging/score',
  /** POST `ZSaveScore`: submits a score: final. */
  scoreSubmit: '/api/v1/event/judging/submit',

  /** POST `ZPublishResults`: ranks the audited works and gives the awards; GET `?eventId` the published results. */
  results: '/api/v1/event/results',
  /** POST `ZEventCertificates`: one certificate issuance for the award winners. */
  certificates: '/api/v1/event/results/certificates',

  /**
   * PUT `?eventId&trackId` multipart `script` and `answers`: the evaluation of an auto-scored track (organisers; both
   * the first time, either one later); GET `?eventId&trackId` whether it is set (`ZEventEvaluation` or null).
   */
  evaluation: '/api/v1/event/evaluation',
  /** GET `?eventId&trackId` the team's runs; POST multipart `file` (predictions) `?eventId&trackId`, or `{ projectId, path }`. */
  runs: '/api/v1/event/run',
  /** PUT `?runId`: cancels a queued run (it does not count). */
  runCancel: '/api/v1/event/run/cancel',
  /** GET `ZEventRunsQuery`: every team's runs of an auto-scored track, with how many are in each state (organisers). */
  runsAll: '/api/v1/event/run/all',
  /** GET `?eventId&trackId`: the top 50 teams by personal best, public. */
  ladder: '/api/v1/event/ladder',
} as const;

export const ZEventTrack = z.object({
  /** Stable within the event: works, runs and judges' groups name it. */
  id: z.string().regex(/^[a-z0-9-]{1,40}$/),
  name: required(EVENT_LIMITS.trackName),
  kind: z.enum(TRACK_KINDS),
  /** Auto-scored tracks: runs a team may count per day (the customer's time zone). */
  dailyRuns: z.number().int().min(1).max(EVENT_LIMITS.dailyRunsMax).default(5),
  /** Auto-scored tracks: whether a larger score is better (accuracy) or a smaller one (error). */
  higherIsBetter: z.boolean().default(true),
});
export type TEventTrack = z.infer<typeof ZEventTrack>;

/** The phases' dates (ISO instants). Each starts no earlier than the previous one ends. */
export const ZEventPhases = z
  .object({
    registrationStart: z.iso.datetime({ offset: true }),
    registrationEnd: z.iso.datetime({ offset: true }),
    submissionStart: z.iso.datetime({ offset: true }),
    submissionEnd: z.iso.datetime({ offset: true }),
    reviewStart: z.iso.datetime({ offset: true }),
    reviewEnd: z.iso.datetime({ offset: true }),
    resultsAt: z.iso.datetime({ offset: true }),
  })
  .refine(
    (p) => {
      const order = [
        p.registrationStart,
        p.registrationEnd,
        p.submissionEnd,
        p.reviewStart,
        p.reviewEnd,
        p.resultsAt,
      ].map((d) => Date.parse(d));
      return (
        order.every((t, i) => i === 0 || t >= order[i - 1]!) &&
        Date.parse(p.submissionStart) >= Date.parse(p.registrationStart) &&
        Date.parse(p.submissionStart) <= Date.parse(p.submissionEnd)
      );
    },
    { message: 'phases in order: registration, submission, review, results' },
  );
export type TEventPhases = z.infer<typeof ZEventPhases>;

/** An instant as the server holds it (a Date) or as the API answers it (an ISO string). */
type Instant = Date | string;
const msOf = (t: Instant) => (typeof t === 'string' ? Date.parse(t) : t.getTime());
export type EventDates = Record<keyof TEventPhases, Instant>;

/**
 * Spec 4's state and the phase at an instant: the server's clock for the server, the answer's `serverTime` for the
 * screens, by the same rules. Not started before registration opens, ended once the results are due; the phase is
 * the last one whose start has passed (submission may open while registration still is: it wins then).
 */
export function eventStateAt(dates: EventDates, now: Instant): EventState {
  if (msOf(now) < msOf(dates.registrationStart)) return 'notStarted';
  return msOf(now) >= msOf(dates.resultsAt) ? 'ended' : 'inProgress';
}

export function eventPhaseAt(dates: EventDates, now: Instant): EventPhase {
  const t = msOf(now);
  if (t >= msOf(dates.resultsAt)) return 'results';
  if (t >= msOf(dates.reviewStart)) return 'review';
  if (t >= msOf(dates.submissionStart)) return 'submission';
  if (t >= msOf(dates.registrationStart)) return 'registration';
  return 'before';
}

/** Whether `now` is within [start, end): registration, submission or review open. */
export function openAt(start: Instant, end: Instant, now: Instant): boolean {
  return msOf(now) >= msOf(start) && msOf(now) < msOf(end);
}

/** Who may take part: empty lists mean anyone of the organiser's scope. */
export const ZEventEligibility = z.object({
  customerIds: z.array(z.uuid()).max(200).default([]),
  stages: z.array(z.enum(EDU_STAGES)).max(EDU_STAGES.length).default([]),
  /** Grades within the stage, 1-based. */
  grades: z.array(z.number().int().min(1).max(12)).max(12).default([]),
});
export type TEventEligibility = z.infer<typeof ZEventEligibility>;

export const ZEventAward = z.object({
  name: required(EVENT_LIMITS.awardName),
  /** How many ranks, from the top, get it after the awards above it. */
  count: z.number().int().min(0).max(1000),
});
export type TEventAward = z.infer<typeof ZEventAward>;

export const ZEventFields = z.object({
  name: required(EVENT_LIMITS.name),
  coverKey: z.string().max(300).nullable(),
  description: text(EVENT_LIMITS.description).describe('Markdown').default(''),
  tracks: z.array(ZEventTrack).min(1).max(EVENT_LIMITS.tracks),
  phases: ZEventPhases,
  eligibility: ZEventEligibility.default({ customerIds: [], stages: [], grades: [] }),
  /** Applicants per team. */
  teamMin: z.number().int().min(1).max(EVENT_LIMITS.teamMax).default(1),
  teamMax: z.number().int().min(1).max(EVENT_LIMITS.teamMax).default(3),
  /** Spec 5: mentor count within the event's min and max; at least one mentor. */
  mentorMin: z.number().int().min(1).max(EVENT_LIMITS.mentorMax).default(1),
  mentorMax: z.number().int().min(1).max(EVENT_LIMITS.mentorMax).default(2),
  /** The awards in order, e.g. first / second / third / honourable mention, or the event's own. */
  awards: z.array(ZEventAward).max(EVENT_LIMITS.awards).default([]),
  tieRule: z.enum(TIE_RULES).default('earlierSubmission'),
  /** Platform-wide events (super administrators) are open to every customer the eligibility names. */
  platformWide: z.boolean().default(false),
});
export const ZCreateEventRequest = ZEventFields.refine((e) => e.teamMin <= e.teamMax, {
  message: 'teamMin ≤ teamMax',
  path: ['teamMax'],
}).refine((e) => e.mentorMin <= e.mentorMax, { message: 'mentorMin ≤ mentorMax', path: ['mentorMax'] });
export type TCreateEventRequest = z.input<typeof ZCreateEventRequest>;
export const ZUpdateEventRequest = ZEventFields.extend({ id: z.uuid() })
  .refine((e) => e.teamMin <= e.teamMax, { message: 'teamMin ≤ teamMax', path: ['teamMax'] })
  .refine((e) => e.mentorMin <= e.mentorMax, { message: 'mentorMin ≤ mentorMax', path: ['mentorMax'] });
export type TUpdateEventRequest = z.input<typeof ZUpdateEventRequest>;

export const ZEventListQuery = ZListQuery.extend({
  state: z.enum(EVENT_STATES).optional(),
  /** A track's name, matched exactly. */
  track: z.string().trim().max(EVENT_LIMITS.trackName).optional(),
  stage: z.enum(EDU_STAGES).optional(),
});
export type TEventListQuery = z.input<typeof ZEventListQuery>;

/** An event as lists and its detail page show it; `state` and `phase` follow the server's clock. */
export const ZEvent = z.object({
  id: z.string(),
  name: z.string(),
  coverUrl: z.string().nullable(),
  coverKey: z.string().nullable(),
  description: z.string(),
  tracks: z.array(ZEventTrack),
  phases: ZEventPhases,
  eligibility: ZEventEligibility,
  teamMin: z.number().int(),
  teamMax: z.number().int(),
  mentorMin: z.number().int(),
  mentorMax: z.number().int(),
  awards: z.array(ZEventAward),
  tieRule: z.enum(TIE_RULES),
  platformWide: z.boolean(),
  state: z.enum(EVENT_STATES),
  phase: z.enum(EVENT_PHASES),
  organiserName: z.string().describe('the customer, or the platform for platform-wide events'),
  teamCount: z.number().int(),
  workCount: z.number().int(),
  resultsPublished: z.boolean(),
  /** What the caller may do here. */
  viewer: z.object({
    organiser: z.boolean(),
    judge: z.boolean(),
    registrationId: z.string().nullable(),
    eligible: z.boolean(),
  }),
  /** The server's time when answering, so screens count down by the server's clock. */
  serverTime: z.string(),
  createdAt: z.string(),
});
export type TEvent = z.infer<typeof ZEvent>;

export const ZEventImage = z.object({ key: z.string(), url: z.string() });
export type TEventImage = z.infer<typeof ZEventImage>;

/** One of the caller's contests, with the parts they play in it. */
export const ZMyContest = z.object({
  event: ZEvent.omit({ viewer: true }),
  roles: z.array(z.enum(['team', 'judge', 'organiser'])),
  registrationState: z.enum(REGISTRATION_STATES).nullable(),
  rank: z.number().int().nullable(),
  award: z.string().nullable(),
});
export type TMyContest = z.infer<typeof ZMyContest>;
