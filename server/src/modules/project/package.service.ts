import type { TPackage, TPackageOperation } from '@aiedu/contracts';
import { and, asc, desc, eq, gt, inArray, isNull, ne, notExists, or } from 'drizzle-orm';
import type { AppContext } from '../../platform/context.js';
import type { Db } from '../../platform/db/client.js';
import { packageOperations, projects, serverInstances } from '../../platform/db/schema/index.js';
import { AppError } from '../../platform/errors.js';
import type { ServerInstance } from '../../platform/server-instances.js';
import type { DiskGuard } from '../runtime/disk-guard.js';
import type { RuntimeDriver } from '../runtime/runtime-driver.js';
import type { ProjectRow } from './project-access.js';

type OperationRow = typeof packageOperations.$inferSelect;

export function presentOperation(row: OperationRow): TPackageOperation {
  return {
    id: row.id,
    kind: row.kind,
    name: row.name,
    state: row.state,
    message: row.message,
    createdAt: row.createdAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
  };
}

/** pip's own reason for a failure: its ERROR lines, else the end of its output. */
function pipReason(stderr: string, stdout: string): string {
  const errors = stderr
    .split('\n')
    .filter((l) => l.startsWith('ERROR:'))
    .join('\n');
  return (errors || stderr.trim() || stdout.trim()).slice(-2000);
}

/** Why a command could not run: the error's own reason when it gives one, else its code or message. */
function execFailureReason(error: unknown): string {
  if (error instanceof AppError) {
    const reason = (error.details as { reason?: unknown } | undefined)?.reason;
    return (typeof reason === 'string' && reason.trim() ? `${error.message}: ${reason.trim()}` : error.message).slice(
      -2000,
    );
  }
  return (error instanceof Error ? error.message : String(error)).slice(-2000);
}

/**
 * The distributions the project's Python sees, as its imports find them (the venv's before Debian's), each marked
 * `provided` when it lives outside the virtual environment: the environment's own (Debian's numpy, say), which no
 * uninstall in the project can remove. Faster than `pip list` by half a second, and it knows where each one is.
 */
const LIST_DISTRIBUTIONS = `
import json, os, sys
from importlib import metadata
seen, found = set(), []
venv = os.path.realpath(sys.prefix) + os.sep
for dist in metadata.distributions():
    name = dist.metadata['Name']
    key = (name or '').lower().replace('_', '-')
    if not name or key in seen:
        continue
    seen.add(key)
    where = os.path.realpath(str(dist.locate_file('')))
    found.append({'name': name, 'version': dist.version, 'provided': not (where + os.sep).startswith(venv)})
print(json.dumps(found))
`;

/** pip uninstalls nothing and still answers 0 for a package outside the environment: only its word counts. */
const UNINSTALLED = /^\s*Successfully uninstalled /m;

/** Operations not yet ended. */
const OPEN_STATES = ['init', 'waiting', 'installing', 'uninstalling'] as const;
/** How often an operation whose turn has not come looks again (another process runs one of the project's). */
const TURN_POLL_MS = 1000;

/**
 * Installs and uninstalls packages in the project's virtual environment (created with --system-site-packages, so
 * Debian's numpy and matplotlib stay visible), with pip pointed at PIP_INDEX_URL. One operation runs at a time
 * per project, in the order they were asked for, across all the server processes: each runs its own in turn, and
 * takes its turn in the database (the project row locked while it looks), so two pips never share an environment.
 * An operation whose process stopped (a restart, a crash) ends as failed instead of holding the queue.
 */
export class PackageQueue {
  private readonly chains = new Map<string, Promise<void>>();

  constructor(
    private readonly ctx: AppContext,
    private readonly driver: RuntimeDriver,
    private readonly instance: ServerInstance,
    /** Installs are refused while the runtimes' disk is below its floor. */
    private readonly disk: Pick<DiskGuard, 'assertRoom'> | null = null,
  ) {}

  /** Ends as failed the project's open operations of processes that have stopped (or of a version before holders). */
  private async releaseInterrupted(projectId: string, db: Db = this.ctx.db) {
    const beating = db
      .select({ id: serverInstances.id })
      .from(serverInstances)
      .where(
        and(
          eq(serverInstances.id, packageOperations.holder),
          gt(serverInstances.heartbeatAt, this.instance.beatingSince()),
        ),
      );
    await db
      .update(packageOperations)
      .set({ state: 'fail', finishedAt: this.ctx.now() })
      .where(
        and(
          eq(packageOperations.projectId, projectId),
          inArray(packageOperations.state, [...OPEN_STATES]),
          or(isNull(packageOperations.holder), and(ne(packageOperations.holder, this.instance.id), notExists(beating))),
        ),
      );
  }

