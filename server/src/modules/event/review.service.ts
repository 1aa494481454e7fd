import { Readable } from 'node:stream';
import { randomUUID } from 'node:crypto';
import {
  EVENT_LIMITS,
  ZReviewSettings,
  type TJudge,
  type TReviewProgress,
  type TReviewSettings,
  type TReviewSettingsView,
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
  eventWorks,
  schools,
  users,
} from '../../platform/db/schema/index.js';
import { AppError } from '../../platform/errors.js';
import { openUpload } from '../../platform/uploads.js';
import { findEvent, isOrganiser, judgeOf, organisedEvent, type EventRow } from './event-access.js';
import { assignWorks } from './review.assignment.js';
import { auditWhenComplete } from './review.completion.js';
import { moveWork } from './work.service.js';
import { fileUrl } from './work.repository.js';

type Settings = z.infer<typeof ZReviewSettings>;
const REVIEW_FOLDER = 'events/review-files';

/** An event's review settings, or 4503 while the organisers have not set them. */
export function settingsOf(event: EventRow): Settings {
  if (!event.review) throw new AppError('EVENT_STATE_INVALID', { reason: 'review settings not set' });
  return ZReviewSettings.parse(event.review);
}

/** The settings, to the event's organisers and its judges. */
export async function getSettings(
  ctx: AppContext,
  auth: AuthContext,
  eventId: string,
): Promise<TReviewSettingsView | null> {
  const event = await findEvent(ctx.db, eventId);
  if (!isOrganiser(auth, event) && !(await judgeOf(ctx.db, auth, eventId))) throw new AppError('NOT_FOUND');
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
  const [judged] = await ctx.db
    .select({ n: count() })
    .from(eventJudges)
    .where(and(eq(eventJudges.eventId, event.id), sql`${eventJudges.groupNo} > ${input.groupCount}`));
  if ((judged?.n ?? 0) > 0) throw new AppError('EVENT_STATE_INVALID', { reason: 'judges in a group beyond the count' });
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
};

export async function listJudges(db: Db, eventId: string): Promise<TJudge[]> {
  return db
    .select(judgeSelection)
    .from(eventJudges)
    .innerJoin(users, eq(users.id, eventJudges.userId))
    .leftJoin(schools, eq(schools.id, eventJudges.schoolId))
    .where(eq(eventJudges.eventId, eventId))
    .orderBy(asc(eventJudges.groupNo), asc(users.username));
}

