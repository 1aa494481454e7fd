import { z } from 'zod';
import { required, text } from './event-fields.js';
import { EVENT_LIMITS, EVENT_RUN_STATES, SCORE_STATES, SCORING_TYPES, TIE_RULES } from './event.js';
import { ZWork } from './event-team.js';

/** Event review: settings, judges, assignment progress, judging, results and certificates, auto-scored runs and the ladder. */

export const ZCriterion = z.object({
  id: z.string().regex(/^[a-z0-9-]{1,40}$/),
  name: required(EVENT_LIMITS.criterionName),
  /** Weights are relative: the total is Σ(score × weight) / Σ weight. */
  weight: z.number().min(0.1).max(100),
});
export type TCriterion = z.infer<typeof ZCriterion>;

/** A review round's judge groups: how many, how many judges each, and the most works one group is given. */
const ZRoundGroups = z.object({
  groupCount: z.number().int().min(1).max(100),
  judgesPerGroup: z.number().int().min(1).max(20),
  /** The most works one group is given; 0 for no limit. */
  worksPerGroup: z.number().int().min(0).max(10_000).default(0),
});

/**
 * A review round after the first (spec 9: scoring rounds have groups). When the organisers close the round before
 * it, the best `advance` works of each track (by that round's scores and the event's tie rule) go on to this
 * round's own judge groups, assigned as in the first round.
 */
export const ZReviewRound = z.object({
  name: text(EVENT_LIMITS.roundName).default(''),
  /** How many works of each track go on from the round before. */
  advance: z.number().int().min(1).max(10_000),
  ...ZRoundGroups.shape,
});
export type TReviewRound = z.input<typeof ZReviewRound>;

/** The reasons a refusal of the review rounds carries with 4503 (`data.reason`), so the screens can word each. */
export const ROUND_REFUSALS = {
  roundsRemain: 'review rounds remain',
  roundClosed: 'round closed',
  noLaterRound: 'no later round',
  closedRoundRemoved: 'a closed round removed',
} as const;
export type RoundRefusal = keyof typeof ROUND_REFUSALS;

/** The first round's groups are the settings' own `groupCount`, `judgesPerGroup` and `worksPerGroup`. */
export const ZReviewSettings = z.object({
  scoringType: z.enum(SCORING_TYPES),
  criteria: z.array(ZCriterion).max(EVENT_LIMITS.criteria).default([]),
  /** Round 1's groups. */
  ...ZRoundGroups.shape,
  rules: text(EVENT_LIMITS.rules).default(''),
  manualKey: z.string().max(300).nullable().default(null),
  sheetKey: z.string().max(300).nullable().default(null),
  /** Spec 3's review date: when judges are expected to be done. */
  date: z.iso.date().nullable().default(null),
  /** The first round's name, shown to judges and on the results ('' for "Round 1"). */
  roundName: text(EVENT_LIMITS.roundName).default(''),
  /** The rounds after the first, in order; none for a single review. */
  rounds: z.array(ZReviewRound).max(EVENT_LIMITS.laterRounds).default([]),
});
export type TReviewSettings = z.input<typeof ZReviewSettings>;
export const ZReviewSettingsView = ZReviewSettings.extend({
  manualUrl: z.string().nullable(),
  sheetUrl: z.string().nullable(),
});
export type TReviewSettingsView = z.infer<typeof ZReviewSettingsView>;

export const ZAddJudge = z.object({
  eventId: z.uuid(),
  /** A user of the organiser's scope, by username. */
  username: required(50),
  group: z.number().int().min(1).max(100),
  /** The review round the judge scores in (1 is the first). */
  round: z
    .number()
    .int()
    .min(1)
    .max(EVENT_LIMITS.laterRounds + 1)
    .default(1),
});
export type TAddJudge = z.input<typeof ZAddJudge>;
export const ZJudge = z.object({
  id: z.string(),
  userId: z.string(),
  username: z.string(),
  realName: z.string(),
  schoolName: z.string(),
  group: z.number().int(),
  round: z.number().int(),
});
export type TJudge = z.infer<typeof ZJudge>;

