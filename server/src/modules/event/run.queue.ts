import { and, eq, inArray, isNotNull, ne, sql } from 'drizzle-orm';
import type { AppContext } from '../../platform/context.js';
import { eventRuns } from '../../platform/db/schema/index.js';
import type { RuntimeManager } from '../runtime/runtime-manager.js';
import type { RuntimeProject } from '../runtime/runtime-driver.js';
import { evaluateInSandbox, newSandbox, type EvaluationOutcome } from './evaluation.runner.js';
import { findEvaluation } from './evaluation.service.js';

type RunRow = typeof eventRuns.$inferSelect;

/** The oldest queued run of one team, and when that team's latest run started (null: never). */
export interface QueueHead {
  id: string;
  registrationId: string;
  queuedAt: Date;
  lastStartedAt: Date | null;
}

/**
 * The next run to start, fairly: the team whose latest run started longest ago goes first (a team that never ran
 * before all), then the run queued earliest. Fifty runs of one team never keep another team's single run waiting
 * for all of them.
 */
export function pickNext(heads: readonly QueueHead[]): QueueHead | null {
  let best: QueueHead | null = null;
  for (const head of heads) {
    if (!best || comesBefore(head, best)) best = head;
  }
  return best;
}

function comesBefore(a: QueueHead, b: QueueHead): boolean {
  const started = (h: QueueHead) => h.lastStartedAt?.getTime() ?? -Infinity;
  if (started(a) !== started(b)) return started(a) < started(b);
  if (a.queuedAt.getTime() !== b.queuedAt.getTime()) return a.queuedAt.getTime() < b.queuedAt.getTime();
  return a.id < b.id;
}

const QUEUE_LOCK = 706_140_001;
/** How often a process looks for runs queued by the others and for runs of processes that stopped. */
const SWEEP_MS = 5_000;

/**
 * Runs the queued evaluations of auto-scored tracks in this process: at most `EVENT_RUN_CONCURRENCY` at once (0: none
 * here), each in a sandbox of its own, the next one picked fairly across teams (`pickNext`). Every process of a
 * deployment may run one; a run is claimed in the database, so each runs once, and a run left `running` by a process
 * that stopped beating is queued again.
 */
export class RunQueue {
  private active = 0;
  private timer: NodeJS.Timeout | null = null;
  private closed = false;
  private pumping: Promise<void> | null = null;
  /**
   * Each evaluation's sandbox in this process, made at its first run: its virtual environment is made once, and
   * every run of the track has a folder of its own in it. Removed when the process closes.
   */
  private readonly sandboxes = new Map<string, Promise<RuntimeProject>>();
  /** Evaluations this process has not finished recording (a clean close waits for them). */
  readonly running = new Set<Promise<unknown>>();

  constructor(
    readonly ctx: AppContext,
    readonly manager: RuntimeManager,
  ) {}

  private get concurrency() {
    return this.ctx.config.eventRuns.concurrency;
  }

  /** Starts the sweeps (after the app is ready, so tests and starts are never held up). */
  async open(): Promise<void> {
    if (this.concurrency === 0 || this.timer || this.closed) return;
    this.timer = setInterval(() => this.kick(), SWEEP_MS);
    this.timer.unref();
    this.kick();
  }

