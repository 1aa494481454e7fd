import { Readable } from 'node:stream';
import { randomUUID } from 'node:crypto';
import {
  EVENT_LIMITS,
  ZReviewSettings,
  type TJudge,
  type TReviewProgress,
  type TReviewSettings,
  type TReviewSettingsView,
  ROUND_REFUSALS,
} from '@aiedu/contracts';
import { and, asc, count, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { writeAudit } from '../../platform/audit.js';
import type { AuthContext } from '../../platform/auth/tokens.js';
import type { AppContext } from '../../platform/context.js';
import type { Db } from '../../platform/db/client.js';
import {
  eventJudges,
  eventRegistrations,
  events,
  eventScores,
  eventWorkRounds,
  eventWorks,
  schools,
  users,
} from '../../platform/db/schema/index.js';
import { AppError } from '../../platform/errors.js';
import { openUpload } from '../../platform/uploads.js';
import { findEvent, isOrganiser, judgeSeats, organisedEvent } from './event-access.js';
import { assignWorks, judgeGroups } from './review.assignment.js';
import { auditWhenComplete } from './review.completion.js';
import { roundCount, roundOf, settingsOf } from './review.rounds.js';
import { moveWork } from './work.service.js';
import { fileUrl } from './work.repository.js';

type Settings = z.infer<typeof ZReviewSettings>;
const REVIEW_FOLDER = 'events/review-files';

/** The settings, to the event's organisers and its judges. */
export async function getSettings(
  ctx: AppContext,
  auth: AuthContext,
  eventId: string,
): Promise<TReviewSettingsView | null> {
  const event = await findEvent(ctx.db, eventId);
  if (!isOrganiser(auth, event) && (await judgeSeats(ctx.db, auth, eventId)).length === 0) {
    throw new AppError('NOT_FOUND');
  }
  if (!event.review) return null;
  const settings = ZReviewSettings.parse(event.review);
  return { ...settings, manualUrl: fileUrl(ctx, settings.manualKey), sheetUrl: fileUrl(ctx, settings.sheetKey) };
}

export async function saveSettings(
  ctx: AppContext,
  request: FastifyRequest,
  auth: AuthContext,
  eventId: string,
  input: Settings,
) {
  const event = await organisedEvent(ctx.db, auth, eventId);
  const ids = input.criteria.map((c) => c.id);
  if (input.scoringType === 'criteria' && ids.length === 0) throw new AppError('BAD_REQUEST', { reason: 'criteria' });
  if (new Set(ids).size !== ids.length) throw new AppError('BAD_REQUEST', { reason: 'criteria ids repeat' });
  for (const key of [input.manualKey, input.sheetKey]) {
    if (key === null || key === event.review?.manualKey || key === event.review?.sheetKey) continue;
    if (!key.startsWith(`${REVIEW_FOLDER}/${event.id}/`) || !(await ctx.storage.exists(key))) {
      throw new AppError('BAD_REQUEST', { reason: 'file key' });
    }
  }
  const old = event.review ? ZReviewSettings.parse(event.review) : null;
  const scoringChanged =
    old &&
    (old.scoringType !== input.scoringType ||
      JSON.stringify(old.criteria.map((c) => c.id).sort()) !== JSON.stringify([...ids].sort()));
  if (scoringChanged) {
    const [scored] = await ctx.db.select({ n: count() }).from(eventScores).where(eq(eventScores.eventId, event.id));
    if ((scored?.n ?? 0) > 0) throw new AppError('EVENT_STATE_INVALID', { reason: 'judges have scored' });
  }
  if (roundCount(input) < event.reviewRound) {
    throw new AppError('EVENT_STATE_INVALID', { reason: ROUND_REFUSALS.closedRoundRemoved, round: event.reviewRound });
  }
  const placed = await ctx.db
    .select({ round: eventJudges.round, group: eventJudges.groupNo })
    .from(eventJudges)
    .where(eq(eventJudges.eventId, event.id));
  if (placed.some((j) => j.group > (roundOf(input, j.round)?.groupCount ?? 0))) {
    throw new AppError('EVENT_STATE_INVALID', { reason: 'judges in a group beyond the count' });
  }
  await ctx.db.transaction(async (tx) => {
    await tx
      .update(events)
      .set({ review: input as TReviewSettings, updatedAt: ctx.now() })
      .where(eq(events.id, event.id));
    await writeAudit(tx as unknown as Db, request, {
      module: 'event',
      operation: 'update',
      params: { eventId: event.id, review: { ...input, rules: undefined } },
    });
  });
  return getSettings(ctx, auth, event.id);
}

/** The judges' manual or the review sheet: a PDF (by its first bytes) streamed into storage, at most 500 MB. */
export async function uploadReviewFile(
  ctx: AppContext,
  request: FastifyRequest,
  auth: AuthContext,
  eventId: string,
  kind: 'manual' | 'sheet',
) {
  const event = await organisedEvent(ctx.db, auth, eventId);
  const upload = await openUpload(request, EVENT_LIMITS.sheetBytes);
  const source = upload.stream;
  async function* checked() {
    let head = Buffer.alloc(0);
    let passed = false;
    for await (const chunk of source as AsyncIterable<Buffer>) {
      if (!passed) {
        head = Buffer.concat([head, chunk]);
        if (head.length < 4) continue;
        if (head.subarray(0, 4).toString('latin1') !== '%PDF') {
          source.resume();
          throw new AppError('BAD_REQUEST', { reason: 'PDF only' });
        }
        passed = true;
        yield head;
        continue;
      }
      yield chunk;
    }
    if (!passed) throw new AppError('BAD_REQUEST', { reason: 'PDF only' });
  }
  const key = `${REVIEW_FOLDER}/${event.id}/${kind}-${randomUUID()}.pdf`;
  await ctx.storage.put(key, Readable.from(checked()), { maxBytes: EVENT_LIMITS.sheetBytes });
  return { key, url: fileUrl(ctx, key)! };
}

const judgeSelection = {
  id: eventJudges.id,
  userId: eventJudges.userId,
  username: users.username,
  realName: users.realName,
  schoolName: sql<string>`coalesce(${schools.name}, '')`,
  group: eventJudges.groupNo,
  round: eventJudges.round,
};

export async function listJudges(db: Db, eventId: string): Promise<TJudge[]> {
  return db
    .select(judgeSelection)
    .from(eventJudges)
    .innerJoin(users, eq(users.id, eventJudges.userId))
    .leftJoin(schools, eq(schools.id, eventJudges.schoolId))
    .where(eq(eventJudges.eventId, eventId))
    .orderBy(asc(eventJudges.round), asc(eventJudges.groupNo), asc(users.username));
}

/**
 * A judge by username among the accounts of the organiser's customer, with their school, in one group of a round
 * not yet closed (4510 when already a judge of that round).
 */
export async function addJudge(
  ctx: AppContext,
  request: FastifyRequest,
  auth: AuthContext,
  input: { eventId: string; username: string; group: number; round: number },
) {
  const event = await organisedEvent(ctx.db, auth, input.eventId);
  // Before the settings are saved, judges join the first round; its group count is checked when they are.
  const round = event.review ? roundOf(settingsOf(event), input.round) : null;
  if (event.review ? !round : input.round !== 1)
    throw new AppError('BAD_REQUEST', { reason: 'round beyond the rounds' });
  if (round && input.group > round.groupCount) {
    throw new AppError('BAD_REQUEST', { reason: 'group beyond the group count' });
  }
  if (input.round < event.reviewRound)
    throw new AppError('EVENT_STATE_INVALID', { reason: ROUND_REFUSALS.roundClosed });
  const customerId = event.customerId ?? auth.customerId;
  const [user] = await ctx.db
    .select({ id: users.id, schoolId: users.schoolId })
    .from(users)
    .where(
      and(eq(users.username, input.username), customerId ? eq(users.customerId, customerId) : isNull(users.customerId)),
    );
  if (!user) throw new AppError('NOT_FOUND');
  const [already] = await ctx.db
    .select({ id: eventJudges.id })
    .from(eventJudges)
    .where(and(eq(eventJudges.eventId, event.id), eq(eventJudges.round, input.round), eq(eventJudges.userId, user.id)));
  if (already) throw new AppError('EVENT_JUDGE_EXISTS');
  if (user.schoolId) {
    // The group must not already hold a work of the judge's own school.
    const [own] = await ctx.db
      .select({ id: eventWorks.id })
      .from(eventWorks)
      .innerJoin(eventRegistrations, eq(eventRegistrations.id, eventWorks.registrationId))
      .where(
        and(
          eq(eventWorks.eventId, event.id),
          eq(eventWorks.reviewRound, input.round),
          eq(eventWorks.judgeGroup, input.group),
          inArray(eventWorks.state, ['IN_REVIEW', 'AUDITED']),
          eq(eventRegistrations.schoolId, user.schoolId),
        ),
      )
      .limit(1);
    if (own) throw new AppError('EVENT_ASSIGNMENT_IMPOSSIBLE', { workIds: [own.id] });
  }
  const judgeId = await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(eventJudges)
      .values({ eventId: event.id, userId: user.id, round: input.round, groupNo: input.group, schoolId: user.schoolId })
      .onConflictDoNothing()
      .returning();
    if (!row) throw new AppError('EVENT_JUDGE_EXISTS');
    await writeAudit(tx as unknown as Db, request, {
      module: 'event',
      operation: 'addJudge',
      params: { eventId: event.id, username: input.username, group: input.group, round: input.round },
    });
    return row.id;
  });
  return (await listJudges(ctx.db, event.id)).find((j) => j.id === judgeId)!;
}

