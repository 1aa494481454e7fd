import type { TCertIssuanceDetail, TCreateCertIssuance, ZCertIssuanceListQuery } from '@aiedu/contracts';
import type { z } from 'zod';
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { writeAudit } from '../../platform/audit.js';
import type { AuthContext } from '../../platform/auth/tokens.js';
import type { AppContext } from '../../platform/context.js';
import type { Db } from '../../platform/db/client.js';
import {
  certificateIssuances,
  certificateReviews,
  certificates,
  certificateSettings,
  userCertificates,
  users,
} from '../../platform/db/schema/index.js';
import { AppError } from '../../platform/errors.js';
import { studentsInScope } from './candidates.js';
import {
  certReach,
  customerInfo,
  customerOf,
  isAuditor,
  issueDateOf,
  issuerSchool,
  reaches,
  reachWhere,
} from './cert-access.js';
import { findIssuance, issuanceView, pageOfIssuances, userCertsOf, type IssuanceRow } from './issuance.repository.js';
import { allocateNumbers, todayIn } from './numbering.js';
import { renderMergedPdf, verifyUrlOf, type CertificateValues } from './render.js';

type IssueInput = Omit<TCreateCertIssuance, 'certId'>;

/** An active template of the customer, or 4005. */
export async function activeTemplate(db: Db, customerId: string, certId: string) {
  const [row] = await db
    .select()
    .from(certificates)
    .where(and(eq(certificates.id, certId), eq(certificates.customerId, customerId), isNull(certificates.deletedAt)));
  if (!row) throw new AppError('CERTIFICATE_NOT_FOUND');
  return row;
}

export async function reviewRequired(db: Db, customerId: string): Promise<boolean> {
  const [row] = await db
    .select({ on: certificateSettings.reviewRequired })
    .from(certificateSettings)
    .where(eq(certificateSettings.customerId, customerId));
  return row?.on ?? false;
}

/** The holders of an issuance: every student within the caller's scope (4402 for none, 4406 for one outside it). */
async function holdersOf(ctx: AppContext, auth: AuthContext, userIds: string[]) {
  const ids = [...new Set(userIds)];
  if (ids.length === 0) throw new AppError('CERT_NO_STUDENTS');
  const found = await studentsInScope(ctx.db, auth, ids);
  const outside = ids.filter((id) => !found.has(id));
  if (outside.length > 0) throw new AppError('CERT_STUDENT_OUT_OF_SCOPE', { userIds: outside });
  return ids.map((id) => found.get(id)!);
}

/**
 * Numbers every certificate of an issuance still without one, by its template's rule for its issue date, and
 * freezes the template's design in each. Runs in the caller's transaction: the counter stays locked until it
 * commits, so concurrent issuances get consecutive numbers and a rollback gives them back.
 */
export async function numberIssuance(tx: Db, issuance: IssuanceRow, now: Date) {
  const [template] = await tx.select().from(certificates).where(eq(certificates.id, issuance.certificateId));
  const holders = await tx
    .select({ id: userCertificates.id })
    .from(userCertificates)
    .where(and(eq(userCertificates.issuanceId, issuance.id), isNull(userCertificates.number)))
    .orderBy(asc(userCertificates.createdAt), asc(userCertificates.id));
  const rule = { prefix: template!.numberPrefix, digits: template!.numberDigits };
  const numbers = await allocateNumbers(tx, rule, issuance.issueDate, holders.length);
  if (holders.length === 0) return;
  const values = sql.join(
    holders.map((h, i) => sql`(${h.id}::uuid, ${numbers[i]!})`),
    sql`, `,
  );
  await tx.execute(sql`update ${userCertificates} u set number = v.number, issued_at = ${now.toISOString()}::timestamptz,
    design = ${JSON.stringify(template!.design)}::jsonb from (values ${values}) as v(id, number) where u.id = v.id`);
}