/** A judge by username among the accounts of the organiser's customer, with their school (4510 when already one). */
export async function addJudge(
  ctx: AppContext,
  request: FastifyRequest,
  auth: AuthContext,
  input: { eventId: string; username: string; group: number },
) {
  const event = await organisedEvent(ctx.db, auth, input.eventId);
  if (event.review && input.group > settingsOf(event).groupCount) {
    throw new AppError('BAD_REQUEST', { reason: 'group beyond the group count' });
  }
  const customerId = event.customerId ?? auth.customerId;
  const [user] = await ctx.db
    .select({ id: users.id, schoolId: users.schoolId })
    .from(users)
    .where(
      and(eq(users.username, input.username), customerId ? eq(users.customerId, customerId) : isNull(users.customerId)),
    );
  if (!user) throw new AppError('NOT_FOUND');
  if (await judgeOf(ctx.db, { userId: user.id } as AuthContext, event.id)) throw new AppError('EVENT_JUDGE_EXISTS');
  if (user.schoolId) {
    // The group must not already hold a work of the judge's own school.
    const [own] = await ctx.db
      .select({ id: eventWorks.id })
      .from(eventWorks)
      .innerJoin(eventRegistrations, eq(eventRegistrations.id, eventWorks.registrationId))
      .where(
        and(
          eq(eventWorks.eventId, event.id),
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
      .values({ eventId: event.id, userId: user.id, groupNo: input.group, schoolId: user.schoolId })
      .onConflictDoNothing()
      .returning();
    if (!row) throw new AppError('EVENT_JUDGE_EXISTS');
    await writeAudit(tx as unknown as Db, request, {
      module: 'event',
      operation: 'addJudge',
      params: { eventId: event.id, username: input.username, group: input.group },
    });
    return row.id;
  });
  return (await listJudges(ctx.db, event.id)).find((j) => j.id === judgeId)!;
}

export async function removeJudge(ctx: AppContext, request: FastifyRequest, auth: AuthContext, judgeId: string) {
  const [judge] = await ctx.db.select().from(eventJudges).where(eq(eventJudges.id, judgeId));
  if (!judge) throw new AppError('NOT_FOUND');
  const event = await organisedEvent(ctx.db, auth, judge.eventId);
  await ctx.db.transaction(async (tx) => {
    await tx.delete(eventJudges).where(eq(eventJudges.id, judgeId));
    // The works the others of the group have all scored are audited now.
    const left = await tx
      .select({ id: eventWorks.id })
      .from(eventWorks)
      .where(
        and(
          eq(eventWorks.eventId, event.id),
          eq(eventWorks.judgeGroup, judge.groupNo),
          eq(eventWorks.state, 'IN_REVIEW'),
        ),
      );
    for (const work of left) await auditWhenComplete(tx as unknown as Db, work.id, ctx.now());
    await writeAudit(tx as unknown as Db, request, {
      module: 'event',
      operation: 'removeJudge',
      params: { eventId: event.id, userId: judge.userId, group: judge.groupNo },
    });
  });
  return listJudges(ctx.db, event.id);
}

/**
 * Gives every PENDING_REVIEW work to a judge group (→ IN_REVIEW): evenly, never to a group with a judge of the
 * team's school, within `worksPerGroup`. When one work fits nowhere, nothing is given (4511).
 */
export async function assignEvent(ctx: AppContext, request: FastifyRequest, auth: AuthContext, eventId: string) {
  const event = await organisedEvent(ctx.db, auth, eventId);
  const settings = settingsOf(event);
  await ctx.db.transaction(async (tx) => {
    // One assignment at a time per event: the event row is held until this one commits.
    await tx.select({ id: events.id }).from(events).where(eq(events.id, event.id)).for('update');
    const pending = await tx
      .select({ id: eventWorks.id, state: eventWorks.state, schoolId: eventRegistrations.schoolId })
      .from(eventWorks)
      .innerJoin(eventRegistrations, eq(eventRegistrations.id, eventWorks.registrationId))
      .where(and(eq(eventWorks.eventId, event.id), eq(eventWorks.state, 'PENDING_REVIEW')));
    if (pending.length === 0) return;
    const judges = await tx.select().from(eventJudges).where(eq(eventJudges.eventId, event.id));
    const loads = await tx
      .select({ group: eventWorks.judgeGroup, n: count() })
      .from(eventWorks)
      .where(and(eq(eventWorks.eventId, event.id), inArray(eventWorks.state, ['IN_REVIEW', 'AUDITED'])))
      .groupBy(eventWorks.judgeGroup);
    const groups = Array.from({ length: settings.groupCount }, (_, i) => i + 1)
      .map((group) => ({
        group,
        schoolIds: judges.filter((j) => j.groupNo === group).map((j) => j.schoolId),
        existing: loads.find((l) => l.group === group)?.n ?? 0,
      }))
      .filter((g) => g.schoolIds.length > 0);
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

/** Per judge group: its judges with the scores each submitted, its works, and those every judge has scored. */
export async function reviewProgress(ctx: AppContext, auth: AuthContext, eventId: string): Promise<TReviewProgress> {
  const event = await organisedEvent(ctx.db, auth, eventId);
  const judges = await listJudges(ctx.db, event.id);
  const works = await ctx.db
    .select({ id: eventWorks.id, state: eventWorks.state, group: eventWorks.judgeGroup })
    .from(eventWorks)
    .where(eq(eventWorks.eventId, event.id));
  const submitted = await ctx.db
    .select({ judge: eventScores.judgeUserId, group: eventWorks.judgeGroup, n: count() })
    .from(eventScores)
    .innerJoin(eventWorks, eq(eventWorks.id, eventScores.workId))
    .where(and(eq(eventScores.eventId, event.id), eq(eventScores.state, 'submitted')))
    .groupBy(eventScores.judgeUserId, eventWorks.judgeGroup);
  const groupCount = event.review ? settingsOf(event).groupCount : 0;
  const numbers = [...new Set([...Array.from({ length: groupCount }, (_, i) => i + 1), ...judges.map((j) => j.group)])];
  const given = works.filter((w) => w.state === 'IN_REVIEW' || w.state === 'AUDITED');
  return {
    groups: numbers
      .sort((a, b) => a - b)
      .map((group) => ({
        group,
        judges: judges
          .filter((j) => j.group === group)
          .map((j) => ({
            ...j,
            submitted: submitted.find((s) => s.judge === j.userId && s.group === group)?.n ?? 0,
          })),
        works: given.filter((w) => w.group === group).length,
        done: given.filter((w) => w.group === group && w.state === 'AUDITED').length,
      })),
    unassigned: works.filter((w) => w.state === 'PENDING_REVIEW').length,
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
