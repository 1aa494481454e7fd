import type { ContainerType, RuntimeEnvironment, TRuntimeStatus } from '@aiedu/contracts';
import { and, eq, gt, inArray, isNull, ne, notExists, notInArray, or } from 'drizzle-orm';
import type { AppContext } from '../../platform/context.js';
import { runtimes, serverInstances } from '../../platform/db/schema/index.js';
import { AppError } from '../../platform/errors.js';
import { computeBalance, debitMinutes } from './compute-balance.js';
import { DiskGuard } from './disk-guard.js';
import { kernelsBusy } from './kernel-probe.js';
import { ACTIVE, checkStartQuotas } from './runtime-quotas.js';
import type { RuntimeDriver, RuntimeEndpoint, RuntimeProject } from './runtime-driver.js';
import type { DatasetMount } from './dataset-mounts.js';
import type { RuntimeAvailability } from './runtime-install.js';
import { INSTANCE_SIGNATURE_HEADER, type ServerInstance } from '../../platform/server-instances.js';

type StopReason = NonNullable<TRuntimeStatus['stopReason']>;
const MINUTE = 60_000;
/** Runtimes tended at once by a tick: a Jupyter slow to answer holds up only its own. */
const TICK_PARALLEL = 8;

interface Live {
  endpoint: RuntimeEndpoint;
  userId: string;
  customerId: string | null;
  runtimeType: ContainerType;
  debitedAt: number;
  lastActivity: number;
}

/** Where a project's running runtime is: in this process, in another one (its address), or nowhere. */
export type RuntimeLocation = { endpoint: RuntimeEndpoint } | { holder: string } | null;

/** The path another process's `stop` calls on the process that runs the runtime. */
export const INSTANCE_STOP_PATH = '/internal/v1/runtimes/:projectId/stop';

/** The datasets a project's runtime mounts, as its start asks for them. */
export type DatasetSource = (
  project: RuntimeProject,
  user: { userId: string; customerId: string | null },
) => Promise<DatasetMount[]>;

/**
 * The runtimes of all projects: starts them within the customer's quotas, debits the weekly compute balance
 * per minute while RUNNING, stops idle ones (never while a cell still runs), and records every state in the
 * `runtimes` table so the editor shows it live. Each runtime is run by one server process, its holder
 * (`runtimes.holder`): the gateway of any other process forwards to it, a stop asked of another process is passed
 * to it, and the runtimes of a process that stops beating are released by the others.
 */
export class RuntimeManager {
  private readonly live = new Map<string, Live>();
  private readonly pending = new Map<string, Promise<void>>();
  /** Stops under way: a second stop of the same runtime waits for the first instead of racing it. */
  private readonly stopping = new Map<string, Promise<void>>();
  /** The accounting round under way, if any: rounds run one after another, never over each other. */
  private ticking: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  /** Free space for the runtimes' disk: below the floor, writers are stopped. */
  readonly disk: DiskGuard | null;

  constructor(
    private readonly ctx: AppContext,
    readonly driver: RuntimeDriver,
    readonly availability: RuntimeAvailability,
    readonly instance: ServerInstance,
    private readonly log: { info(o: object, m: string): void; warn(o: object, m: string): void },
    /** The AI environment's packages; null where runtimes bring everything (Kubernetes' runtime image). */
    readonly aiAvailability: RuntimeAvailability | null = null,
  ) {
    driver.onExit((projectId) => void this.crashed(projectId));
    const written = driver.writtenBytes?.bind(driver);
    this.disk =
      driver.diskDir && written
        ? new DiskGuard({
            dir: driver.diskDir,
            floorMb: () => ctx.config.minFreeDiskMb,
            running: () => [...this.live.keys()],
            written,
            stop: (projectId) => this.stop(projectId, 'diskFull'),
            watchMs: driver.diskWatchMs,
            log,
          })
        : null;
  }

  private datasetSource: DatasetSource | null = null;