/** Stores the holders of an issuance and either asks for review or issues it at once (one transaction). */
async function storeHolders(
  tx: Db,
  ctx: AppContext,
  issuance: IssuanceRow,
  holders: { userId: string; username: string; realName: string }[],
  review: boolean,
) {
  for (let i = 0; i < holders.length; i += 500) {
    await tx.insert(userCertificates).values(
      holders.slice(i, i + 500).map((h) => ({
        issuanceId: issuance.id,
        certificateId: issuance.certificateId,
        customerId: issuance.customerId,
        userId: h.userId,
        holderName: h.realName.trim() || h.username,
        awardFor: issuance.awardFor,
      })),
    );
  }
  if (review) {
    await tx
      .insert(certificateReviews)
      .values({ issuanceId: issuance.id, customerId: issuance.customerId, state: 'pending' });
  } else {
    await numberIssuance(tx, issuance, ctx.now());
  }
}

export async function createIssuance(
  ctx: AppContext,
  request: FastifyRequest,
  auth: AuthContext,
  input: TCreateCertIssuance,
) {
  const customerId = customerOf(auth);
  const template = await activeTemplate(ctx.db, customerId, input.certId);
  const holders = await holdersOf(ctx, auth, input.userIds);
  const customer = await customerInfo(ctx.db, customerId);
  const review = await reviewRequired(ctx.db, customerId);
  const schoolId = await issuerSchool(ctx.db, auth.userId);
  const now = ctx.now();
  const id = await ctx.db.transaction(async (tx) => {
    const [issuance] = await tx
      .insert(certificateIssuances)
      .values({
        customerId,
        certificateId: template.id,
        issuerId: auth.userId,
        schoolId,
        awardFor: input.awardFor,
        issueDate: input.issueDate ?? todayIn(customer.timeZone, now),
        source: input.source,
        sourceId: input.sourceId ?? null,
        state: review ? 'pending' : 'issued',
        decidedAt: review ? null : now,
      })
      .returning();
    await storeHolders(tx as unknown as Db, ctx, issuance!, holders, review);
    await writeAudit(tx as unknown as Db, request, {
      module: 'certificate',
      operation: 'issue',
      params: { id: issuance!.id, certId: template.id, awardFor: input.awardFor, students: holders.length, review },
    });
    return issuance!.id;
  });
  return issuanceDetail(ctx, auth, id);
}

/**
 * Issues a template to given accounts inside the caller's transaction, for issuances another module makes from
 * its own records (an event's award winners): the caller has checked the holders, so no scope check is made here.
 * Pending when the customer reviews issuances, else numbered at once.
 */
export async function issueToAccounts(
  tx: Db,
  ctx: AppContext,
  input: {
    customerId: string;
    certId: string;
    issuerId: string;
    awardFor: string;
    userIds: string[];
    sourceId: string;
  },
) {
  const template = await activeTemplate(tx, input.customerId, input.certId);
  const ids = [...new Set(input.userIds)];
  if (ids.length === 0) throw new AppError('CERT_NO_STUDENTS');
  const holders = await tx
    .select({ userId: users.id, username: users.username, realName: users.realName })
    .from(users)
    .where(inArray(users.id, ids))
    .orderBy(asc(users.username));
  const customer = await customerInfo(tx, input.customerId);
  const review = await reviewRequired(tx, input.customerId);
  const now = ctx.now();
  const [issuance] = await tx
    .insert(certificateIssuances)
    .values({
      customerId: input.customerId,
      certificateId: template.id,
      issuerId: input.issuerId,
      schoolId: await issuerSchool(tx, input.issuerId),
      awardFor: input.awardFor,
      issueDate: todayIn(customer.timeZone, now),
      source: 'manual',
      sourceId: input.sourceId,
      state: review ? 'pending' : 'issued',
      decidedAt: review ? null : now,
    })
    .returning();
  await storeHolders(tx, ctx, issuance!, holders, review);
  return { id: issuance!.id, holders: holders.length, review };
}

/** An issuance the caller reaches (its issuer, or a manager of its customer or school), else 4005. */
export async function reachedIssuance(db: Db, auth: AuthContext, id: string): Promise<IssuanceRow> {
  const issuance = await findIssuance(db, id);
  if (!issuance || !reaches(await certReach(db, auth), issuance)) throw new AppError('CERTIFICATE_NOT_FOUND');
  return issuance;
}

