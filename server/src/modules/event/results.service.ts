import { ROUND_REFUSALS } from '@aiedu/contracts';
import type { TEventResults, TResultRow } from '@aiedu/contracts';
import { and, asc, eq, inArray, isNotNull, isNull, ne } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { writeAudit } from '../../platform/audit.js';
import type { AuthContext } from '../../platform/auth/tokens.js';
import type { AppContext } from '../../platform/context.js';
import type { Db } from '../../platform/db/client.js';
import {
  eventCertificateIssuances,
  eventRegistrations,
  events,
  eventScores,
  eventTeamMembers,
  eventWorks,
  schools,
} from '../../platform/db/schema/index.js';
import { AppError } from '../../platform/errors.js';
import { issueToAccounts } from '../certificate/issuance.service.js';
import { findEvent, isOrganiser, organisedEvent, type EventRow } from './event-access.js';
import { rankWorks, type RankedWork } from './results.ranking.js';
import { roundCount, roundOf, roundScores, settingsOf } from './review.rounds.js';

/**
 * The ranking the audited works would get now: by the last round each reached, then by its judges' mean total in
 * that round, by the event's tie rule and awards.
 */
async function rankingOf(db: Db, event: EventRow): Promise<RankedWork[]> {
  const works = await db
    .select()
    .from(eventWorks)
    .where(and(eq(eventWorks.eventId, event.id), eq(eventWorks.state, 'AUDITED')));
  if (works.length === 0) return [];
  const rounds = [...new Set(works.map((w) => w.reviewRound))];
  const scores = new Map<string, number>();
  for (const round of rounds) {
    const ids = works.filter((w) => w.reviewRound === round).map((w) => w.id);
    for (const [id, score] of await roundScores(db, round, ids)) scores.set(id, score);
  }
  return rankWorks(
    works.map((w) => ({
      id: w.id,
      trackId: w.trackId,
      submittedAt: w.submittedAt ?? w.createdAt,
      score: scores.get(w.id) ?? 0,
      round: w.reviewRound,
    })),
    event.tieRule,
    event.awards,
  );
}

/** The names of the review's rounds ('' for "Round n"); one unnamed round before the settings are saved. */
function roundNames(event: EventRow): string[] {
  if (!event.review) return [''];
  const settings = settingsOf(event);
  return Array.from({ length: roundCount(settings) }, (_, i) => roundOf(settings, i + 1)!.name);
}

/**
 * Publishes the results once, in the last review round (4503 while rounds remain): every work given to judges must
 * be AUDITED with every score submitted (4512);
 * ranks, scores and awards are stored on the works and the event is marked published (4509 a second time).
 */
export async function publishResults(ctx: AppContext, request: FastifyRequest, auth: AuthContext, eventId: string) {
  const event = await organisedEvent(ctx.db, auth, eventId);
  if (event.resultsPublishedAt) throw new AppError('EVENT_RESULTS_PUBLISHED');
  await ctx.db.transaction(async (t) => {
    const tx = t as unknown as Db;
    const [held] = await tx.select().from(events).where(eq(events.id, event.id)).for('update');
    if (held!.resultsPublishedAt) throw new AppError('EVENT_RESULTS_PUBLISHED');
    const rounds = roundNames(held!).length;
    if (held!.reviewRound < rounds) {
      throw new AppError('EVENT_STATE_INVALID', {
        reason: ROUND_REFUSALS.roundsRemain,
        round: held!.reviewRound,
        rounds,
      });
    }
    const open = await tx
      .select({ id: eventWorks.id })
      .from(eventWorks)
      .where(and(eq(eventWorks.eventId, event.id), eq(eventWorks.state, 'IN_REVIEW')));
    const unsettled = await tx
      .select({ id: eventScores.id })
      .from(eventScores)
      .innerJoin(eventWorks, eq(eventWorks.id, eventScores.workId))
      .where(
        and(
          eq(eventScores.eventId, event.id),
          eq(eventWorks.state, 'AUDITED'),
          eq(eventScores.round, eventWorks.reviewRound),
          ne(eventScores.state, 'submitted'),
        ),
      );
    if (open.length > 0 || unsettled.length > 0) {
      throw new AppError('EVENT_SCORES_INCOMPLETE', { workIds: open.map((w) => w.id), scores: unsettled.length });
    }
    const ranked = await rankingOf(tx, held!);
    const now = ctx.now();
    for (const row of ranked) {
      await tx
        .update(eventWorks)
        .set({ score: row.score, rank: row.rank, award: row.award, updatedAt: now })
        .where(eq(eventWorks.id, row.id));
    }
    await tx
      .update(events)
      .set({ resultsPublishedAt: now, updatedAt: now })
      .where(and(eq(events.id, event.id), isNull(events.resultsPublishedAt)));
    await writeAudit(tx, request, {
      module: 'event',
      operation: 'publish',
      params: { eventId: event.id, works: ranked.length },
    });
  });
  return results(ctx, auth, event.id);
}