  /** Who answers, at each start, the datasets to mount (the dataset module). */
  useDatasets(source: DatasetSource): void {
    this.datasetSource = source;
  }

  /** A dataset that cannot be mounted never stops a start: it shows as failed in the editor's datasets panel. */
  private async datasetsAtStart(project: RuntimeProject, user: { userId: string; customerId: string | null }) {
    if (!this.datasetSource) return [];
    try {
      return await this.datasetSource(project, user);
    } catch (error) {
      this.log.warn({ projectId: project.id, err: error }, 'datasets not mounted at start');
      return [];
    }
  }

  /** Runtimes this process runs now. */
  runningHere(): number {
    return this.live.size;
  }

  /** Runtimes this process is starting now. */
  startingHere(): number {
    return this.pending.size;
  }

  /**
   * Records this process and ticks every 30 s (debit, idle culling, runtimes of silent processes). Rows left active
   * by no process that still beats are marked stopped.
   */
  async open(): Promise<void> {
    await this.instance.register();
    await this.driver.open?.();
    await this.releaseOrphans();
    this.disk?.open();
    this.timer = setInterval(() => {
      if (!this.ticking) void this.tick().catch(() => undefined);
    }, 30_000);
    this.timer.unref();
  }

  /** The process listens: the runtimes of the process it replaced at the same address are stopped at once. */
  async listening(port: number): Promise<void> {
    const replaced = await this.instance.listening(port);
    if (replaced.length === 0) return;
    await this.ctx.db
      .update(runtimes)
      .set({ state: 'STOPPED', stopReason: 'shutdown' })
      .where(and(inArray(runtimes.state, [...ACTIVE]), inArray(runtimes.holder, replaced)));
  }

  /** A runtime row is orphaned when it is active and no other process that still beats holds it. */
  private orphaned() {
    const beating = this.ctx.db
      .select({ id: serverInstances.id })
      .from(serverInstances)
      .where(
        and(eq(serverInstances.id, runtimes.holder), gt(serverInstances.heartbeatAt, this.instance.beatingSince())),
      );
    return or(isNull(runtimes.holder), and(ne(runtimes.holder, this.instance.id), notExists(beating)));
  }

  /** Marks stopped the active runtimes of processes that are gone (stopped without their own clean-up, or dead). */
  private async releaseOrphans() {
    await this.ctx.db
      .update(runtimes)
      .set({ state: 'STOPPED', stopReason: 'shutdown' })
      .where(and(inArray(runtimes.state, [...ACTIVE]), this.orphaned()));
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.disk?.close();
    // A round or a stop under way ends first: its last writes need the database, which the caller closes next.
    await this.ticking?.catch(() => undefined);
    await Promise.all([...this.stopping.values()].map((stop) => stop.catch(() => undefined)));
    for (const projectId of [...this.live.keys()]) await this.stop(projectId, 'shutdown');
    await this.driver.stopAll();
    await this.instance.close();
  }

  /**
   * Fills the driver's warm pool when one is configured and the runtime is installed (a fresh install fills it
   * with the first start's refill).
   */
  warm(): void {
    if (Object.values(this.ctx.config.runtimeWarmPool).every((n) => n === 0)) return;
    if (this.availability.current.state === 'ready') this.driver.warm();
  }

  endpoint(projectId: string): RuntimeEndpoint | null {
    return this.live.get(projectId)?.endpoint ?? null;
  }

  /**
   * Where the project's runtime runs: this process's endpoint, else the address of the process that holds it while
   * that process still beats (`local` only: a request another process forwarded is never forwarded again).
   */
  async locate(projectId: string, local = false): Promise<RuntimeLocation> {
    const endpoint = this.endpoint(projectId);
    if (endpoint) return { endpoint };
    if (local) return null;
    const holder = await this.holderOf(projectId, ['RUNNING']);
    return holder ? { holder: holder.url } : null;
  }

