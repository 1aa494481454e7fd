import { and, asc, eq, lte, sql } from 'drizzle-orm';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import { writeAudit } from '../../platform/audit.js';
import type { AuthContext } from '../../platform/auth/tokens.js';
import type { AppContext } from '../../platform/context.js';
import type { Db } from '../../platform/db/client.js';
import { AppError } from '../../platform/errors.js';
import { callerScope, scopeWhere, type Scope } from '../../platform/tenancy.js';
import { upgradeSchedules } from '../../platform/db/schema/index.js';
import { upgradeClasses } from './class.service.js';

/**
 * Runs every due automatic upgrade once. A schedule is claimed by moving its time forward (or switching it off) in
 * the same statement that finds it, so two server processes never run the same upgrade; the upgrade and the claim
 * share one transaction, so a crash in between leaves the schedule due for the next tick.
 */
export async function runDueUpgrades(db: Db, now: Date): Promise<number> {
  let runs = 0;
  for (;;) {
    const ran = await db.transaction(async (tx) => {
      const [due] = await tx
        .select()
        .from(upgradeSchedules)
        .where(and(eq(upgradeSchedules.active, true), lte(upgradeSchedules.runAt, now)))
        .orderBy(upgradeSchedules.runAt)
        .limit(1)
        .for('update', { skipLocked: true });
      if (!due) return false;
      await tx
        .update(upgradeSchedules)
        .set(
          due.repeat === 'yearly'
            ? { runAt: sql`${upgradeSchedules.runAt} + interval '1 year'`, lastRunAt: now }
            : { active: false, lastRunAt: now },
        )
        .where(eq(upgradeSchedules.id, due.id));
      const scope: Scope = due.schoolId
        ? { kind: 'school', customerId: due.customerId, schoolId: due.schoolId }
        : { kind: 'customers', customerId: due.customerId, customerIds: [due.customerId] };
      await upgradeClasses(tx as unknown as Db, 'all', scope);
      return true;
    });
    if (!ran) return runs;
    runs++;
  }
}

/** Checks for due upgrades every minute while the server runs; survives restarts because the schedule is in the database. */
export function startUpgradeScheduler(db: Db, now: () => Date, log: FastifyBaseLogger, everyMs = 60_000) {
  const tick = () =>
    runDueUpgrades(db, now())
      .then((n) => n > 0 && log.info({ runs: n }, 'automatic class upgrades ran'))
      .catch((err: unknown) => log.error({ err }, 'automatic class upgrade failed'));
  const timer = setInterval(tick, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}

const presentSchedule = (row: typeof upgradeSchedules.$inferSelect) => ({
  id: row.id,
  schoolId: row.schoolId,
  runAt: row.runAt.toISOString(),
  repeat: row.repeat,
  lastRunAt: row.lastRunAt?.toISOString() ?? null,
});

/** Automatic upgrades still to come in the caller's scope (school staff: their school's only). */
export async function listUpgradeSchedules(ctx: AppContext, auth: AuthContext) {
  const scope = await callerScope(ctx.db, auth);
  const rows = await ctx.db
    .select()
    .from(upgradeSchedules)
    .where(and(eq(upgradeSchedules.active, true), scopeWhere(scope, upgradeSchedules)))
    .orderBy(asc(upgradeSchedules.runAt));
  return rows.map(presentSchedule);
}

export async function cancelUpgradeSchedule(ctx: AppContext, request: FastifyRequest, auth: AuthContext, id: string) {
  const scope = await callerScope(ctx.db, auth);
  await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .update(upgradeSchedules)
      .set({ active: false })
      .where(and(eq(upgradeSchedules.id, id), eq(upgradeSchedules.active, true), scopeWhere(scope, upgradeSchedules)))
      .returning();
    if (!row) throw new AppError('NOT_FOUND');
    await writeAudit(tx, request, {
      module: 'class',
      operation: 'cancel-upgrade-schedule',
      params: { id },
      customerId: row.customerId,
    });
  });
}