/** One submitted score as the organisers' progress view lists it, so they can reopen it. */
export const ZSubmittedScore = z.object({
  id: z.string(),
  workId: z.string(),
  workName: z.string(),
  total: z.number().nullable(),
  submittedAt: z.string().nullable(),
});
export type TSubmittedScore = z.infer<typeof ZSubmittedScore>;
export const ZGroupProgress = z.object({
  group: z.number().int(),
  judges: z.array(
    ZJudge.extend({
      submitted: z.number().int(),
      /** The judge's submitted scores in this group (their ids are what `reopenScore` takes). */
      scores: z.array(ZSubmittedScore).optional(),
    }),
  ),
  works: z.number().int(),
  /** Works every judge of the group has scored. */
  done: z.number().int(),
});
export const ZReviewProgress = z.object({
  /** The round these groups are of. */
  round: z.number().int(),
  /** The round being judged now; the rounds before it are closed. */
  currentRound: z.number().int(),
  /** How many rounds the review has (1 + the later rounds). */
  rounds: z.number().int(),
  groups: z.array(ZGroupProgress),
  unassigned: z.number().int().describe('PENDING_REVIEW works not yet given to a group'),
});
export const ZReviewProgressQuery = z.object({
  eventId: z.uuid(),
  /** The round to show; the current one when absent. */
  round: z.coerce
    .number()
    .int()
    .min(1)
    .max(EVENT_LIMITS.laterRounds + 1)
    .optional(),
});
export type TReviewProgress = z.infer<typeof ZReviewProgress>;

export const ZCriterionScore = z.object({ criterionId: z.string(), score: z.number().min(0).max(100) });
export type TCriterionScore = z.infer<typeof ZCriterionScore>;
/** Spec 5: scores 0–100; criteria scoring needs every criterion, overall scoring one `overall`. */
export const ZSaveScore = z.object({
  workId: z.uuid(),
  scores: z.array(ZCriterionScore).max(EVENT_LIMITS.criteria).default([]),
  overall: z.number().min(0).max(100).nullable().default(null),
  comment: text(EVENT_LIMITS.comment).default(''),
});
export type TSaveScore = z.input<typeof ZSaveScore>;

export const ZScore = z.object({
  id: z.string(),
  workId: z.string(),
  judgeId: z.string(),
  judgeName: z.string(),
  scores: z.array(ZCriterionScore),
  overall: z.number().nullable(),
  total: z.number().nullable(),
  comment: z.string(),
  state: z.enum(SCORE_STATES),
  reopenReason: z.string().nullable(),
  submittedAt: z.string().nullable(),
  /** The review round it was given in. */
  round: z.number().int(),
});
export type TScore = z.infer<typeof ZScore>;

/** A work as its judge sees it: no team member's personal data, only the work and the judge's own score. */
export const ZJudgingItem = z.object({
  work: ZWork.omit({ registrationId: true, teamName: true, schoolName: true, score: true, rank: true, award: true }),
  score: ZScore.nullable(),
  /** The round the judge was given it in: a work that went on is listed once per round its judge scores in. */
  round: z.number().int(),
  /** Whether that round is closed: its scores can no longer change. */
  closed: z.boolean(),
});
export type TJudgingItem = z.infer<typeof ZJudgingItem>;

export const ZPublishResults = z.object({ eventId: z.uuid() });
/** Closing the current round: its best works go on to the next round's groups. */
export const ZCloseRound = z.object({ eventId: z.uuid() });
export const ZCloseRoundResult = z.object({
  /** The round closed. */
  round: z.number().int(),
  /** The works that went on to the next round, and those whose review ended in the closed round. */
  advanced: z.number().int(),
  stayed: z.number().int(),
});
export const ZResultRow = z.object({
  rank: z.number().int(),
  workId: z.string(),
  workName: z.string(),
  teamName: z.string(),
  schoolName: z.string(),
  trackId: z.string(),
  score: z.number(),
  award: z.string().nullable(),
  submittedAt: z.string(),
  /** The last review round the work reached: works of a later round rank above those of an earlier one. */
  round: z.number().int(),
});
export type TResultRow = z.infer<typeof ZResultRow>;
export const ZEventResults = z.object({
  eventId: z.string(),
  tieRule: z.enum(TIE_RULES),
  publishedAt: z.string(),
  /** How many review rounds the event has, and their names ('' for "Round n"). */
  rounds: z.array(z.string()),
  rows: z.array(ZResultRow),
});
export type TEventResults = z.infer<typeof ZEventResults>;