  /** Looks for work now (a run was queued, or one finished). */
  kick(): void {
    if (this.closed || this.concurrency === 0) return;
    if (this.pumping) {
      this.again = true;
      return;
    }
    this.pumping = this.pump()
      .catch(() => undefined)
      .finally(() => {
        this.pumping = null;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
  }

  private again = false;

  private async pump() {
    await this.requeueOrphans();
    while (!this.closed && this.active < this.concurrency) {
      const run = await this.claimNext();
      if (!run) return;
      this.active++;
      const done = this.execute(run).finally(() => {
        this.active--;
        this.kick();
      });
      this.running.add(done);
      void done.finally(() => this.running.delete(done));
    }
  }

  /** Runs left `running` by processes that no longer beat go back to the queue. */
  async requeueOrphans(): Promise<number> {
    const holders = await this.ctx.db
      .selectDistinct({ holder: eventRuns.claimedBy })
      .from(eventRuns)
      .where(
        and(
          eq(eventRuns.state, 'running'),
          isNotNull(eventRuns.claimedBy),
          ne(eventRuns.claimedBy, this.manager.instance.id),
        ),
      );
    const gone: string[] = [];
    for (const { holder } of holders) {
      if (holder && (await this.manager.instance.addressOf(holder)) === null) gone.push(holder);
    }
    if (gone.length === 0) return 0;
    const requeued = await this.ctx.db
      .update(eventRuns)
      .set({ state: 'queued', claimedBy: null, startedAt: null })
      .where(and(eq(eventRuns.state, 'running'), inArray(eventRuns.claimedBy, gone)))
      .returning({ id: eventRuns.id });
    return requeued.length;
  }

  /** Claims the fair next run for this process; null when none is queued. */
  async claimNext(): Promise<RunRow | null> {
    return this.ctx.db.transaction(async (tx) => {
      // Processes pick one at a time, so the order holds across a deployment.
      await tx.execute(sql`select pg_advisory_xact_lock(${QUEUE_LOCK})`);
      const result = await tx.execute(sql`
        select distinct on (r.registration_id) r.id, r.registration_id, r.queued_at,
          (select max(s.started_at) from event_runs s where s.registration_id = r.registration_id) as last_started
        from event_runs r where r.state = 'queued'
        order by r.registration_id, r.queued_at, r.id`);
      const rows = (
        result as unknown as {
          rows: { id: string; registration_id: string; queued_at: Date | string; last_started: Date | string | null }[];
        }
      ).rows;
      const next = pickNext(
        rows.map((r) => ({
          id: r.id,
          registrationId: r.registration_id,
          queuedAt: new Date(r.queued_at),
          lastStartedAt: r.last_started === null ? null : new Date(r.last_started),
        })),
      );
      if (!next) return null;
      const [claimed] = await tx
        .update(eventRuns)
        .set({ state: 'running', claimedBy: this.manager.instance.id, startedAt: this.ctx.now() })
        .where(and(eq(eventRuns.id, next.id), eq(eventRuns.state, 'queued')))
        .returning();
      return claimed ?? null;
    });
  }

  private async execute(run: RunRow): Promise<void> {
    const outcome = await this.evaluate(run).catch((error: unknown): EvaluationOutcome => ({
      score: null,
      error: `the evaluation could not run: ${error instanceof Error ? error.message.slice(0, 300) : ''}`,
      platformFault: true,
    }));
    await this.ctx.db
      .update(eventRuns)
      .set({
        state: outcome.score === null ? 'failed' : 'scored',
        score: outcome.score,
        error: outcome.error,
        platformFault: outcome.platformFault,
        finishedAt: this.ctx.now(),
      })
      .where(and(eq(eventRuns.id, run.id), eq(eventRuns.state, 'running'), eq(eventRuns.claimedBy, run.claimedBy!)));
  }

  private async evaluate(run: RunRow): Promise<EvaluationOutcome> {
    const evaluation = await findEvaluation(this.ctx.db, run.eventId, run.trackId);
    if (!evaluation) return { score: null, error: 'the track has no evaluation', platformFault: true };
    const storage = this.ctx.storage;
    const open = (key: string) => async () => (await storage.get(key)).stream;
    let sandbox = this.sandboxes.get(evaluation.id);
    if (!sandbox) {
      // Made once, before any run uses it, so runs at once never make its virtual environment together.
      sandbox = newSandbox(this.ctx.db).then(async (project) => {
        await this.manager.driver.exec(project, ['-c', 'pass'], { timeoutMs: 300_000 });
        return project;
      });
      this.sandboxes.set(evaluation.id, sandbox);
      sandbox.catch(() => this.sandboxes.delete(evaluation.id));
    }
    return evaluateInSandbox(
      this.manager.driver,
      await sandbox,
      run.id,
      {
        script: open(evaluation.scriptKey),
        predictions: { name: run.predictionsKey, open: open(run.predictionsKey) },
        answers: { name: evaluation.answersName, open: open(evaluation.answersKey) },
      },
      {
        timeoutSeconds: this.ctx.config.eventRuns.timeoutSeconds,
        memoryBytes: this.ctx.config.runtimeLimits.BASIC.memoryMb * 1024 * 1024,
      },
    );
  }

  /** Waits until nothing is queued or running here (tests), looking again as runs finish. */
  async settled(): Promise<void> {
    for (;;) {
      await this.pumping;
      await Promise.allSettled([...this.running]);
      if (!this.pumping && this.running.size === 0) return;
    }
  }

  /** No more runs start here; the ones running finish and are recorded. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    await this.pumping;
    await Promise.allSettled([...this.running]);
    for (const sandbox of this.sandboxes.values()) {
      await sandbox.then((project) => this.manager.driver.remove(project)).catch(() => undefined);
    }
    this.sandboxes.clear();
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The evaluations of auto-scored event tracks this process runs. */
    eventRuns: RunQueue;
  }
}