export async function removeJudge(ctx: AppContext, request: FastifyRequest, auth: AuthContext, judgeId: string) {
  const [judge] = await ctx.db.select().from(eventJudges).where(eq(eventJudges.id, judgeId));
  if (!judge) throw new AppError('NOT_FOUND');
  const event = await organisedEvent(ctx.db, auth, judge.eventId);
  if (judge.round < event.reviewRound)
    throw new AppError('EVENT_STATE_INVALID', { reason: ROUND_REFUSALS.roundClosed });
  await ctx.db.transaction(async (tx) => {
    await tx.delete(eventJudges).where(eq(eventJudges.id, judgeId));
    // The works the others of the group have all scored are audited now.
    const left = await tx
      .select({ id: eventWorks.id })
      .from(eventWorks)
      .where(
        and(
          eq(eventWorks.eventId, event.id),
          eq(eventWorks.reviewRound, judge.round),
          eq(eventWorks.judgeGroup, judge.groupNo),
          eq(eventWorks.state, 'IN_REVIEW'),
        ),
      );
    for (const work of left) await auditWhenComplete(tx as unknown as Db, work.id, ctx.now());
    await writeAudit(tx as unknown as Db, request, {
      module: 'event',
      operation: 'removeJudge',
      params: { eventId: event.id, userId: judge.userId, group: judge.groupNo, round: judge.round },
    });
  });
  return listJudges(ctx.db, event.id);
}

