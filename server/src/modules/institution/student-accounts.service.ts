import { ROLES } from '@aiedu/contracts';
import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import { students, users } from '../../platform/db/schema/index.js';
import { hashPassword } from '../../platform/passwords.js';
import { assertQuota } from './quota.service.js';

/*
 * Student accounts created in bulk by someone other than an administrator of the school (a group owner's batch
 * registration): they are students of the customer and school, counted against the customer's student quota.
 */

/** Which of these usernames and phones accounts of the customer already hold. */
export async function takenAccounts(db: Db, customerId: string, usernames: string[], phones: string[]) {
  const byName = usernames.length
    ? await db
        .select({ username: users.username })
        .from(users)
        .where(and(eq(users.customerId, customerId), inArray(users.username, usernames)))
    : [];
  const byPhone = phones.length
    ? await db
        .select({ phone: users.phone })
        .from(users)
        .where(and(eq(users.customerId, customerId), inArray(users.phone, phones)))
    : [];
  return { usernames: new Set(byName.map((r) => r.username)), phones: new Set(byPhone.map((r) => r.phone!)) };
}

/** Hashes of the plain passwords, one per distinct password (administrator-chosen, replaced at first sign-in). */
export async function hashInitialPasswords(plains: string[]): Promise<Map<string, string>> {
  const hashes = new Map<string, string>();
  for (const plain of new Set(plains)) hashes.set(plain, await hashPassword(plain));
  return hashes;
}

/**
 * Creates student accounts of a customer's school in the caller's transaction, after the quota allows them all
 * (`QUOTA_STUDENTS` otherwise). They must change the password at the first sign-in. Answers the new accounts' ids
 * by username.
 */
export async function createStudentAccounts(
  tx: Db,
  school: { customerId: string; schoolId: string },
  accounts: { username: string; phone: string; passwordHash: string }[],
): Promise<Map<string, string>> {
  await assertQuota(tx, school.customerId, 'student', accounts.length);
  const created = await tx
    .insert(users)
    .values(
      accounts.map((a) => ({
        customerId: school.customerId,
        schoolId: school.schoolId,
        username: a.username,
        phone: a.phone,
        passwordHash: a.passwordHash,
        roles: [ROLES.student],
        mustChangePassword: true,
      })),
    )
    .returning({ id: users.id, username: users.username });
  await tx
    .insert(students)
    .values(created.map((u) => ({ userId: u.id, customerId: school.customerId, schoolId: school.schoolId })));
  return new Map(created.map((u) => [u.username, u.id]));
}
