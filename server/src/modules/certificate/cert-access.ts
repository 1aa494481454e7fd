import { hasPermission } from '@aiedu/contracts';
import { and, eq, or, type SQL } from 'drizzle-orm';
import type { AuthContext } from '../../platform/auth/tokens.js';
import type { Db } from '../../platform/db/client.js';
import { certificateAuditors, certificateIssuances, customers, users } from '../../platform/db/schema/index.js';
import { AppError } from '../../platform/errors.js';
import { callerScope } from '../../platform/tenancy.js';

/**
 * Who may touch which certificate rows: everything belongs to one customer. Its institution's managers
 * (`certificate.manage`) reach all of the customer's issuances and certificates; a school's managers (a school
 * administrator) reach those issued from their school; an issuer reaches their own; anyone else is answered 4005
 * (certificate not found), so an id of another customer or school is never confirmed to exist.
 */

/** The caller's customer: certificates are a customer's, so callers of the public space have none. */
export function customerOf(auth: AuthContext): string {
  if (!auth.customerId) throw new AppError('NO_PERMISSION_PAGE');
  return auth.customerId;
}

export const isManager = (auth: AuthContext) => hasPermission(auth.roles, 'certificate.manage');

/**
 * How far the caller's reach over issuances goes: `manager` for managers, with `schoolId` set when that is one
 * school's (school staff); anyone else reaches what they issued themselves.
 */
export interface CertReach {
  auth: AuthContext;
  customerId: string;
  manager: boolean;
  schoolId: string | null;
}

export async function certReach(db: Db, auth: AuthContext): Promise<CertReach> {
  const customerId = customerOf(auth);
  if (!isManager(auth)) return { auth, customerId, manager: false, schoolId: null };
  const scope = await callerScope(db, auth);
  return { auth, customerId, manager: true, schoolId: scope.kind === 'school' ? scope.schoolId : null };
}

/** Whether the caller may act on an issuance (or a certificate of it): its issuer, or a manager whose reach holds it. */
export function reaches(reach: CertReach, row: { customerId: string; issuerId: string; schoolId: string | null }) {
  if (row.customerId !== reach.customerId) return false;
  if (row.issuerId === reach.auth.userId) return true;
  return reach.manager && (reach.schoolId === null || row.schoolId === reach.schoolId);
}

/** The same reach as a query's condition over issuances. */
export function reachWhere(reach: CertReach): SQL {
  const mine = eq(certificateIssuances.issuerId, reach.auth.userId);
  const held = !reach.manager
    ? mine
    : reach.schoolId
      ? or(mine, eq(certificateIssuances.schoolId, reach.schoolId))
      : undefined;
  return and(eq(certificateIssuances.customerId, reach.customerId), held)!;
}

/** The school the issuer belongs to now, kept on what they issue (none for an institution's administrators). */
export async function issuerSchool(db: Db, userId: string): Promise<string | null> {
  const [row] = await db.select({ schoolId: users.schoolId }).from(users).where(eq(users.id, userId));
  return row?.schoolId ?? null;
}

export async function isAuditor(db: Db, auth: AuthContext): Promise<boolean> {
  if (!auth.customerId) return false;
  const [row] = await db
    .select({ id: certificateAuditors.id })
    .from(certificateAuditors)
    .where(and(eq(certificateAuditors.customerId, auth.customerId), eq(certificateAuditors.userId, auth.userId)));
  return Boolean(row);
}

export async function customerInfo(db: Db, customerId: string) {
  const [row] = await db
    .select({ id: customers.id, name: customers.name, timeZone: customers.timeZone })
    .from(customers)
    .where(eq(customers.id, customerId));
  if (!row) throw new AppError('CERTIFICATE_NOT_FOUND');
  return row;
}

/** The issue date a certificate number carries (letters, then yyyyMMdd, then its sequence), as yyyy-MM-dd. */
export function issueDateOf(number: string): string {
  const digits = /^[A-Z]*(\d{4})(\d{2})(\d{2})/.exec(number);
  return digits ? `${digits[1]}-${digits[2]}-${digits[3]}` : '';
}

/** A `content-disposition` that downloads under a name in any script. */
export const attachment = (fileName: string) => `attachment; filename*=UTF-8''${encodeURIComponent(fileName)}`;