export const ZEventCertificates = z.object({
  eventId: z.uuid(),
  certId: z.uuid(),
  /** The awards whose winners get it; every award when empty. */
  awards: z.array(z.string()).max(EVENT_LIMITS.awards).default([]),
  /** Mentors too, or applicants only. */
  includeMentors: z.boolean().default(false),
});
export type TEventCertificates = z.input<typeof ZEventCertificates>;
export const ZEventCertificatesResult = z.object({
  certIssId: z.string(),
  holders: z.number().int(),
  /** One issuance per award: the award, its issuance and how many holders it has. */
  issuances: z.array(z.object({ award: z.string(), certIssId: z.string(), holders: z.number().int() })).optional(),
});

export const ZRun = z.object({
  id: z.string(),
  eventId: z.string(),
  trackId: z.string(),
  registrationId: z.string(),
  teamName: z.string(),
  state: z.enum(EVENT_RUN_STATES),
  score: z.number().nullable(),
  /** Why it failed, for the team: the script's last error line, or the platform's reason. */
  error: z.string().nullable(),
  /** Failed by the platform (timeout of the sandbox, runtime missing): not counted against the daily limit. */
  platformFault: z.boolean(),
  counted: z.boolean(),
  queuedAt: z.string(),
  /** When a sandbox took it up; null while it waits (and for one cancelled before). */
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
});
export type TRun = z.infer<typeof ZRun>;
export const ZRunFromProject = z.object({ projectId: z.uuid(), path: z.string().min(1).max(500) });
export const ZRunsView = z.object({
  runs: z.array(ZRun),
  usedToday: z.number().int(),
  dailyRuns: z.number().int(),
  best: z.number().nullable(),
});
export type TRunsView = z.infer<typeof ZRunsView>;
/** The organisers' list of a track's runs: newest first, of one state or all. */
export const ZEventRunsQuery = z.object({
  eventId: z.uuid(),
  trackId: z.string().min(1).max(40),
  state: z.enum(EVENT_RUN_STATES).optional(),
  page: z.coerce.number().int().min(1).default(1),
  size: z.coerce.number().int().min(1).max(100).default(20),
});
export const ZEventRunsPage = z.object({
  list: z.array(ZRun),
  total: z.number().int(),
  page: z.number().int(),
  size: z.number().int(),
  /** The track's runs in each state, whatever the state asked for: the queue at a glance. */
  counts: z.record(z.enum(EVENT_RUN_STATES), z.number().int()),
});
export type TEventRunsPage = z.infer<typeof ZEventRunsPage>;

export const ZLadderRow = z.object({
  rank: z.number().int(),
  registrationId: z.string(),
  teamName: z.string(),
  schoolName: z.string(),
  best: z.number(),
  runs: z.number().int(),
  bestAt: z.string(),
});
export type TLadderRow = z.infer<typeof ZLadderRow>;
export const ZLadder = z.object({ trackId: z.string(), higherIsBetter: z.boolean(), rows: z.array(ZLadderRow) });
export type TLadder = z.infer<typeof ZLadder>;

/** A track of an event, as the run, evaluation and ladder calls name it. */
export const ZEventTrackQuery = z.object({ eventId: z.uuid(), trackId: z.string().min(1).max(40) });
/** The evaluation of an auto-scored track as its organisers see it: the files themselves are never served. */
export const ZEventEvaluation = z.object({
  eventId: z.string(),
  trackId: z.string(),
  answersName: z.string(),
  updatedAt: z.string(),
});
export type TEventEvaluation = z.infer<typeof ZEventEvaluation>;
