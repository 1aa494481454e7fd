import { ZJudgingItem, type TJudgingItem, type TSaveScore, type TScore, ROUND_REFUSALS } from '@aiedu/contracts';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { ZReviewSettings } from '@aiedu/contracts';
import { writeAudit } from '../../platform/audit.js';
import type { AuthContext } from '../../platform/auth/tokens.js';
import type { AppContext } from '../../platform/context.js';
import type { Db } from '../../platform/db/client.js';
import { eventScores, eventWorkRounds, eventWorks, users } from '../../platform/db/schema/index.js';
import { AppError } from '../../platform/errors.js';
import { datesOf, findEvent, inSeats, judgeSeats } from './event-access.js';
import { reviewOpen } from './event-clock.js';
import { auditWhenComplete } from './review.completion.js';
import { settingsOf } from './review.rounds.js';
import { findWork, workViews } from './work.repository.js';

type Settings = z.infer<typeof ZReviewSettings>;
type ScoreRow = typeof eventScores.$inferSelect;
type ScoreInput = Required<Pick<TSaveScore, 'workId'>> & {
  scores: { criterionId: string; score: number }[];
  overall: number | null;
  comment: string;
};

/** A judge's total: the weighted mean of the criteria, or the overall score. Every criterion is needed (400). */
export function totalOf(settings: Settings, input: Pick<ScoreInput, 'scores' | 'overall'>): number {
  if (settings.scoringType === 'overall') {
    if (input.overall === null) throw new AppError('BAD_REQUEST', { reason: 'overall score' });
    return input.overall;
  }
  const given = new Map(input.scores.map((s) => [s.criterionId, s.score]));
  const known = new Set(settings.criteria.map((c) => c.id));
  if (given.size !== input.scores.length || [...given.keys()].some((id) => !known.has(id))) {
    throw new AppError('BAD_REQUEST', { reason: 'unknown or repeated criterion' });
  }
  let sum = 0;
  let weights = 0;
  for (const c of settings.criteria) {
    const score = given.get(c.id);
    if (score === undefined) throw new AppError('BAD_REQUEST', { reason: 'every criterion', criterionId: c.id });
    sum += score * c.weight;
    weights += c.weight;
  }
  return sum / weights;
}

function presentScore(row: ScoreRow, judgeName: string): TScore {
  return {
    id: row.id,
    workId: row.workId,
    judgeId: row.judgeUserId,
    judgeName,
    scores: row.scores,
    overall: row.overall,
    total: row.total,
    comment: row.comment,
    state: row.state,
    reopenReason: row.reopenReason,
    submittedAt: row.submittedAt?.toISOString() ?? null,
    round: row.round,
  };
}

/** The caller's judge rows in an event, one per round they score in, or 4507. */
async function seatsOf(ctx: AppContext, auth: AuthContext, eventId: string) {
  const seats = await judgeSeats(ctx.db, auth, eventId);
  if (seats.length === 0) throw new AppError('EVENT_NOT_JUDGE');
  return seats;
}

const judgeName = async (db: Db, userId: string) => {
  const [row] = await db
    .select({ username: users.username, realName: users.realName })
    .from(users)
    .where(eq(users.id, userId));
  return row ? row.realName || row.username : '';
};

/**
 * The works given to the caller's groups, round by round, without the team's, school's or applicants' data, with
 * their own score of each round. A work that went on is listed again for a judge of the next round; the items of a
 * closed round are read-only.
 */
