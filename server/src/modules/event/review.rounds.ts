import { ZReviewSettings, ROUND_REFUSALS } from '@aiedu/contracts';
import { and, eq, inArray, ne } from 'drizzle-orm';
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
} from '../../platform/db/schema/index.js';
import { AppError } from '../../platform/errors.js';
import { organisedEvent, type EventRow } from './event-access.js';
import { meanScore, rankWorks } from './results.ranking.js';
import { assignWorks, judgeGroups } from './review.assignment.js';
import { moveWork } from './work.service.js';

type Settings = z.infer<typeof ZReviewSettings>;

/**
 * Review rounds (spec 9: scoring rounds have groups). Round 1 is the settings' own groups; each later round has its
 * own groups and judges. Closing a round ranks its works per track by that round's scores and the event's tie rule,
 * keeps where each was (`event_work_rounds`), and gives the best `advance` of each track to the next round's groups.
 */

/** An event's review settings, or 4503 while the organisers have not set them. */
export function settingsOf(event: EventRow): Settings {
  if (!event.review) throw new AppError('EVENT_STATE_INVALID', { reason: 'review settings not set' });
  return ZReviewSettings.parse(event.review);
}

/** How many rounds the review has. */
export const roundCount = (settings: Settings) => 1 + settings.rounds.length;

/** One round's groups: round 1 from the settings' own fields, later ones from `rounds`; null past the last. */
export function roundOf(settings: Settings, round: number) {
  if (round === 1) {
    const { groupCount, judgesPerGroup, worksPerGroup, roundName } = settings;
    return { name: roundName, groupCount, judgesPerGroup, worksPerGroup, advance: 0 };
  }
  return settings.rounds[round - 2] ?? null;
}

/** A work's score in one round: the mean of its judges' submitted totals of that round. */
export async function roundScores(db: Db, round: number, workIds: string[]) {
  if (workIds.length === 0) return new Map<string, number>();
  const rows = await db
    .select({ workId: eventScores.workId, total: eventScores.total })
    .from(eventScores)
    .where(and(inArray(eventScores.workId, workIds), eq(eventScores.round, round), eq(eventScores.state, 'submitted')));
  return new Map(
    workIds.map((id) => [id, meanScore(rows.filter((r) => r.workId === id && r.total !== null).map((r) => r.total!))]),
  );
}

/**
 * Closes the current round: every work of it scored by every judge of its group (4512, and none left waiting for
 * a group), a later round to go on to (4503), results not published (4509). The best `advance` works of each track
 * (works sharing the last place all go on under the `shared` tie rule) are given to the next round's groups,
 * evenly and never to a judge of their school, or nothing changes (4511).
 */
export async function closeRound(ctx: AppContext, request: FastifyRequest, auth: AuthContext, eventId: string) {
  const event = await organisedEvent(ctx.db, auth, eventId);
  const settings = settingsOf(event);
  return ctx.db.transaction(async (t) => {
    const tx = t as unknown as Db;
    const [held] = await tx.select().from(events).where(eq(events.id, event.id)).for('update');
    if (held!.resultsPublishedAt) throw new AppError('EVENT_RESULTS_PUBLISHED');
    const round = held!.reviewRound;
    const next = roundOf(settings, round + 1);
    if (!next) throw new AppError('EVENT_STATE_INVALID', { reason: ROUND_REFUSALS.noLaterRound, round });
    const open = await tx
      .select({ id: eventWorks.id })
      .from(eventWorks)
      .where(and(eq(eventWorks.eventId, event.id), inArray(eventWorks.state, ['PENDING_REVIEW', 'IN_REVIEW'])));
    const unsettled = await tx
      .select({ id: eventScores.id })
      .from(eventScores)
      .where(and(eq(eventScores.eventId, event.id), eq(eventScores.round, round), ne(eventScores.state, 'submitted')));
    if (open.length > 0 || unsettled.length > 0) {
      throw new AppError('EVENT_SCORES_INCOMPLETE', { workIds: open.map((w) => w.id), scores: unsettled.length });
    }
    const works = await tx
      .select({ work: eventWorks, schoolId: eventRegistrations.schoolId })
      .from(eventWorks)
      .innerJoin(eventRegistrations, eq(eventRegistrations.id, eventWorks.registrationId))
      .where(and(eq(eventWorks.eventId, event.id), eq(eventWorks.state, 'AUDITED'), eq(eventWorks.reviewRound, round)));
    const scores = await roundScores(
      tx,
      round,
      works.map((w) => w.work.id),
    );
    const ranked = rankWorks(
      works.map(({ work }) => ({
        id: work.id,
        trackId: work.trackId,
        submittedAt: work.submittedAt ?? work.createdAt,
        score: scores.get(work.id) ?? 0,
        round,
      })),
      held!.tieRule,
      [],
    );
    const going = new Set(ranked.filter((r) => r.rank <= next.advance).map((r) => r.id));
    const judges = await tx
      .select()
      .from(eventJudges)
      .where(and(eq(eventJudges.eventId, event.id), eq(eventJudges.round, round + 1)));
    const movers = works.filter((w) => going.has(w.work.id));
    const placed = assignWorks(
      movers.map((w) => ({ id: w.work.id, schoolId: w.schoolId })),
      judgeGroups(next.groupCount, judges),
      next.worksPerGroup,
    );
    if (!placed.ok) throw new AppError('EVENT_ASSIGNMENT_IMPOSSIBLE', { workIds: placed.unplaced });
    if (ranked.length > 0) {
      await tx.insert(eventWorkRounds).values(
        ranked.map((r) => {
          const work = works.find((w) => w.work.id === r.id)!.work;
          return { workId: r.id, round, groupNo: work.judgeGroup ?? 0, score: r.score, advanced: going.has(r.id) };
        }),
      );
    }
    const now = ctx.now();
    for (const { work } of movers) {
      await moveWork(tx, work, 'IN_REVIEW', { judgeGroup: placed.groups.get(work.id)!, reviewRound: round + 1 }, now);
    }
    await tx
      .update(events)
      .set({ reviewRound: round + 1, updatedAt: now })
      .where(eq(events.id, event.id));
    await writeAudit(tx, request, {
      module: 'event',
      operation: 'closeRound',
      params: { eventId: event.id, round, advanced: movers.length, stayed: ranked.length - movers.length },
    });
    return { round, advanced: movers.length, stayed: ranked.length - movers.length };
  });
}