  /** The other process that holds the project's runtime in one of `states`, while it still beats. */
  private async holderOf(projectId: string, states: readonly (typeof ACTIVE)[number][]) {
    const [row] = await this.ctx.db
      .select({ id: serverInstances.id, url: serverInstances.url })
      .from(runtimes)
      .innerJoin(serverInstances, eq(serverInstances.id, runtimes.holder))
      .where(
        and(
          eq(runtimes.projectId, projectId),
          inArray(runtimes.state, [...states]),
          ne(serverInstances.id, this.instance.id),
          gt(serverInstances.heartbeatAt, this.instance.beatingSince()),
        ),
      );
    return row ?? null;
  }

  /** Traffic from the browser keeps a runtime from being culled as idle. */
  touch(projectId: string): void {
    const live = this.live.get(projectId);
    if (live) live.lastActivity = this.ctx.now().getTime();
  }

  async status(
    project: { id: string; runtimeType: ContainerType },
    user: { userId: string; customerId: string | null },
  ): Promise<TRuntimeStatus> {
    const [row] = await this.ctx.db.select().from(runtimes).where(eq(runtimes.projectId, project.id));
    const runtimeType = (row?.runtimeType ?? project.runtimeType) as ContainerType;
    const state = row?.state ?? 'NA';
    return {
      state,
      runtimeType,
      startedAt: row?.startedAt?.toISOString() ?? null,
      startedBy: row?.startedBy ?? null,
      stopReason: row?.stopReason ?? null,
      proxyPath: state === 'RUNNING' ? `/gw/api/v1/runtime/${project.id}` : null,
      balance: await computeBalance(this.ctx.db, this.ctx.config, user, runtimeType, this.ctx.now()),
    };
  }

  /**
   * Refuses a start while the packages the project's environment needs are missing. The AI environment's are
   * installed by the first start that needs them, where this process may (root with apt-get): that start and the
   * next answer 3102 with the progress until they are there.
   */
  checkInstalled(environment: RuntimeEnvironment = 'python') {
    const refuse = (availability: RuntimeAvailability) => {
      const { state, command, progress } = availability.current;
      if (state === 'installing') throw new AppError('RUNTIME_INSTALLING', { command, progress });
      if (state !== 'ready') throw new AppError('RUNTIME_NOT_INSTALLED', { command });
    };
    refuse(this.availability);
    if (environment !== 'ai' || !this.aiAvailability) return;
    if (this.ctx.config.runtimeAutoInstall) this.aiAvailability.installIfMissing();
    refuse(this.aiAvailability);
  }

  /** Starts the project's runtime (or answers the running one). Serialised per project. */
  async start(
    project: RuntimeProject & { customerId: string | null },
    user: { userId: string; customerId: string | null },
    runtimeType: ContainerType,
  ): Promise<void> {
    const inFlight = this.pending.get(project.id);
    if (inFlight) return inFlight;
    const run = this.doStart(project, user, runtimeType).finally(() => this.pending.delete(project.id));
    this.pending.set(project.id, run);
    return run;
  }