/** An issuance with its holders: for its issuer, the customer's managers and its auditors (who decide on it). */
export async function issuanceDetail(ctx: AppContext, auth: AuthContext, id: string): Promise<TCertIssuanceDetail> {
  const issuance = await findIssuance(ctx.db, id);
  const readable =
    issuance &&
    (reaches(await certReach(ctx.db, auth), issuance) ||
      (issuance.customerId === auth.customerId && (await isAuditor(ctx.db, auth))));
  if (!readable) throw new AppError('CERTIFICATE_NOT_FOUND');
  const [view, holders] = await Promise.all([
    issuanceView(ctx.db, id),
    userCertsOf(ctx.db, and(eq(userCertificates.issuanceId, id), isNull(userCertificates.replacedById))!),
  ]);
  return { ...view, holders };
}

export async function listIssuances(ctx: AppContext, auth: AuthContext, query: z.infer<typeof ZCertIssuanceListQuery>) {
  return pageOfIssuances(ctx.db, reachWhere(await certReach(ctx.db, auth)), query);
}

/** Corrects a refused issuance and sends it again: its holders replaced, a new review asked for (or issued at once). */
export async function resubmitIssuance(
  ctx: AppContext,
  request: FastifyRequest,
  auth: AuthContext,
  id: string,
  input: IssueInput,
) {
  const issuance = await reachedIssuance(ctx.db, auth, id);
  if (issuance.state !== 'refused') throw new AppError('CERT_ISSUANCE_STATE', { state: issuance.state });
  await activeTemplate(ctx.db, issuance.customerId, issuance.certificateId);
  const holders = await holdersOf(ctx, auth, input.userIds);
  const review = await reviewRequired(ctx.db, issuance.customerId);
  const now = ctx.now();
  await ctx.db.transaction(async (tx) => {
    const [updated] = await tx
      .update(certificateIssuances)
      .set({
        awardFor: input.awardFor,
        issueDate: input.issueDate ?? issuance.issueDate,
        source: input.source,
        sourceId: input.sourceId ?? null,
        state: review ? 'pending' : 'issued',
        decidedAt: review ? null : now,
        updatedAt: now,
      })
      .where(and(eq(certificateIssuances.id, id), eq(certificateIssuances.state, 'refused')))
      .returning();
    if (!updated) throw new AppError('CERT_ISSUANCE_STATE');
    await tx.delete(userCertificates).where(eq(userCertificates.issuanceId, id));
    await storeHolders(tx as unknown as Db, ctx, updated, holders, review);
    await writeAudit(tx as unknown as Db, request, {
      module: 'certificate',
      operation: 'resubmit',
      params: { id, awardFor: input.awardFor, students: holders.length, review },
    });
  });
  return issuanceDetail(ctx, auth, id);
}

/** What a numbered certificate prints. */
export function valuesOf(
  ctx: AppContext,
  cert: { holderName: string; awardFor: string; number: string | null },
  issuerName: string,
): CertificateValues {
  const number = cert.number ?? '';
  return {
    holderName: cert.holderName,
    awardFor: cert.awardFor,
    number,
    issueDate: issueDateOf(number),
    issuerName,
    verifyUrl: verifyUrlOf(ctx, number),
  };
}

/** Every valid certificate of an issued issuance as one PDF, a page each, named after the template and the date. */
export async function issuancePdf(ctx: AppContext, auth: AuthContext, id: string) {
  const issuance = await reachedIssuance(ctx.db, auth, id);
  if (issuance.state !== 'issued') throw new AppError('CERT_ISSUANCE_STATE', { state: issuance.state });
  const customer = await customerInfo(ctx.db, issuance.customerId);
  const rows = await ctx.db
    .select()
    .from(userCertificates)
    .where(
      and(
        eq(userCertificates.issuanceId, id),
        eq(userCertificates.state, 'valid'),
        isNull(userCertificates.replacedById),
      ),
    )
    .orderBy(asc(userCertificates.number));
  const pages = rows
    .filter((r) => r.number && r.design)
    .map((r) => ({ design: r.design!, values: valuesOf(ctx, r, customer.name) }));
  if (pages.length === 0) throw new AppError('CERTIFICATE_NOT_FOUND');
  const [template] = await ctx.db
    .select({ name: certificates.name })
    .from(certificates)
    .where(eq(certificates.id, issuance.certificateId));
  return { pdf: await renderMergedPdf(ctx, pages), fileName: `${template!.name}-${issuance.issueDate}.pdf` };
}
