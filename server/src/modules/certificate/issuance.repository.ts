import type { TCertIssuance, TUserCert, ZCertIssuanceListQuery, ZUserCertListQuery } from '@aiedu/contracts';
import { and, count, desc, eq, gte, ilike, isNotNull, lte, or, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db } from '../../platform/db/client.js';
import { likeText } from '../../platform/db/like.js';
import {
  certificateIssuances,
  certificateReviews,
  certificates,
  customers,
  userCertificates,
  users,
} from '../../platform/db/schema/index.js';
import { userDisplayName } from '../../platform/db/user-name.js';

export type IssuanceRow = typeof certificateIssuances.$inferSelect;
export type UserCertRow = typeof userCertificates.$inferSelect;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** The last refusal's reason of each refused issuance. */
const refuseReason = sql<string | null>`case when ${certificateIssuances.state} = 'refused' then (
  select r.reason from ${certificateReviews} r where r.issuance_id = ${certificateIssuances.id} and r.state = 'refused'
  order by r.decided_at desc nulls last limit 1) end`;
const pendingReviewId = sql<string | null>`(select r.id from ${certificateReviews} r
  where r.issuance_id = ${certificateIssuances.id} and r.state = 'pending' limit 1)`;
const holderCount = sql<number>`(select count(*)::int from ${userCertificates} u
  where u.issuance_id = ${certificateIssuances.id} and u.replaced_by_id is null)`;

function selectIssuances(db: Db) {
  return db
    .select({
      id: certificateIssuances.id,
      certId: certificateIssuances.certificateId,
      certName: certificates.name,
      awardFor: certificateIssuances.awardFor,
      issueDate: certificateIssuances.issueDate,
      source: certificateIssuances.source,
      state: certificateIssuances.state,
      refuseReason,
      pendingReviewId,
      issuerId: certificateIssuances.issuerId,
      issuerName: userDisplayName,
      holderCount,
      createdAt: certificateIssuances.createdAt,
      decidedAt: certificateIssuances.decidedAt,
    })
    .from(certificateIssuances)
    .innerJoin(certificates, eq(certificates.id, certificateIssuances.certificateId))
    .innerJoin(users, eq(users.id, certificateIssuances.issuerId));
}

type IssuanceSelect = Awaited<ReturnType<ReturnType<typeof selectIssuances>['where']>>[number];
const presentIssuance = (r: IssuanceSelect): TCertIssuance => ({
  ...r,
  holderCount: Number(r.holderCount),
  createdAt: r.createdAt.toISOString(),
  decidedAt: iso(r.decidedAt),
});

export async function findIssuance(db: Db, id: string): Promise<IssuanceRow | null> {
  const [row] = await db.select().from(certificateIssuances).where(eq(certificateIssuances.id, id));
  return row ?? null;
}

export async function issuanceView(db: Db, id: string): Promise<TCertIssuance> {
  const [row] = await selectIssuances(db).where(eq(certificateIssuances.id, id));
  return presentIssuance(row!);
}

export async function pageOfIssuances(db: Db, where: SQL | undefined, query: z.infer<typeof ZCertIssuanceListQuery>) {
  const all = and(
    where,
    query.state ? eq(certificateIssuances.state, query.state) : undefined,
    query.certId ? eq(certificateIssuances.certificateId, query.certId) : undefined,
    query.keyword
      ? or(
          ilike(certificateIssuances.awardFor, likeText(query.keyword)),
          ilike(certificates.name, likeText(query.keyword)),
        )
      : undefined,
  );
  const [rows, [total]] = await Promise.all([
    selectIssuances(db)
      .where(all)
      .orderBy(desc(certificateIssuances.createdAt), desc(certificateIssuances.id))
      .limit(query.size)
      .offset((query.page - 1) * query.size),
    db
      .select({ n: count() })
      .from(certificateIssuances)
      .innerJoin(certificates, eq(certificates.id, certificateIssuances.certificateId))
      .where(all),
  ]);
  return { list: rows.map(presentIssuance), total: total?.n ?? 0, page: query.page, size: query.size };
}

/** Review queue: pending issuances of a customer with their pending review's id. */
export async function pendingForReview(db: Db, customerId: string) {
  const rows = await selectIssuances(db)
    .innerJoin(
      certificateReviews,
      and(eq(certificateReviews.issuanceId, certificateIssuances.id), eq(certificateReviews.state, 'pending')),
    )
    .where(and(eq(certificateIssuances.customerId, customerId), eq(certificateIssuances.state, 'pending')))
    .orderBy(certificateIssuances.createdAt);
  const ids = await db
    .select({ id: certificateReviews.id, issuanceId: certificateReviews.issuanceId })
    .from(certificateReviews)
    .where(and(eq(certificateReviews.customerId, customerId), eq(certificateReviews.state, 'pending')));
  const reviewOf = new Map(ids.map((r) => [r.issuanceId, r.id]));
  return rows.map((r) => ({ ...presentIssuance(r), reviewId: reviewOf.get(r.id)! }));
}