  private async doStart(
    project: RuntimeProject & { customerId: string | null },
    user: { userId: string; customerId: string | null },
    runtimeType: ContainerType,
  ) {
    // A start pressed while the runtime stops starts it again once the stop is over.
    await this.stopping.get(project.id)?.catch(() => undefined);
    if (this.live.has(project.id)) return;
    this.checkInstalled(project.environment);
    await this.disk?.assertRoom();
    const balance = await computeBalance(this.ctx.db, this.ctx.config, user, runtimeType, this.ctx.now());
    if (balance.remainingMinutes <= 0) throw new AppError('COMPUTE_EXHAUSTED', { balance });
    const now = this.ctx.now();
    const values = {
      customerId: project.customerId,
      startedBy: user.userId,
      runtimeType,
      state: 'BOOTING' as const,
      stopReason: null,
      startedAt: now,
      debitedAt: now,
      holder: this.instance.id,
    };
    // The row is this process's claim: one another process holds (starting or running) is left to it. It is made
    // with the quotas counted, under the customer's lock, so exactly the limit can run.
    const claimed = await this.ctx.db.transaction(async (tx) => {
      await checkStartQuotas(tx, project.id, user, runtimeType);
      return tx
        .insert(runtimes)
        .values({ projectId: project.id, ...values })
        .onConflictDoUpdate({
          target: runtimes.projectId,
          set: values,
          where: or(notInArray(runtimes.state, [...ACTIVE]), this.orphaned()),
        })
        .returning({ projectId: runtimes.projectId });
    });
    if (claimed.length === 0) return;
    const datasets = await this.datasetsAtStart(project, user);
    let endpoint: RuntimeEndpoint;
    try {
      endpoint = await this.driver.start({ ...project, datasets }, runtimeType);
    } catch (error) {
      await this.setState(project.id, 'FAILED', 'crashed');
      if (error instanceof AppError) throw error;
      throw new AppError('CONTAINER_START_FAILED');
    }
    const at = this.ctx.now().getTime();
    this.live.set(project.id, {
      endpoint,
      userId: user.userId,
      customerId: user.customerId,
      runtimeType,
      debitedAt: now.getTime(),
      lastActivity: at,
    });
    await this.setState(project.id, 'RUNNING', null);
  }

  /** The row of a runtime this process holds (never one another process has taken over). */
  private held(projectId: string) {
    return and(eq(runtimes.projectId, projectId), eq(runtimes.holder, this.instance.id));
  }

  private async setState(projectId: string, state: TRuntimeStatus['state'], stopReason: StopReason | null) {
    await this.ctx.db.update(runtimes).set({ state, stopReason }).where(this.held(projectId));
  }

  /** Debits whole minutes since the last debit; on stop, the started minute counts too. */
  private async debit(projectId: string, live: Live, final: boolean) {
    const now = this.ctx.now().getTime();
    const elapsed = now - live.debitedAt;
    const minutes = final ? Math.ceil(elapsed / MINUTE) : Math.floor(elapsed / MINUTE);
    if (minutes <= 0) return;
    live.debitedAt += minutes * MINUTE;
    await debitMinutes(this.ctx.db, live, live.runtimeType, minutes, new Date(now));
    await this.ctx.db
      .update(runtimes)
      .set({ debitedAt: new Date(live.debitedAt) })
      .where(this.held(projectId));
  }

  /**
   * Stops a runtime. The workspace is the project's storage, so every saved file stays. One this process is still
   * booting is stopped once it is up (marking it stopped at once would let the boot finish over the stop); one
   * another process runs is stopped by that process (a signed call), which answers once it has.
   */
  async stop(projectId: string, reason: StopReason): Promise<void> {
    await this.pending.get(projectId)?.catch(() => undefined);
    const underWay = this.stopping.get(projectId);
    if (underWay) return underWay;
    const live = this.live.get(projectId);
    if (!live) {
      const holder = await this.holderOf(projectId, ACTIVE);
      if (holder) {
        if (await this.stopAt(holder.url, projectId, reason)) return;
        throw new AppError('CONNECT_TIMEOUT');
      }
      await this.ctx.db
        .update(runtimes)
        .set({ state: 'STOPPED', stopReason: reason })
        .where(and(eq(runtimes.projectId, projectId), inArray(runtimes.state, [...ACTIVE, 'FAILED'])));
      return;
    }
    this.live.delete(projectId);
    const done = (async () => {
      await this.setState(projectId, 'STOPPING', reason);
      await this.driver.stop(projectId);
      await this.debit(projectId, live, true);
      await this.setState(projectId, 'STOPPED', reason);
    })();
    this.stopping.set(projectId, done);
    try {
      await done;
    } finally {
      this.stopping.delete(projectId);
    }
  }

