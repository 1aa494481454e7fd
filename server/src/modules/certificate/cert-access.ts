import { hasPermission } from '@aiedu/contracts';
import { and, eq } from 'drizzle-orm';
import type { AuthContext } from '../../platform/auth/tokens.js';
import type { Db } from '../../platform/db/client.js';
import { certificateAuditors, customers } from '../../platform/db/schema/index.js';
import { AppError } from '../../platform/errors.js';

/**
 * Who may touch which certificate rows: everything belongs to one customer. Its managers (`certificate.manage`)
 * reach all of the customer's issuances and certificates; an issuer reaches their own; anyone else is answered
 * 4005 (certificate not found), so an id of another customer is never confirmed to exist.
 */

/** The caller's customer: certificates are a customer's, so callers of the public space have none. */
export function customerOf(auth: AuthContext): string {
  if (!auth.customerId) throw new AppError('NO_PERMISSION_PAGE');
  return auth.customerId;
}

export const isManager = (auth: AuthContext) => hasPermission(auth.roles, 'certificate.manage');

/** Whether the caller may act on a row of a customer issued by `issuerId`: its issuer, or a manager of the customer. */
export function reaches(auth: AuthContext, row: { customerId: string; issuerId: string }): boolean {
  if (row.customerId !== auth.customerId) return false;
  return row.issuerId === auth.userId || isManager(auth);
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