/**
 * Gives every PENDING_REVIEW work to a first-round judge group (→ IN_REVIEW): evenly, never to a group with a judge
 * of the team's school, within `worksPerGroup`. When one work fits nowhere, nothing is given (4511); once the first
 * round is closed, nothing more enters the review (4503).
 */
export async function assignEvent(ctx: AppContext, request: FastifyRequest, auth: AuthContext, eventId: string) {
  const event = await organisedEvent(ctx.db, auth, eventId);
  const settings = settingsOf(event);
  await ctx.db.transaction(async (tx) => {
    // One assignment at a time per event: the event row is held until this one commits.
    const [held] = await tx
      .select({ round: events.reviewRound })
      .from(events)
      .where(eq(events.id, event.id))
      .for('update');
    if (held!.round !== 1) throw new AppError('EVENT_STATE_INVALID', { reason: ROUND_REFUSALS.roundClosed, round: 1 });
    const pending = await tx
      .select({ id: eventWorks.id, state: eventWorks.state, schoolId: eventRegistrations.schoolId })
      .from(eventWorks)
      .innerJoin(eventRegistrations, eq(eventRegistrations.id, eventWorks.registrationId))
      .where(and(eq(eventWorks.eventId, event.id), eq(eventWorks.state, 'PENDING_REVIEW')));
    if (pending.length === 0) return;
    const judges = await tx
      .select()
      .from(eventJudges)
      .where(and(eq(eventJudges.eventId, event.id), eq(eventJudges.round, 1)));
    const loads = await tx
      .select({ group: eventWorks.judgeGroup, n: count() })
      .from(eventWorks)
      .where(and(eq(eventWorks.eventId, event.id), inArray(eventWorks.state, ['IN_REVIEW', 'AUDITED'])))
      .groupBy(eventWorks.judgeGroup);
    const groups = judgeGroups(settings.groupCount, judges, (group) => loads.find((l) => l.group === group)?.n ?? 0);
    const result = assignWorks(pending, groups, settings.worksPerGroup);
    if (!result.ok) throw new AppError('EVENT_ASSIGNMENT_IMPOSSIBLE', { workIds: result.unplaced });
    const now = ctx.now();
    for (const work of pending) {
      await moveWork(tx as unknown as Db, work, 'IN_REVIEW', { judgeGroup: result.groups.get(work.id)! }, now);
    }
    await writeAudit(tx as unknown as Db, request, {
      module: 'event',
      operation: 'assign',
      params: { eventId: event.id, works: pending.length },
    });
  });
  return reviewProgress(ctx, auth, event.id);
}