  /**
   * Stops, without a word to the database, the runtimes this process runs whose rows say another process holds
   * them or that they stopped: this process was taken for gone (it could not write its heartbeat), and the others
   * released them. Their minutes were debited up to the last tick that still held them.
   */
  private async dropTakenOver() {
    if (this.live.size === 0) return;
    const rows = await this.ctx.db
      .select({ projectId: runtimes.projectId })
      .from(runtimes)
      .where(
        and(
          inArray(runtimes.projectId, [...this.live.keys()]),
          eq(runtimes.holder, this.instance.id),
          inArray(runtimes.state, [...ACTIVE]),
        ),
      );
    const stillHeld = new Set(rows.map((row) => row.projectId));
    for (const projectId of [...this.live.keys()]) {
      if (stillHeld.has(projectId) || this.pending.has(projectId)) continue;
      this.live.delete(projectId);
      await this.driver.stop(projectId);
    }
  }

  /**
   * A stop another process passed on: this process stops the runtime if it runs it, once a start still under way
   * has finished (a stop pressed while the runtime boots stops it once it is up).
   */
  async stopHere(projectId: string, reason: StopReason): Promise<void> {
    if (this.live.has(projectId) || this.pending.has(projectId)) await this.stop(projectId, reason);
  }

  /** Asks the process at `url` to stop the project's runtime; false when it could not be reached or refused. */
  private async stopAt(url: string, projectId: string, reason: StopReason): Promise<boolean> {
    try {
      const res = await fetch(`${url}${INSTANCE_STOP_PATH.replace(':projectId', projectId)}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          [INSTANCE_SIGNATURE_HEADER]: this.instance.sign(`stop:${projectId}:${reason}`),
        },
        body: JSON.stringify({ reason }),
        signal: AbortSignal.timeout(30_000),
      });
      return res.ok;
    } catch {
      return false;
    }
  }

  private async crashed(projectId: string) {
    const live = this.live.get(projectId);
    if (!live) return;
    this.live.delete(projectId);
    await this.debit(projectId, live, true);
    await this.setState(projectId, 'FAILED', 'crashed');
  }

  /**
   * One round of accounting: debit running minutes, stop exhausted balances and idle runtimes; release the runtimes
   * of processes that stopped beating. Runtimes are tended a few at a time, each on its own. A round asked for while
   * another runs starts once that one has finished, so a stop the other began is over when this one returns.
   */
  async tick(): Promise<void> {
    const round = (this.ticking ?? Promise.resolve()).catch(() => undefined).then(() => this.round());
    this.ticking = round;
    try {
      await round;
    } finally {
      if (this.ticking === round) this.ticking = null;
    }
  }

  private async round(): Promise<void> {
    await this.releaseOrphans();
    await this.instance.forgetSilent();
    await this.dropTakenOver();
    const idleMs = this.ctx.config.runtimeIdleMinutes * MINUTE;
    const queue = [...this.live];
    const worker = async () => {
      for (let next = queue.shift(); next; next = queue.shift()) {
        const [projectId, live] = next;
        await this.tend(projectId, live, idleMs).catch((error: unknown) =>
          this.log.warn({ err: error, projectId }, 'runtime accounting failed'),
        );
      }
    };
    await Promise.all(Array.from({ length: Math.min(TICK_PARALLEL, queue.length) }, worker));
  }

  /** Debits one runtime and stops it when its balance ran out or it has been idle long enough. */
  private async tend(projectId: string, live: Live, idleMs: number) {
    const probe = kernelsBusy(live.endpoint);
    await this.debit(projectId, live, false);
    const balance = await computeBalance(this.ctx.db, this.ctx.config, live, live.runtimeType, this.ctx.now());
    if (balance.remainingMinutes <= 0) return this.stop(projectId, 'computeExhausted');
    const busy = await probe;
    if (this.live.get(projectId) !== live) return; // stopped meanwhile
    const now = this.ctx.now().getTime();
    // A runtime whose Jupyter does not say is not culled on that unknown, unless it has been silent twice as long.
    const idleFor = now - live.lastActivity;
    if (busy) live.lastActivity = now;
    else if (idleFor >= (busy === null ? 2 * idleMs : idleMs)) await this.stop(projectId, 'idle');
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The runtimes of this process (tests drive its accounting tick directly). */
    runtimes: RuntimeManager;
  }
}