export async function judgingList(ctx: AppContext, auth: AuthContext, eventId: string): Promise<TJudgingItem[]> {
  const event = await findEvent(ctx.db, eventId);
  const seats = await seatsOf(ctx, auth, eventId);
  // Where the caller's groups had works: now (a round being judged, or a work's last round) and in closed rounds.
  const now = await ctx.db
    .select({ id: eventWorks.id, round: eventWorks.reviewRound })
    .from(eventWorks)
    .where(
      and(
        eq(eventWorks.eventId, eventId),
        inArray(eventWorks.state, ['IN_REVIEW', 'AUDITED']),
        inSeats(seats, eventWorks.reviewRound, eventWorks.judgeGroup),
      ),
    );
  const past = await ctx.db
    .select({ id: eventWorkRounds.workId, round: eventWorkRounds.round })
    .from(eventWorkRounds)
    .innerJoin(eventWorks, eq(eventWorks.id, eventWorkRounds.workId))
    .where(and(eq(eventWorks.eventId, eventId), inSeats(seats, eventWorkRounds.round, eventWorkRounds.groupNo)));
  const placements = new Set([...past, ...now].map((place) => `${place.id}:${place.round}`));
  if (placements.size === 0) return [];
  const ids = [...new Set([...past, ...now].map((place) => place.id))];
  const works = await workViews(ctx, inArray(eventWorks.id, ids));
  const scores = await ctx.db
    .select()
    .from(eventScores)
    .where(and(eq(eventScores.judgeUserId, auth.userId), inArray(eventScores.workId, ids)));
  const name = await judgeName(ctx.db, auth.userId);
  const items: TJudgingItem[] = [];
  for (const { round } of seats) {
    for (const view of works) {
      if (!placements.has(`${view.id}:${round}`)) continue;
      const work = ZJudgingItem.shape.work.parse(view);
      const own = scores.find((s) => s.workId === work.id && s.round === round);
      items.push({
        work,
        score: own ? presentScore(own, name) : null,
        round,
        closed: round < event.reviewRound,
      });
    }
  }
  return items;
}

/**
 * Saves (draft) or submits (final) the caller's score of a work of their group in the work's round (4507
 * otherwise; 4503 once that round is closed), during the review phase by the server's clock (4501). A submitted score
 * is final (4506) until an organiser reopens it. When every judge of the group has submitted, the work is AUDITED.
 */
export async function saveScore(
  ctx: AppContext,
  request: FastifyRequest,
  auth: AuthContext,
  input: ScoreInput,
  submit: boolean,
): Promise<TScore> {
  const work = await findWork(ctx.db, input.workId);
  const event = await findEvent(ctx.db, work.eventId);
  const seats = await seatsOf(ctx, auth, event.id);
  const round = work.reviewRound;
  const seat = seats.find((s) => s.round === round);
  if (!seat || work.judgeGroup !== seat.groupNo || (work.state !== 'IN_REVIEW' && work.state !== 'AUDITED')) {
    throw new AppError('EVENT_NOT_JUDGE');
  }
  if (event.resultsPublishedAt) throw new AppError('EVENT_RESULTS_PUBLISHED');
  if (round < event.reviewRound)
    throw new AppError('EVENT_STATE_INVALID', { reason: ROUND_REFUSALS.roundClosed, round });
  if (!reviewOpen(datesOf(event), ctx.now())) {
    // Outside the review phase a judge only changes a score an organiser has reopened.
    const [own] = await ctx.db
      .select({ state: eventScores.state })
      .from(eventScores)
      .where(
        and(eq(eventScores.workId, work.id), eq(eventScores.round, round), eq(eventScores.judgeUserId, auth.userId)),
      );
    if (own?.state !== 'reopened') throw new AppError('EVENT_PHASE_CLOSED');
  }
  const settings = settingsOf(event);
  const total = totalOf(settings, input);
  const now = ctx.now();
  const row = await ctx.db.transaction(async (tx) => {
    // The work row is held so two judges submitting at once both see each other's score.
    const [held] = await tx
      .select({ round: eventWorks.reviewRound })
      .from(eventWorks)
      .where(eq(eventWorks.id, work.id))
      .for('update');
    if (held?.round !== round) throw new AppError('EVENT_STATE_INVALID', { reason: ROUND_REFUSALS.roundClosed, round });
    const values = {
      scores: settings.scoringType === 'criteria' ? input.scores : [],
      overall: settings.scoringType === 'overall' ? input.overall : null,
      total,
      comment: input.comment,
      updatedAt: now,
      ...(submit ? { state: 'submitted' as const, submittedAt: now } : {}),
    };
    const [saved] = await tx
      .insert(eventScores)
      .values({ eventId: event.id, workId: work.id, judgeUserId: auth.userId, round, ...values })
      .onConflictDoUpdate({
        target: [eventScores.workId, eventScores.round, eventScores.judgeUserId],
        set: values,
        setWhere: sql`${eventScores.state} <> 'submitted'`,
      })
      .returning();
    if (!saved) throw new AppError('EVENT_SCORE_FINAL');
    if (submit) {
      await writeAudit(tx as unknown as Db, request, {
        module: 'event',
        operation: 'submit',
        params: { scoreId: saved.id, workId: work.id, round, total },
      });
      await auditWhenComplete(tx as unknown as Db, work.id, now);
    }
    return saved;
  });
  return presentScore(row, await judgeName(ctx.db, auth.userId));
}
