import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { EVENT_LIMITS, EVENT_RUN_STATES, type TEventRunsPage, type TRun, type TRunsView } from '@aiedu/contracts';
import { and, count, desc, eq, inArray, or, sql } from 'drizzle-orm';
import type { AuthContext } from '../../platform/auth/tokens.js';
import type { AppContext } from '../../platform/context.js';
import type { Db } from '../../platform/db/client.js';
import { customers, eventRegistrations, eventRuns } from '../../platform/db/schema/index.js';
import { AppError } from '../../platform/errors.js';
import { todayIn } from '../certificate/numbering.js';
import { ProjectFiles } from '../project/file.service.js';
import { loadProjectFor } from '../project/project-access.js';
import type { RuntimeManager } from '../runtime/runtime-manager.js';
import { datesOf, findEvent, organisedEvent, teamOf, type EventRow } from './event-access.js';
import { submissionOpen } from './event-clock.js';
import { autoTrack, findEvaluation } from './evaluation.service.js';
import { sandboxName } from './evaluation.runner.js';
import type { RunQueue } from './run.queue.js';

type RunRow = typeof eventRuns.$inferSelect;
const FOLDER = 'event-runs';
const RUN_LOCK = 706_140_002;
/** The runs a team's list shows, newest first. */
const LIST_MAX = 200;

/** Runs that count against the daily limit: all but the cancelled ones and those the platform failed. */
export const countedRun = (row: Pick<RunRow, 'state' | 'platformFault'>) =>
  row.state !== 'cancelled' && !(row.state === 'failed' && row.platformFault);
const counted = and(
  sql`${eventRuns.state} <> 'cancelled'`,
  or(sql`${eventRuns.state} <> 'failed'`, eq(eventRuns.platformFault, false)),
);

export function presentRun(row: RunRow, teamName: string): TRun {
  return {
    id: row.id,
    eventId: row.eventId,
    trackId: row.trackId,
    registrationId: row.registrationId,
    teamName,
    state: row.state,
    score: row.score,
    error: row.error,
    platformFault: row.platformFault,
    counted: countedRun(row),
    queuedAt: row.queuedAt.toISOString(),
    startedAt: row.startedAt?.toISOString() ?? null,
    finishedAt: row.finishedAt?.toISOString() ?? null,
  };
}

/** The caller's team in an auto-scored track: a passed registration of that track (else 4514). */
async function passedTeam(db: Db, auth: AuthContext, event: EventRow, trackId: string) {
  const registration = await teamOf(db, auth, event.id);
  if (!registration || registration.trackId !== trackId || registration.state !== 'passed') {
    throw new AppError('EVENT_NOT_QUALIFIED');
  }
  return registration;
}

/** The team's day for the daily limit: the date in the event's customer's time zone (Shanghai for the platform's). */
async function dayOf(ctx: AppContext, event: EventRow): Promise<string> {
  let timeZone = 'Asia/Shanghai';
  if (event.customerId) {
    const [customer] = await ctx.db
      .select({ timeZone: customers.timeZone })
      .from(customers)
      .where(eq(customers.id, event.customerId));
    timeZone = customer?.timeZone ?? timeZone;
  }
  return todayIn(timeZone, ctx.now());
}

async function usedOn(db: Db, registrationId: string, trackId: string, day: string): Promise<number> {
  const [row] = await db
    .select({ value: count() })
    .from(eventRuns)
    .where(
      and(
        eq(eventRuns.registrationId, registrationId),
        eq(eventRuns.trackId, trackId),
        eq(eventRuns.day, day),
        counted,
      ),
    );
  return Number(row?.value ?? 0);
}

export type Predictions = { filename: string; stream: Readable } | { projectId: string; path: string };

/** Streams the predictions from an upload or from a file of a project the caller owns. */
async function predictionsStream(ctx: AppContext, manager: RuntimeManager, auth: AuthContext, source: Predictions) {
  if ('stream' in source) return source;
  const { project } = await loadProjectFor(ctx.db, auth, source.projectId, 'own');
  const file = await new ProjectFiles(ctx, manager.driver, project).download(source.path);
  if (file.size > EVENT_LIMITS.predictionsBytes) {
    file.stream.destroy();
    throw new AppError('FILE_TOO_LARGE');
  }
  return { filename: file.name, stream: file.stream };
}

/**
 * A team queues a run of its predictions: a passed team of the auto-scored track (4514), while submission is open
 * (4501), once the track has its evaluation (4513), within the track's daily runs (4508). Answers at once with the
 * run queued; the team polls its runs.
 */
