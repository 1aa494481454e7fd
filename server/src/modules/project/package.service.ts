import type { TPackageOperation } from '@aiedu/contracts';
import { and, desc, eq, inArray } from 'drizzle-orm';
import type { AppContext } from '../../platform/context.js';
import { packageOperations } from '../../platform/db/schema/index.js';
import { AppError } from '../../platform/errors.js';
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

/**
 * Installs and uninstalls packages in the project's virtual environment (created with --system-site-packages, so
 * Debian's numpy and matplotlib stay visible), with pip pointed at PIP_INDEX_URL. One operation runs at a time
 * per project; later ones wait in order.
 */
export class PackageQueue {
  private readonly chains = new Map<string, Promise<void>>();

  constructor(
    private readonly ctx: AppContext,
    private readonly driver: RuntimeDriver,
  ) {}

  async installed(project: ProjectRow) {
    const result = await this.driver.exec(project, ['-m', 'pip', 'list', '--format=json'], { timeoutMs: 60_000 });
    if (result.code !== 0)
      throw new AppError('DEPENDENCY_SYNC_FAILED', { reason: pipReason(result.stderr, result.stdout) });
    return (JSON.parse(result.stdout) as { name: string; version: string }[]).sort((a, b) =>
      a.name.localeCompare(b.name),
    );
  }

  async list(projectId: string) {
    const rows = await this.ctx.db
      .select()
      .from(packageOperations)
      .where(eq(packageOperations.projectId, projectId))
      .orderBy(desc(packageOperations.createdAt))
      .limit(50);
    return rows.map(presentOperation);
  }

  async enqueue(project: ProjectRow, userId: string, kind: 'install' | 'uninstall', name: string) {
    const [row] = await this.ctx.db
      .insert(packageOperations)
      .values({ projectId: project.id, customerId: project.customerId, userId, kind, name, state: 'waiting' })
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

  private async run(project: ProjectRow, row: OperationRow) {
    const [current] = await this.ctx.db.select().from(packageOperations).where(eq(packageOperations.id, row.id));
    if (current?.state !== 'waiting') return;
    const running = row.kind === 'install' ? 'installing' : 'uninstalling';
    await this.ctx.db.update(packageOperations).set({ state: running }).where(eq(packageOperations.id, row.id));
    const args =
      row.kind === 'install'
        ? ['-m', 'pip', 'install', '--no-input', '--progress-bar', 'off', row.name]
        : ['-m', 'pip', 'uninstall', '--yes', row.name];
    const result = await this.driver.exec(project, args, { timeoutMs: 15 * 60_000 });
    const failed = result.code !== 0 || /WARNING: Skipping .* as it is not installed/.test(result.stderr);
    await this.ctx.db
      .update(packageOperations)
      .set({
        state: failed ? 'fail' : 'success',
        message: failed ? pipReason(result.stderr, result.stdout) : (result.stdout.trim().split('\n').at(-1) ?? ''),
        finishedAt: this.ctx.now(),
      })
      .where(eq(packageOperations.id, row.id));
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Package operations of this process (tests wait for a project's queue to drain). */
    packages: PackageQueue;
  }
}
