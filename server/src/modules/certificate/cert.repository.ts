import type { CertType } from '@aiedu/contracts';
import { and, desc, eq, ilike, isNotNull, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import { likeText } from '../../platform/db/like.js';
import { certificates, userCertificates, users } from '../../platform/db/schema/index.js';
import { userDisplayName } from '../../platform/db/user-name.js';

/** Certificate templates as stored, with their creator's name and how many certificates were issued from them. */

/** Certificates handed out from the template (numbered ones, revoked included; pending issuances not yet). */
const issuedCount = sql<number>`(select count(*)::int from ${userCertificates} uc
  where uc.certificate_id = ${certificates.id} and uc.number is not null)`;

export type CertRow = typeof certificates.$inferSelect & { creatorName: string; issuedCount: number };

const columns = { cert: certificates, creatorName: userDisplayName, issuedCount };
const flatten = (row: {
  cert: typeof certificates.$inferSelect;
  creatorName: string;
  issuedCount: number;
}): CertRow => ({
  ...row.cert,
  creatorName: row.creatorName,
  issuedCount: Number(row.issuedCount),
});

/** The templates a customer has (every customer's for `null`), newest first; deleted ones never. */
export async function listCerts(
  db: Db,
  query: {
    customerId: string | null;
    keyword?: string | undefined;
    type?: CertType | undefined;
    page: number;
    size: number;
  },
) {
  const where = and(
    isNull(certificates.deletedAt),
    query.customerId ? eq(certificates.customerId, query.customerId) : undefined,
    query.keyword ? ilike(certificates.name, likeText(query.keyword)) : undefined,
    query.type ? eq(certificates.type, query.type) : undefined,
  );
  const rows = await db
    .select({ ...columns, total: sql<number>`count(*) over ()`.mapWith(Number) })
    .from(certificates)
    .innerJoin(users, eq(users.id, certificates.creatorId))
    .where(where)
    .orderBy(desc(certificates.createdAt), desc(certificates.id))
    .limit(query.size)
    .offset((query.page - 1) * query.size);
  let total = rows[0]?.total;
  if (total === undefined) {
    const [counted] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(certificates)
      .where(where);
    total = Number(counted?.n ?? 0);
  }
  return { rows: rows.map(flatten), total };
}

/** Every active template of a customer, by name: what an issuer may choose from. */
export async function certOptions(db: Db, customerId: string | null) {
  const rows = await db
    .select(columns)
    .from(certificates)
    .innerJoin(users, eq(users.id, certificates.creatorId))
    .where(and(isNull(certificates.deletedAt), customerId ? eq(certificates.customerId, customerId) : undefined))
    .orderBy(certificates.name, certificates.id);
  return rows.map(flatten);
}

/** One template that is not deleted, or null. */
export async function findCert(db: Db, certId: string): Promise<CertRow | null> {
  const [row] = await db
    .select(columns)
    .from(certificates)
    .innerJoin(users, eq(users.id, certificates.creatorId))
    .where(and(eq(certificates.id, certId), isNull(certificates.deletedAt)));
  return row ? flatten(row) : null;
}

const usesKey = (design: SQL | typeof certificates.design, key: string) =>
  or(sql`${design}->>'backgroundKey' = ${key}`, sql`${design}->>'sealKey' = ${key}`);

/**
 * Whether an image is still drawn by something: a template (deleted ones included, they may be restored from a
 * backup) or an issued certificate's frozen design.
 */
export async function imageInUse(db: Db, customerId: string, key: string): Promise<boolean> {
  const [template] = await db
    .select({ id: certificates.id })
    .from(certificates)
    .where(and(eq(certificates.customerId, customerId), usesKey(certificates.design, key)))
    .limit(1);
  if (template) return true;
  const [issued] = await db
    .select({ id: userCertificates.id })
    .from(userCertificates)
    .where(
      and(
        eq(userCertificates.customerId, customerId),
        isNotNull(userCertificates.design),
        usesKey(sql`${userCertificates.design}`, key),
      ),
    )
    .limit(1);
  return Boolean(issued);
}