/**
 * Per judge group of one round (the current one by default): its judges with the scores each submitted in that
 * round, its works, and those every judge has scored. A closed round's groups are as they were when it closed.
 */
export async function reviewProgress(
  ctx: AppContext,
  auth: AuthContext,
  eventId: string,
  asked?: number,
): Promise<TReviewProgress> {
  const event = await organisedEvent(ctx.db, auth, eventId);
  const settings = event.review ? settingsOf(event) : null;
  const rounds = settings ? roundCount(settings) : 1;
  const round = asked ?? event.reviewRound;
  if (round > rounds) throw new AppError('NOT_FOUND');
  const judges = (await listJudges(ctx.db, event.id)).filter((j) => j.round === round);
  const submitted = await ctx.db
    .select({
      id: eventScores.id,
      judge: eventScores.judgeUserId,
      workId: eventScores.workId,
      workName: eventWorks.name,
      total: eventScores.total,
      submittedAt: eventScores.submittedAt,
    })
    .from(eventScores)
    .innerJoin(eventWorks, eq(eventWorks.id, eventScores.workId))
    .where(and(eq(eventScores.eventId, event.id), eq(eventScores.round, round), eq(eventScores.state, 'submitted')))
    .orderBy(asc(eventWorks.name));
  const works = await ctx.db
    .select({ id: eventWorks.id, state: eventWorks.state, group: eventWorks.judgeGroup, round: eventWorks.reviewRound })
    .from(eventWorks)
    .where(eq(eventWorks.eventId, event.id));
  // A closed round's works are where it left them; the current round's are where they are now.
  const given =
    round < event.reviewRound
      ? (
          await ctx.db
            .select({ group: eventWorkRounds.groupNo })
            .from(eventWorkRounds)
            .innerJoin(eventWorks, eq(eventWorks.id, eventWorkRounds.workId))
            .where(and(eq(eventWorks.eventId, event.id), eq(eventWorkRounds.round, round)))
        ).map((w) => ({ group: w.group, done: true }))
      : works
          .filter((w) => w.round === round && (w.state === 'IN_REVIEW' || w.state === 'AUDITED'))
          .map((w) => ({ group: w.group, done: w.state === 'AUDITED' }));
  const groupCount = settings ? (roundOf(settings, round)?.groupCount ?? 0) : 0;
  const numbers = [...new Set([...Array.from({ length: groupCount }, (_, i) => i + 1), ...judges.map((j) => j.group)])];
  return {
    round,
    currentRound: event.reviewRound,
    rounds,
    groups: numbers
      .sort((a, b) => a - b)
      .map((group) => ({
        group,
        judges: judges
          .filter((j) => j.group === group)
          .map((j) => {
            const own = submitted.filter((s) => s.judge === j.userId);
            return {
              ...j,
              submitted: own.length,
              scores: own.map(({ judge: _, submittedAt, ...score }) => ({
                ...score,
                submittedAt: submittedAt?.toISOString() ?? null,
              })),
            };
          }),
        works: given.filter((w) => w.group === group).length,
        done: given.filter((w) => w.group === group && w.done).length,
      })),
    unassigned: round === 1 ? works.filter((w) => w.state === 'PENDING_REVIEW').length : 0,
  };
}

/** An organiser reopens one judge's submitted score with a reason (logged); the judge may then change it. */
export async function reopenScore(
  ctx: AppContext,
  request: FastifyRequest,
  auth: AuthContext,
  scoreId: string,
  reason: string,
) {
  const [score] = await ctx.db.select().from(eventScores).where(eq(eventScores.id, scoreId));
  if (!score) throw new AppError('NOT_FOUND');
  const event = await organisedEvent(ctx.db, auth, score.eventId);
  if (event.resultsPublishedAt) throw new AppError('EVENT_RESULTS_PUBLISHED');
  if (score.round < event.reviewRound)
    throw new AppError('EVENT_STATE_INVALID', { reason: ROUND_REFUSALS.roundClosed });
  await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .update(eventScores)
      .set({ state: 'reopened', reopenReason: reason, updatedAt: ctx.now() })
      .where(and(eq(eventScores.id, scoreId), eq(eventScores.state, 'submitted')))
      .returning();
    if (!row) throw new AppError('EVENT_STATE_INVALID', { state: score.state });
    await writeAudit(tx as unknown as Db, request, {
      module: 'event',
      operation: 'reopen',
      params: { scoreId, workId: score.workId, judgeUserId: score.judgeUserId, reason },
    });
  });
  return { id: scoreId };
}
