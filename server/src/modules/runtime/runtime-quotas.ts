import type { ContainerType } from '@aiedu/contracts';
import { and, eq, inArray, ne, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import { customers, projects, runtimes } from '../../platform/db/schema/index.js';
import { AppError } from '../../platform/errors.js';
import { experimentCopyProjects, isExperimentCopy } from '../course/experiment.service.js';
import { assertContainerTypeOffered } from './container-offer.js';

/** The states in which a runtime holds its place (and counts against the quotas). */
export const ACTIVE = ['BOOTING', 'RUNNING', 'STOPPING'] as const;

/** The caller's own running projects, named in quota refusals so the editor can link to them. */
async function runningOf(db: Db, userId: string) {
  return db
    .select({ projectId: runtimes.projectId, name: projects.name })
    .from(runtimes)
    .innerJoin(projects, eq(projects.id, runtimes.projectId))
    .where(and(eq(runtimes.startedBy, userId), inArray(runtimes.state, [...ACTIVE])));
}

/**
 * Refuses a start beyond the customer's concurrency or the per-person maximum. Runs in the transaction that
 * claims the runtime's row, with the customer's row locked, so starts at once are counted one after the other.
 */
export async function checkStartQuotas(
  tx: Db,
  projectId: string,
  user: { userId: string; customerId: string | null },
  runtimeType: ContainerType,
) {
  const active = and(inArray(runtimes.state, [...ACTIVE]), ne(runtimes.projectId, projectId));
  // The container types the customer's people may start (spec 3, Customer): the others are refused outright.
  await assertContainerTypeOffered(tx, user.customerId, runtimeType);
  if (user.customerId) {
    const [customer] = await tx
      .select({
        concurrency: customers.containerConcurrency,
        perPerson: customers.maxStartsPerPerson,
        study: customers.studyConcurrency,
      })
      .from(customers)
      .where(eq(customers.id, user.customerId))
      .for('update');
    const [{ count } = { count: 0 }] = await tx
      .select({ count: sql<number>`count(*)::int` })
      .from(runtimes)
      .where(and(active, eq(runtimes.customerId, user.customerId)));
    if (customer?.concurrency != null && count >= customer.concurrency) {
      throw new AppError('CONTAINER_FULL', { running: await runningOf(tx, user.userId) });
    }
    if (customer?.perPerson != null) {
      const mine = (await runningOf(tx, user.userId)).filter((r) => r.projectId !== projectId);
      if (mine.length >= customer.perPerson) throw new AppError('TOO_MANY_RUNTIMES', { running: mine });
    }
    // Study concurrency (spec 3, Customer): the runtimes of learners' course experiments at once.
    if (customer?.study != null) {
      if (await isExperimentCopy(tx, projectId)) {
        const study = experimentCopyProjects(tx);
        const [{ studying } = { studying: 0 }] = await tx
          .select({ studying: sql<number>`count(*)::int` })
          .from(runtimes)
          .where(and(active, eq(runtimes.customerId, user.customerId), inArray(runtimes.projectId, study)));
        if (studying >= customer.study) {
          throw new AppError('CONTAINER_FULL', { running: await runningOf(tx, user.userId), limit: 'study' });
        }
      }
    }
  }
}
