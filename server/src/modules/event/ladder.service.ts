import { EVENT_LIMITS, type TLadder, type TLadderRow } from '@aiedu/contracts';
import { eq, inArray, sql } from 'drizzle-orm';
import type { AppContext } from '../../platform/context.js';
import { eventRegistrations, schools } from '../../platform/db/schema/index.js';
import { autoTrack } from './evaluation.service.js';
import { visibleEvent } from './event.service.js';
import type { Viewer } from './event.repository.js';

/** A team's personal best: its best score among scored runs, when it first reached it, and its scored runs. */
export interface PersonalBest {
  registrationId: string;
  best: number;
  /** When the run that first reached the best was submitted. */
  bestAt: Date;
  runs: number;
}

/**
 * Spec 9's ladder: teams by personal best (the larger or the smaller first, by the track), a tie going to the team
 * that reached its best earlier; the top `limit` only.
 */
export function rankLadder(
  bests: readonly PersonalBest[],
  higherIsBetter: boolean,
  limit: number = EVENT_LIMITS.ladder,
): (PersonalBest & { rank: number })[] {
  return [...bests]
    .sort(
      (a, b) =>
        (higherIsBetter ? b.best - a.best : a.best - b.best) ||
        a.bestAt.getTime() - b.bestAt.getTime() ||
        (a.registrationId < b.registrationId ? -1 : 1),
    )
    .slice(0, limit)
    .map((row, i) => ({ ...row, rank: i + 1 }));
}

interface BestRow {
  registration_id: string;
  score: number;
  queued_at: Date | string;
  runs: number | string;
}

/** Each team's personal best in a track, from its scored runs. */
async function personalBests(ctx: AppContext, eventId: string, trackId: string, higherIsBetter: boolean) {
  const order = higherIsBetter ? 'desc' : 'asc';
  // One row per team: its best run (the earliest submitted among equals) and how many runs it had scored.
  const result = await ctx.db.execute(sql`
    select distinct on (r.registration_id) r.registration_id, r.score, r.queued_at,
      count(*) over (partition by r.registration_id) as runs
    from event_runs r
    where r.event_id = ${eventId} and r.track_id = ${trackId} and r.state = 'scored' and r.score is not null
    order by r.registration_id, r.score ${sql.raw(order)}, r.queued_at, r.id`);
  const rows = (result as unknown as { rows: BestRow[] }).rows;
  return rows.map((r): PersonalBest => ({
    registrationId: r.registration_id,
    best: Number(r.score),
    bestAt: new Date(r.queued_at),
    runs: Number(r.runs),
  }));
}

/** The public ladder of an auto-scored track, as visible as the event (else 1004). */
export async function getLadder(ctx: AppContext, viewer: Viewer, eventId: string, trackId: string): Promise<TLadder> {
  const event = await visibleEvent(ctx, viewer, eventId);
  const track = autoTrack(event, trackId);
  const ranked = rankLadder(await personalBests(ctx, event.id, track.id, track.higherIsBetter), track.higherIsBetter);
  const teams = ranked.length
    ? await ctx.db
        .select({ id: eventRegistrations.id, teamName: eventRegistrations.teamName, schoolName: schools.name })
        .from(eventRegistrations)
        .leftJoin(schools, eq(schools.id, eventRegistrations.schoolId))
        .where(
          inArray(
            eventRegistrations.id,
            ranked.map((r) => r.registrationId),
          ),
        )
    : [];
  const byId = new Map(teams.map((t) => [t.id, t]));
  const rows: TLadderRow[] = ranked.map((r) => ({
    rank: r.rank,
    registrationId: r.registrationId,
    teamName: byId.get(r.registrationId)?.teamName ?? '',
    schoolName: byId.get(r.registrationId)?.schoolName ?? '',
    best: r.best,
    runs: r.runs,
    bestAt: r.bestAt.toISOString(),
  }));
  return { trackId: track.id, higherIsBetter: track.higherIsBetter, rows };
}