  /**
   * Starts `row` if its turn has come: no operation of the project running and none waiting from before it.
   * 'gone' when it was cancelled (or released) meanwhile.
   */
  private claimTurn(row: OperationRow, running: 'installing' | 'uninstalling') {
    return this.ctx.db.transaction(async (tx) => {
      await tx.select({ id: projects.id }).from(projects).where(eq(projects.id, row.projectId)).for('update');
      await this.releaseInterrupted(row.projectId, tx);
      const open = await tx
        .select({ id: packageOperations.id, state: packageOperations.state })
        .from(packageOperations)
        .where(
          and(
            eq(packageOperations.projectId, row.projectId),
            inArray(packageOperations.state, ['waiting', 'installing', 'uninstalling']),
          ),
        )
        .orderBy(asc(packageOperations.createdAt), asc(packageOperations.id));
      if (!open.some((o) => o.id === row.id)) return 'gone' as const;
      if (open[0]!.id !== row.id || open.some((o) => o.state !== 'waiting')) return 'wait' as const;
      await tx.update(packageOperations).set({ state: running }).where(eq(packageOperations.id, row.id));
      return 'claimed' as const;
    });
  }

  async installed(project: ProjectRow) {
    const result = await this.driver.exec(project, ['-c', LIST_DISTRIBUTIONS], { timeoutMs: 60_000 });
    if (result.code !== 0)
      throw new AppError('DEPENDENCY_SYNC_FAILED', { reason: pipReason(result.stderr, result.stdout) });
    return (JSON.parse(result.stdout) as TPackage[]).sort((a, b) => a.name.localeCompare(b.name));
  }

  async list(projectId: string) {
    await this.releaseInterrupted(projectId);
    const rows = await this.ctx.db
      .select()
      .from(packageOperations)
      .where(eq(packageOperations.projectId, projectId))
      .orderBy(desc(packageOperations.createdAt))
      .limit(50);
    return rows.map(presentOperation);
  }

  async enqueue(project: ProjectRow, userId: string, kind: 'install' | 'uninstall', name: string) {
    if (kind === 'install') await this.disk?.assertRoom();
    const [row] = await this.ctx.db
      .insert(packageOperations)
      .values({
        projectId: project.id,
        customerId: project.customerId,
        userId,
        kind,
        name,
        state: 'waiting',
        holder: this.instance.id,
      })
      .returning();
    const previous = this.chains.get(project.id) ?? Promise.resolve();
    const next = previous.then(() => this.run(project, row!)).catch(() => undefined);
    this.chains.set(project.id, next);
    void next.finally(() => {
      if (this.chains.get(project.id) === next) this.chains.delete(project.id);
    });
    return presentOperation(row!);
  }

  /** Cancels an operation still waiting its turn. */
  async cancel(projectId: string, operationId: string) {
    const [row] = await this.ctx.db
      .update(packageOperations)
      .set({ state: 'cancelled', finishedAt: this.ctx.now() })
      .where(
        and(
          eq(packageOperations.projectId, projectId),
          eq(packageOperations.id, operationId),
          inArray(packageOperations.state, ['init', 'waiting']),
        ),
      )
      .returning();
    if (!row) throw new AppError('OPERATION_FAILED');
    return presentOperation(row);
  }

  /** Waits for every queued operation of a project (tests and shutdown). */
  async idle(projectId: string) {
    await this.chains.get(projectId);
  }

  /**
   * Runs `row` when its turn comes. Whatever goes wrong on the way (pip's environment cannot be made, the database
   * answers an error) ends it as failed with the reason, so the operations behind it go on.
   */
  private async run(project: ProjectRow, row: OperationRow) {
    try {
      await this.runInTurn(project, row);
    } catch (error) {
      await this.finish(row, { state: 'fail', message: execFailureReason(error) }).catch(() => undefined);
    }
  }

  private async runInTurn(project: ProjectRow, row: OperationRow) {
    const running = row.kind === 'install' ? 'installing' : 'uninstalling';
    for (;;) {
      const turn = await this.claimTurn(row, running);
      if (turn === 'gone') return;
      if (turn === 'claimed') break;
      await new Promise((resolve) => setTimeout(resolve, TURN_POLL_MS));
    }
    const args =
      row.kind === 'install'
        ? ['-m', 'pip', 'install', '--no-input', '--progress-bar', 'off', row.name]
        : ['-m', 'pip', 'uninstall', '--yes', row.name];
    const result = await this.driver.exec(project, args, { timeoutMs: 15 * 60_000 });
    const failed = result.code !== 0 || (row.kind === 'uninstall' && !UNINSTALLED.test(result.stdout));
    await this.finish(
      row,
      failed
        ? { state: 'fail', message: pipReason(result.stderr, result.stdout) }
        : { state: 'success', message: result.stdout.trim().split('\n').at(-1) ?? '' },
    );
  }

  /** Ends an operation of this process still open (not one cancelled or released meanwhile). */
  private async finish(row: OperationRow, outcome: { state: 'fail' | 'success'; message: string }) {
    await this.ctx.db
      .update(packageOperations)
      .set({ ...outcome, finishedAt: this.ctx.now() })
      .where(
        and(
          eq(packageOperations.id, row.id),
          eq(packageOperations.holder, this.instance.id),
          inArray(packageOperations.state, [...OPEN_STATES]),
        ),
      );
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Package operations of this process (tests wait for a project's queue to drain). */
    packages: PackageQueue;
  }
}