function selectUserCerts(db: Db) {
  return db
    .select({
      id: userCertificates.id,
      issuanceId: userCertificates.issuanceId,
      certId: userCertificates.certificateId,
      certName: certificates.name,
      certType: certificates.type,
      userId: userCertificates.userId,
      username: users.username,
      holderName: userCertificates.holderName,
      awardFor: userCertificates.awardFor,
      number: userCertificates.number,
      state: userCertificates.state,
      issuedAt: userCertificates.issuedAt,
      revokedAt: userCertificates.revokedAt,
      revokeReason: userCertificates.revokeReason,
      replacedById: userCertificates.replacedById,
      replacedByNumber: sql<string | null>`(select n.number from ${userCertificates} n
        where n.id = ${userCertificates.replacedById})`,
      issuerName: customers.name,
    })
    .from(userCertificates)
    .innerJoin(certificates, eq(certificates.id, userCertificates.certificateId))
    .innerJoin(users, eq(users.id, userCertificates.userId))
    .innerJoin(customers, eq(customers.id, userCertificates.customerId));
}

type UserCertSelect = Awaited<ReturnType<ReturnType<typeof selectUserCerts>['where']>>[number];
export const presentUserCert = (r: UserCertSelect): TUserCert => ({
  ...r,
  issuedAt: iso(r.issuedAt),
  revokedAt: iso(r.revokedAt),
});

export async function userCertsOf(db: Db, where: SQL) {
  const rows = await selectUserCerts(db).where(where).orderBy(userCertificates.number, users.username);
  return rows.map(presentUserCert);
}

export async function userCertView(db: Db, id: string): Promise<TUserCert> {
  const [row] = await selectUserCerts(db).where(eq(userCertificates.id, id));
  return presentUserCert(row!);
}

/** The date a certificate prints: its number's date part (a reissued one carries the day it was corrected). */
const printedDate = sql`to_date(substring(${userCertificates.number} from '^[A-Z]*([0-9]{8})'), 'YYYYMMDD')`;

/** One page of issued certificates under `where`, with the list filters. */
export async function pageOfUserCerts(db: Db, where: SQL | undefined, query: z.infer<typeof ZUserCertListQuery>) {
  const all = and(
    where,
    isNotNull(userCertificates.number),
    query.number ? ilike(userCertificates.number, likeText(query.number)) : undefined,
    query.keyword
      ? or(ilike(userCertificates.holderName, likeText(query.keyword)), ilike(users.username, likeText(query.keyword)))
      : undefined,
    query.certId ? eq(userCertificates.certificateId, query.certId) : undefined,
    query.state ? eq(userCertificates.state, query.state) : undefined,
    query.from ? gte(printedDate, sql`${query.from}::date`) : undefined,
    query.to ? lte(printedDate, sql`${query.to}::date`) : undefined,
  );
  const [rows, [total]] = await Promise.all([
    selectUserCerts(db)
      .innerJoin(certificateIssuances, eq(certificateIssuances.id, userCertificates.issuanceId))
      .where(all)
      .orderBy(desc(userCertificates.issuedAt), desc(userCertificates.number))
      .limit(query.size)
      .offset((query.page - 1) * query.size),
    db
      .select({ n: count() })
      .from(userCertificates)
      .innerJoin(users, eq(users.id, userCertificates.userId))
      .innerJoin(certificateIssuances, eq(certificateIssuances.id, userCertificates.issuanceId))
      .where(all),
  ]);
  return { list: rows.map(presentUserCert), total: total?.n ?? 0, page: query.page, size: query.size };
}

export async function findUserCert(db: Db, id: string) {
  const [row] = await db
    .select({
      cert: userCertificates,
      issuance: { issuerId: certificateIssuances.issuerId, schoolId: certificateIssuances.schoolId },
    })
    .from(userCertificates)
    .innerJoin(certificateIssuances, eq(certificateIssuances.id, userCertificates.issuanceId))
    .where(eq(userCertificates.id, id));
  return row ?? null;
}

export async function findByNumber(db: Db, number: string) {
  const [row] = await selectUserCerts(db).where(eq(userCertificates.number, number));
  return row ? presentUserCert(row) : null;
}
