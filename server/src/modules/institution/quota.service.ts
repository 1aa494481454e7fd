import { count, eq } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import { customers, students, teachers } from '../../platform/db/schema/index.js';
import { AppError } from '../../platform/errors.js';

/** Locks the customer row and refuses when its quota for this kind of person is used up. */
export async function assertQuota(tx: Db, customerId: string, kind: 'teacher' | 'student', adding = 1) {
  const [customer] = await tx.select().from(customers).where(eq(customers.id, customerId)).for('update');
  if (!customer) throw new AppError('NOT_FOUND');
  const quota = kind === 'teacher' ? customer.teacherQuota : customer.studentQuota;
  if (quota === null) return;
  const table = kind === 'teacher' ? teachers : students;
  const [{ n } = { n: 0 }] = await tx.select({ n: count() }).from(table).where(eq(table.customerId, customerId));
  if (n + adding > quota)
    throw new AppError(kind === 'teacher' ? 'QUOTA_TEACHERS' : 'QUOTA_STUDENTS', { quota, used: n });
}
