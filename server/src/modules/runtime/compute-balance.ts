import type { ContainerType, TComputeBalance } from '@aiedu/contracts';
import { and, eq, sql } from 'drizzle-orm';
import type { Config } from '../../config.js';
import type { Db } from '../../platform/db/client.js';
import { computeAllowances, computeUsage, customers } from '../../platform/db/schema/index.js';
import { defaultWeeklyMinutes } from '../system/system-config.service.js';
import { computeWeek } from './compute-week.js';

async function customerZone(db: Db, customerId: string | null): Promise<string> {
  if (!customerId) return 'Asia/Shanghai';
  const [row] = await db.select({ timeZone: customers.timeZone }).from(customers).where(eq(customers.id, customerId));
  return row?.timeZone ?? 'Asia/Shanghai';
}

/**
 * Minutes a customer's users get per week on a runtime type: the customer's setting, else the platform default a
 * super administrator set, else configuration.
 */
export async function weeklyAllowance(
  db: Db,
  config: Config,
  customerId: string | null,
  runtimeType: ContainerType,
): Promise<number> {
  if (customerId) {
    const [row] = await db
      .select({ minutes: computeAllowances.weeklyMinutes })
      .from(computeAllowances)
      .where(and(eq(computeAllowances.customerId, customerId), eq(computeAllowances.runtimeType, runtimeType)));
    if (row) return row.minutes;
  }
  return defaultWeeklyMinutes(db, config, runtimeType);
}

/** A user's weekly balance on one runtime type at `now`. */
export async function computeBalance(
  db: Db,
  config: Config,
  user: { userId: string; customerId: string | null },
  runtimeType: ContainerType,
  now: Date,
): Promise<TComputeBalance> {
  const week = computeWeek(now, await customerZone(db, user.customerId));
  const weeklyMinutes = await weeklyAllowance(db, config, user.customerId, runtimeType);
  const [usage] = await db
    .select({ used: computeUsage.usedMinutes })
    .from(computeUsage)
    .where(
      and(
        eq(computeUsage.userId, user.userId),
        eq(computeUsage.runtimeType, runtimeType),
        eq(computeUsage.weekStart, week.weekStart),
      ),
    );
  const usedMinutes = usage?.used ?? 0;
  return {
    runtimeType,
    cpu: config.runtimeLimits[runtimeType].cpu,
    memoryMb: config.runtimeLimits[runtimeType].memoryMb,
    weeklyMinutes,
    usedMinutes,
    remainingMinutes: Math.max(0, weeklyMinutes - usedMinutes),
    resetsAt: week.resetsAt.toISOString(),
  };
}

/** Adds minutes to a user's usage of the week containing `now`. */
export async function debitMinutes(
  db: Db,
  user: { userId: string; customerId: string | null },
  runtimeType: ContainerType,
  minutes: number,
  now: Date,
): Promise<void> {
  if (minutes <= 0) return;
  const { weekStart } = computeWeek(now, await customerZone(db, user.customerId));
  await db
    .insert(computeUsage)
    .values({ userId: user.userId, customerId: user.customerId, runtimeType, weekStart, usedMinutes: minutes })
    .onConflictDoUpdate({
      target: [computeUsage.userId, computeUsage.runtimeType, computeUsage.weekStart],
      set: { usedMinutes: sql`${computeUsage.usedMinutes} + ${minutes}` },
    });
}