export async function submitRun(
  ctx: AppContext,
  queue: RunQueue,
  auth: AuthContext,
  query: { eventId: string; trackId: string },
  source: () => Promise<Predictions>,
): Promise<TRun> {
  const event = await findEvent(ctx.db, query.eventId);
  const track = autoTrack(event, query.trackId);
  const registration = await passedTeam(ctx.db, auth, event, track.id);
  if (!submissionOpen(datesOf(event), ctx.now())) throw new AppError('EVENT_PHASE_CLOSED');
  if (!(await findEvaluation(ctx.db, event.id, track.id))) throw new AppError('EVENT_EVALUATION_MISSING');
  const day = await dayOf(ctx, event);
  const limited = async (db: Db) => {
    if ((await usedOn(db, registration.id, track.id, day)) >= track.dailyRuns) {
      throw new AppError('EVENT_DAILY_LIMIT', { dailyRuns: track.dailyRuns });
    }
  };
  await limited(ctx.db);
  const predictions = await predictionsStream(ctx, queue.manager, auth, await source());
  const key = `${FOLDER}/${event.id}/${randomUUID()}-${sandboxName('predictions', predictions.filename)}`;
  await ctx.storage.put(key, predictions.stream, { maxBytes: EVENT_LIMITS.predictionsBytes });
  let row: RunRow;
  try {
    row = await ctx.db.transaction(async (tx) => {
      // A team's presses at once wait for each other, so each counts the runs queued before it.
      await tx.execute(sql`select pg_advisory_xact_lock(${RUN_LOCK}::int4, hashtext(${registration.id}))`);
      await limited(tx);
      const [created] = await tx
        .insert(eventRuns)
        .values({
          eventId: event.id,
          trackId: track.id,
          registrationId: registration.id,
          submittedBy: auth.userId,
          predictionsKey: key,
          day,
          queuedAt: ctx.now(),
        })
        .returning();
      return created!;
    });
  } catch (error) {
    await ctx.storage.delete(key).catch(() => undefined);
    throw error;
  }
  queue.kick();
  return presentRun(row, registration.teamName);
}

/** The team's runs of a track, today's count against the limit and its personal best. */
export async function listRuns(
  ctx: AppContext,
  auth: AuthContext,
  query: { eventId: string; trackId: string },
): Promise<TRunsView> {
  const event = await findEvent(ctx.db, query.eventId);
  const track = autoTrack(event, query.trackId);
  const registration = await passedTeam(ctx.db, auth, event, track.id);
  const rows = await ctx.db
    .select()
    .from(eventRuns)
    .where(and(eq(eventRuns.registrationId, registration.id), eq(eventRuns.trackId, track.id)))
    .orderBy(desc(eventRuns.queuedAt), desc(eventRuns.id))
    .limit(LIST_MAX);
  const [best] = await ctx.db
    .select({
      value: track.higherIsBetter ? sql<number>`max(${eventRuns.score})` : sql<number>`min(${eventRuns.score})`,
    })
    .from(eventRuns)
    .where(
      and(
        eq(eventRuns.registrationId, registration.id),
        eq(eventRuns.trackId, track.id),
        eq(eventRuns.state, 'scored'),
      ),
    );
  return {
    runs: rows.map((r) => presentRun(r, registration.teamName)),
    usedToday: await usedOn(ctx.db, registration.id, track.id, await dayOf(ctx, event)),
    dailyRuns: track.dailyRuns,
    best: best?.value === null || best?.value === undefined ? null : Number(best.value),
  };
}

/** The team cancels a queued run (it no longer counts); a run already started answers 4503. */
export async function cancelRun(ctx: AppContext, auth: AuthContext, runId: string): Promise<TRun> {
  const [run] = await ctx.db.select().from(eventRuns).where(eq(eventRuns.id, runId));
  if (!run) throw new AppError('NOT_FOUND');
  const registration = await teamOf(ctx.db, auth, run.eventId);
  if (registration?.id !== run.registrationId) throw new AppError('NOT_FOUND');
  const [cancelled] = await ctx.db
    .update(eventRuns)
    .set({ state: 'cancelled', finishedAt: ctx.now() })
    .where(and(eq(eventRuns.id, run.id), inArray(eventRuns.state, ['queued'])))
    .returning();
  if (!cancelled) throw new AppError('EVENT_STATE_INVALID', { state: run.state });
  await ctx.storage.delete(cancelled.predictionsKey).catch(() => undefined);
  return presentRun(cancelled, registration.teamName);
}

/**
 * Every team's runs of an auto-scored track, for its organisers: newest first, of one state or all, with the track's
 * count in each state (how long the queue is, how many failed). The predictions and the script stay unread.
 */
export async function allRuns(
  ctx: AppContext,
  auth: AuthContext,
  query: { eventId: string; trackId: string; state?: TRun['state']; page: number; size: number },
): Promise<TEventRunsPage> {
  const event = await organisedEvent(ctx.db, auth, query.eventId);
  const track = autoTrack(event, query.trackId);
  const ofTrack = and(eq(eventRuns.eventId, event.id), eq(eventRuns.trackId, track.id));
  const [rows, byState] = await Promise.all([
    ctx.db
      .select({ run: eventRuns, teamName: eventRegistrations.teamName })
      .from(eventRuns)
      .innerJoin(eventRegistrations, eq(eventRegistrations.id, eventRuns.registrationId))
      .where(and(ofTrack, query.state ? eq(eventRuns.state, query.state) : undefined))
      .orderBy(desc(eventRuns.queuedAt), desc(eventRuns.id))
      .limit(query.size)
      .offset((query.page - 1) * query.size),
    ctx.db.select({ state: eventRuns.state, n: count() }).from(eventRuns).where(ofTrack).groupBy(eventRuns.state),
  ]);
  const counts = Object.fromEntries(EVENT_RUN_STATES.map((state) => [state, 0])) as TEventRunsPage['counts'];
  for (const { state, n } of byState) counts[state] = Number(n);
  return {
    list: rows.map(({ run, teamName }) => presentRun(run, teamName)),
    total: query.state ? counts[query.state] : Object.values(counts).reduce((a, b) => a + b, 0),
    page: query.page,
    size: query.size,
    counts,
  };
}
