import type { TCriterionScore, TEventAward, TEventEligibility, TEventTrack, TReviewSettings } from '@aiedu/contracts';
import { sql } from 'drizzle-orm';
import {
  boolean,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt, id, updatedAt } from './columns.js';
import { certificateIssuances } from './certificates.js';
import { customers, schools } from './institutions.js';
import { projects, projectVersions } from './projects.js';
import { users } from './users.js';

const at = (name: string) => timestamp(name, { withTimezone: true });

/**
 * An event or contest of a customer (or of the platform, `customer_id` null, made by a super administrator). Its
 * state and phase are never stored: they follow the server's clock against the phase dates.
 */
export const events = pgTable(
  'events',
  {
    id: id(),
    customerId: uuid('customer_id').references(() => customers.id),
    name: text('name').notNull(),
    coverKey: text('cover_key'),
    description: text('description').notNull().default(''),
    tracks: jsonb('tracks').$type<TEventTrack[]>().notNull(),
    registrationStart: at('registration_start').notNull(),
    registrationEnd: at('registration_end').notNull(),
    submissionStart: at('submission_start').notNull(),
    submissionEnd: at('submission_end').notNull(),
    reviewStart: at('review_start').notNull(),
    reviewEnd: at('review_end').notNull(),
    resultsAt: at('results_at').notNull(),
    eligibility: jsonb('eligibility').$type<TEventEligibility>().notNull(),
    teamMin: integer('team_min').notNull().default(1),
    teamMax: integer('team_max').notNull().default(3),
    mentorMin: integer('mentor_min').notNull().default(1),
    mentorMax: integer('mentor_max').notNull().default(2),
    awards: jsonb('awards').$type<TEventAward[]>().notNull().default([]),
    tieRule: text('tie_rule', { enum: ['earlierSubmission', 'shared'] })
      .notNull()
      .default('earlierSubmission'),
    /** The review settings (`ZReviewSettings`), once the organisers set them. */
    review: jsonb('review').$type<TReviewSettings>(),
    /** The review round being judged; the rounds before it are closed. */
    reviewRound: integer('review_round').notNull().default(1),
    resultsPublishedAt: at('results_published_at'),
    organiserId: uuid('organiser_id')
      .notNull()
      .references(() => users.id),
    deletedAt: at('deleted_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('events_customer_idx').on(t.customerId),
    index('events_registration_start_idx').on(t.registrationStart),
  ],
);

/** A team's registration (declaration) for one track of an event, led by the account that created it. */
export const eventRegistrations = pgTable(
  'event_registrations',
  {
    id: id(),
    eventId: uuid('event_id')
      .notNull()
      .references(() => events.id),
    trackId: text('track_id').notNull(),
    teamName: text('team_name').notNull(),
    leaderId: uuid('leader_id')
      .notNull()
      .references(() => users.id),
    /** The leader's customer and school: judges never get works of their own school. */
    customerId: uuid('customer_id').references(() => customers.id),
    schoolId: uuid('school_id').references(() => schools.id),
    state: text('state', { enum: ['inProgress', 'pendingReview', 'passed', 'ended'] })
      .notNull()
      .default('inProgress'),
    refuseReason: text('refuse_reason'),
    submittedAt: at('submitted_at'),
    decidedAt: at('decided_at'),
    decidedBy: uuid('decided_by').references(() => users.id),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('event_registrations_event_idx').on(t.eventId, t.state),
    uniqueIndex('event_registrations_team_name').on(t.eventId, t.teamName),
  ],
);

/**
 * Spec 3's applicant, and the team's mentors: personal data of minors, read only by the team and the event's
 * organisers. `user_id` links a member who has an account (they find the team in "my contests"; one team per
 * event per account).
 */
export const eventTeamMembers = pgTable(
  'event_team_members',
  {
    id: id(),
    registrationId: uuid('registration_id')
      .notNull()
      .references(() => eventRegistrations.id, { onDelete: 'cascade' }),
    eventId: uuid('event_id')
      .notNull()
      .references(() => events.id),
    role: text('role', { enum: ['applicant', 'mentor'] }).notNull(),
    position: integer('position').notNull(),
    userId: uuid('user_id').references(() => users.id),
    name: text('name').notNull(),
    photoKey: text('photo_key'),
    birthday: date('birthday', { mode: 'string' }),
    ethnicity: text('ethnicity').notNull().default(''),
    documentType: text('document_type', { enum: ['idCard', 'hkMacaoPass', 'passport', 'other'] }),
    documentNumber: text('document_number').notNull().default(''),
    school: text('school').notNull().default(''),
    grade: text('grade').notNull().default(''),
    studentNumber: text('student_number').notNull().default(''),
    phone: text('phone').notNull().default(''),
    email: text('email').notNull().default(''),
    qq: text('qq').notNull().default(''),
    wechat: text('wechat').notNull().default(''),
    address: text('address').notNull().default(''),
    district: text('district').notNull().default(''),
  },
  (t) => [
    index('event_team_members_registration_idx').on(t.registrationId),
    /** An account is in at most one team of an event. */
    uniqueIndex('event_team_members_user')
      .on(t.eventId, t.userId)
      .where(sql`${t.userId} is not null`),
  ],
);

/** A team's work in an event. `judge_group` is the review group it was given to. */
export const eventWorks = pgTable(
  'event_works',
  {
    id: id(),
    eventId: uuid('event_id')
      .notNull()
      .references(() => events.id),
    registrationId: uuid('registration_id')
      .notNull()
      .references(() => eventRegistrations.id),
    trackId: text('track_id').notNull(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    tags: jsonb('tags').$type<string[]>().notNull().default([]),
    link: text('link').notNull().default(''),
    coverKey: text('cover_key'),
    videoKey: text('video_key'),
    projectId: uuid('project_id').references(() => projects.id),
    /** The project's version frozen when the work was submitted. */
    projectVersionId: uuid('project_version_id').references(() => projectVersions.id),
    state: text('state', {
      enum: ['DRAFT', 'SUBMITTED', 'PENDING_REVIEW', 'IN_REVIEW', 'AUDITED', 'FAIL', 'CLOSED'],
    })
      .notNull()
      .default('DRAFT'),
    failReason: text('fail_reason'),
    /** The judge group of `reviewRound`, the round the work is in (or the last it reached). */
    judgeGroup: integer('judge_group'),
    reviewRound: integer('review_round').notNull().default(1),
    /** Set when results are published. */
    score: doublePrecision('score'),
    rank: integer('rank'),
    award: text('award'),
    submittedAt: at('submitted_at'),
    createdBy: uuid('created_by')
      .notNull()
      .references(() => users.id),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('event_works_event_idx').on(t.eventId, t.state),
    index('event_works_registration_idx').on(t.registrationId),
    index('event_works_rank_idx').on(t.eventId, t.rank),
  ],
);

/** A judge of an event, in one group of one review round (a judge may score in several rounds). */
export const eventJudges = pgTable(
  'event_judges',
  {
    id: id(),
    eventId: uuid('event_id')
      .notNull()
      .references(() => events.id),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    round: integer('round').notNull().default(1),
    groupNo: integer('group_no').notNull(),
    schoolId: uuid('school_id').references(() => schools.id),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('event_judges_round_user').on(t.eventId, t.round, t.userId),
    index('event_judges_user_idx').on(t.userId),
  ],
);

/** Where a work was in a closed review round: its group, its score there, and whether it went on. */
export const eventWorkRounds = pgTable(
  'event_work_rounds',
  {
    workId: uuid('work_id')
      .notNull()
      .references(() => eventWorks.id),
    round: integer('round').notNull(),
    groupNo: integer('group_no').notNull(),
    score: doublePrecision('score').notNull(),
    advanced: boolean('advanced').notNull(),
  },
  (t) => [primaryKey({ columns: [t.workId, t.round] })],
);

/** One judge's score of one work: final once submitted, unless an organiser reopens it with a reason. */
export const eventScores = pgTable(
  'event_scores',
  {
    id: id(),
    eventId: uuid('event_id')
      .notNull()
      .references(() => events.id),
    workId: uuid('work_id')
      .notNull()
      .references(() => eventWorks.id),
    judgeUserId: uuid('judge_user_id')
      .notNull()
      .references(() => users.id),
    /** The review round the work was scored in. */
    round: integer('round').notNull().default(1),
    scores: jsonb('scores').$type<TCriterionScore[]>().notNull().default([]),
    overall: doublePrecision('overall'),
    total: doublePrecision('total'),
    comment: text('comment').notNull().default(''),
    state: text('state', { enum: ['draft', 'submitted', 'reopened'] })
      .notNull()
      .default('draft'),
    reopenReason: text('reopen_reason'),
    submittedAt: at('submitted_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('event_scores_work_round_judge').on(t.workId, t.round, t.judgeUserId),
    index('event_scores_event_idx').on(t.eventId),
  ],
);

/** The hidden evaluation of an auto-scored track: the organiser's script and answer set (storage keys). */
export const eventEvaluations = pgTable(
  'event_evaluations',
  {
    id: id(),
    eventId: uuid('event_id')
      .notNull()
      .references(() => events.id),
    trackId: text('track_id').notNull(),
    scriptKey: text('script_key').notNull(),
    answersKey: text('answers_key').notNull(),
    answersName: text('answers_name').notNull(),
    updatedBy: uuid('updated_by')
      .notNull()
      .references(() => users.id),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('event_evaluations_track').on(t.eventId, t.trackId)],
);

/**
 * One auto-scoring run of a team's predictions. `day` is the team's day (the organiser's time zone) for the daily
 * limit; runs cancelled or failed by the platform do not count.
 */
export const eventRuns = pgTable(
  'event_runs',
  {
    id: id(),
    eventId: uuid('event_id')
      .notNull()
      .references(() => events.id),
    trackId: text('track_id').notNull(),
    registrationId: uuid('registration_id')
      .notNull()
      .references(() => eventRegistrations.id),
    submittedBy: uuid('submitted_by')
      .notNull()
      .references(() => users.id),
    predictionsKey: text('predictions_key').notNull(),
    state: text('state', { enum: ['queued', 'running', 'scored', 'failed', 'cancelled'] })
      .notNull()
      .default('queued'),
    score: doublePrecision('score'),
    error: text('error'),
    platformFault: boolean('platform_fault').notNull().default(false),
    day: date('day', { mode: 'string' }).notNull(),
    /** The process running it, so a run left by a stopped process is queued again. */
    claimedBy: text('claimed_by'),
    queuedAt: at('queued_at').notNull().defaultNow(),
    startedAt: at('started_at'),
    finishedAt: at('finished_at'),
  },
  (t) => [
    index('event_runs_queue_idx').on(t.state, t.queuedAt),
    index('event_runs_team_idx').on(t.registrationId, t.trackId, t.day),
    index('event_runs_ladder_idx').on(t.eventId, t.trackId, t.state),
  ],
);

/** The certificate issuances made from an event's results, so the results page links them. */
export const eventCertificateIssuances = pgTable('event_certificate_issuances', {
  id: id(),
  eventId: uuid('event_id')
    .notNull()
    .references(() => events.id),
  issuanceId: uuid('issuance_id')
    .notNull()
    .references(() => certificateIssuances.id),
  createdAt: createdAt(),
});
