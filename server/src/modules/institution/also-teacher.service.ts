import { ROLES, SCHOOL_ROLES } from '@aiedu/contracts';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import { teacherCertifications, teachers, users } from '../../platform/db/schema/index.js';
import { AppError } from '../../platform/errors.js';
import { assertQuota } from './quota.service.js';

interface Account {
  id: string;
  customerId: string | null;
  schoolId: string | null;
  roles: string[];
}

/** Only an administrator bound to a school (school or organisation administrator) can teach there as well. */
function assertSchoolAdmin(account: Account): asserts account is Account & { customerId: string; schoolId: string } {
  const schoolAdmin = account.roles.some((role) => SCHOOL_ROLES.includes(role));
  if (!schoolAdmin || !account.customerId || !account.schoolId) throw new AppError('ALSO_TEACHER_NEEDS_SCHOOL');
}

/**
 * Makes a school's administrator one of its teachers too, or ends that: the teacher row (counted in the teacher
 * quota, listed with the teachers) and the teacher role (course authoring, schedules) come and go together. A
 * certification approved earlier counts again. The role reaches the account's tokens at its next refresh.
 */
export async function setAlsoTeacher(tx: Db, account: Account, alsoTeacher: boolean, operatorId: string) {
  assertSchoolAdmin(account);
  const [current] = await tx.select().from(teachers).where(eq(teachers.userId, account.id));
  if (alsoTeacher && !current) {
    await assertQuota(tx, account.customerId, 'teacher');
    const [approved] = await tx
      .select({ id: teacherCertifications.id })
      .from(teacherCertifications)
      .where(and(eq(teacherCertifications.userId, account.id), eq(teacherCertifications.status, 'certified')))
      .limit(1);
    await tx.insert(teachers).values({
      userId: account.id,
      customerId: account.customerId,
      schoolId: account.schoolId,
      alsoTeacher: true,
      certified: Boolean(approved),
      createdBy: operatorId,
    });
  }
  if (!alsoTeacher && current) await tx.delete(teachers).where(eq(teachers.userId, account.id));
  const roles = alsoTeacher
    ? sql`array_append(array_remove(${users.roles}, ${ROLES.teacher}), ${ROLES.teacher})`
    : sql`array_remove(${users.roles}, ${ROLES.teacher})`;
  const [row] = await tx.update(users).set({ roles }).where(eq(users.id, account.id)).returning();
  return row!;
}
