import { and, arrayContains, count, eq, inArray, notExists } from 'drizzle-orm';
import { ROLES } from '@aiedu/contracts';
import type { Db } from '../../platform/db/client.js';
import { schools, students, teachers, users } from '../../platform/db/schema/index.js';
import { AppError } from '../../platform/errors.js';
import { customerSubtree } from '../../platform/tenancy.js';
import { chainRows } from './customer-offer.service.js';

const COUNTED = {
  school: { table: schools, quota: 'schoolQuota', error: 'QUOTA_SCHOOLS' },
  teacher: { table: teachers, quota: 'teacherQuota', error: 'QUOTA_TEACHERS' },
  student: { table: students, quota: 'studentQuota', error: 'QUOTA_STUDENTS' },
} as const;

/**
 * Refuses when adding `adding` schools, teachers or students to a customer would pass its quota or the quota of a
 * customer above it: a customer's quota covers its sub-customers too. The customer rows from the top-level one
 * down are locked first, so concurrent creations anywhere in one tree are counted one after the other.
 */
export async function assertQuota(tx: Db, customerId: string, kind: keyof typeof COUNTED, adding = 1) {
  const chain = await chainRows(tx, customerId, true);
  if (chain.at(-1)?.id !== customerId) throw new AppError('NOT_FOUND');
  const { table, quota: field, error } = COUNTED[kind];
  for (const customer of chain.reverse()) {
    const quota = customer[field];
    if (quota === null) continue;
    const subtree = await customerSubtree(tx, customer.id);
    const [{ n } = { n: 0 }] = await tx.select({ n: count() }).from(table).where(inArray(table.customerId, subtree));
    const used = n + (kind === 'student' ? await studentsOffRoster(tx, subtree) : 0);
    if (used + adding > quota) throw new AppError(error, { quota, used });
  }
}

/**
 * Student accounts of the customers that are on no school's roster: those a single sign-on provider created at
 * first sign-in. They take a place in the student quota like a rostered student.
 */
async function studentsOffRoster(tx: Db, subtree: string[]) {
  const [{ n } = { n: 0 }] = await tx
    .select({ n: count() })
    .from(users)
    .where(
      and(
        inArray(users.customerId, subtree),
        arrayContains(users.roles, [ROLES.student]),
        notExists(tx.select({ one: students.userId }).from(students).where(eq(students.userId, users.id))),
      ),
    );
  return n;
}