/** The published results, to anyone; before publication only organisers see the ranking it would give (1004). */
export async function results(ctx: AppContext, auth: AuthContext | null, eventId: string): Promise<TEventResults> {
  const event = await findEvent(ctx.db, eventId);
  const published = event.resultsPublishedAt;
  if (!published && !isOrganiser(auth, event)) throw new AppError('NOT_FOUND');
  const rows = await ctx.db
    // The ranked columns only: a work row also holds its description, media keys and review state.
    .select({
      work: {
        id: eventWorks.id,
        name: eventWorks.name,
        trackId: eventWorks.trackId,
        rank: eventWorks.rank,
        score: eventWorks.score,
        award: eventWorks.award,
        submittedAt: eventWorks.submittedAt,
        createdAt: eventWorks.createdAt,
        reviewRound: eventWorks.reviewRound,
      },
      teamName: eventRegistrations.teamName,
      schoolName: schools.name,
    })
    .from(eventWorks)
    .innerJoin(eventRegistrations, eq(eventRegistrations.id, eventWorks.registrationId))
    .leftJoin(schools, eq(schools.id, eventRegistrations.schoolId))
    .where(
      and(eq(eventWorks.eventId, event.id), published ? isNotNull(eventWorks.rank) : eq(eventWorks.state, 'AUDITED')),
    );
  const preview = published ? null : new Map((await rankingOf(ctx.db, event)).map((r) => [r.id, r]));
  const list: TResultRow[] = rows.map(({ work, teamName, schoolName }) => {
    const placed = preview?.get(work.id);
    return {
      rank: placed?.rank ?? work.rank ?? 0,
      workId: work.id,
      workName: work.name,
      teamName,
      schoolName: schoolName ?? '',
      trackId: work.trackId,
      score: placed?.score ?? work.score ?? 0,
      award: placed ? placed.award : work.award,
      submittedAt: (work.submittedAt ?? work.createdAt).toISOString(),
      round: work.reviewRound,
    };
  });
  list.sort(
    (a, b) => a.trackId.localeCompare(b.trackId) || a.rank - b.rank || a.submittedAt.localeCompare(b.submittedAt),
  );
  return {
    eventId: event.id,
    tieRule: event.tieRule,
    publishedAt: published?.toISOString() ?? '',
    rounds: roundNames(event),
    rows: list,
  };
}

/**
 * Certificates for the award winners: one issuance per award from the customer's template, to the applicants with
 * an account (and the mentors with one, when asked) of the works given it. "<event> — <award>" is what they are for.
 */
export async function issueEventCertificates(
  ctx: AppContext,
  request: FastifyRequest,
  auth: AuthContext,
  input: { eventId: string; certId: string; awards: string[]; includeMentors: boolean },
) {
  const event = await organisedEvent(ctx.db, auth, input.eventId);
  if (!event.resultsPublishedAt) throw new AppError('EVENT_STATE_INVALID', { reason: 'results not published' });
  const customerId = event.customerId ?? auth.customerId;
  if (!customerId) throw new AppError('CERTIFICATE_NOT_FOUND');
  const names = event.awards.map((a) => a.name).filter((n) => input.awards.length === 0 || input.awards.includes(n));
  const unknown = input.awards.filter((a) => !event.awards.some((e) => e.name === a));
  if (unknown.length > 0) throw new AppError('BAD_REQUEST', { reason: 'unknown award', awards: unknown });
  const roles = input.includeMentors ? (['applicant', 'mentor'] as const) : (['applicant'] as const);
  const winners = await ctx.db
    .select({ award: eventWorks.award, userId: eventTeamMembers.userId })
    .from(eventWorks)
    .innerJoin(eventTeamMembers, eq(eventTeamMembers.registrationId, eventWorks.registrationId))
    .where(
      and(
        eq(eventWorks.eventId, event.id),
        isNotNull(eventWorks.award),
        isNotNull(eventTeamMembers.userId),
        inArray(eventTeamMembers.role, [...roles]),
      ),
    )
    .orderBy(asc(eventWorks.rank));
  const issuances = await ctx.db.transaction(async (t) => {
    const tx = t as unknown as Db;
    const made: { award: string; certIssId: string; holders: number }[] = [];
    for (const award of names) {
      const userIds = winners.filter((w) => w.award === award).map((w) => w.userId!);
      if (userIds.length === 0) continue;
      const issued = await issueToAccounts(tx, ctx, {
        customerId,
        certId: input.certId,
        issuerId: auth.userId,
        awardFor: `${event.name} — ${award}`,
        userIds,
        sourceId: event.id,
      });
      await tx.insert(eventCertificateIssuances).values({ eventId: event.id, issuanceId: issued.id });
      made.push({ award, certIssId: issued.id, holders: issued.holders });
    }
    if (made.length === 0) throw new AppError('CERT_NO_STUDENTS');
    await writeAudit(tx, request, {
      module: 'event',
      operation: 'issue',
      params: { eventId: event.id, certId: input.certId, issuances: made },
    });
    return made;
  });
  return {
    certIssId: issuances[issuances.length - 1]!.certIssId,
    holders: issuances.reduce((sum, i) => sum + i.holders, 0),
    issuances,
  };
}
