import type { TCertReview, TCertReviewDecision } from '@aiedu/contracts';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { writeAudit } from '../../platform/audit.js';
import type { AuthContext } from '../../platform/auth/tokens.js';
import type { AppContext } from '../../platform/context.js';
import type { Db } from '../../platform/db/client.js';
import { certificateIssuances, certificateReviews, users } from '../../platform/db/schema/index.js';
import { AppError } from '../../platform/errors.js';
import { certReach, customerOf, isAuditor, reaches } from './cert-access.js';
import { findIssuance, issuanceView, pendingForReview } from './issuance.repository.js';
import { numberIssuance } from './issuance.service.js';
import { userDisplayName } from '../../platform/db/user-name.js';

/**
 * Review of issuances (when the customer asks for it): an auditor of the customer approves one (its certificates
 * are numbered and issued in the same transaction) or refuses it with a reason the issuer sees; its issuer may
 * withdraw it while it waits. Each request and decision is a review record.
 */

async function requireAuditor(ctx: AppContext, auth: AuthContext) {
  customerOf(auth);
  if (!(await isAuditor(ctx.db, auth))) throw new AppError('CERT_NOT_AUDITOR');
}

export async function reviewQueue(ctx: AppContext, auth: AuthContext) {
  await requireAuditor(ctx, auth);
  return pendingForReview(ctx.db, auth.customerId!);
}

export async function decideReview(
  ctx: AppContext,
  request: FastifyRequest,
  auth: AuthContext,
  decision: TCertReviewDecision,
) {
  await requireAuditor(ctx, auth);
  const issuance = await findIssuance(ctx.db, decision.certIssId);
  if (!issuance || issuance.customerId !== auth.customerId) throw new AppError('CERTIFICATE_NOT_FOUND');
  const now = ctx.now();
  const approve = decision.decision === 'approve';
  await ctx.db.transaction(async (tx) => {
    const [review] = await tx
      .update(certificateReviews)
      .set({
        state: approve ? 'approved' : 'refused',
        reason: approve ? null : decision.reason,
        auditorId: auth.userId,
        decidedAt: now,
      })
      .where(and(eq(certificateReviews.issuanceId, issuance.id), eq(certificateReviews.state, 'pending')))
      .returning();
    const [updated] = await tx
      .update(certificateIssuances)
      .set({ state: approve ? 'issued' : 'refused', decidedAt: now, updatedAt: now })
      .where(and(eq(certificateIssuances.id, issuance.id), eq(certificateIssuances.state, 'pending')))
      .returning();
    if (!review || !updated) throw new AppError('CERT_ISSUANCE_STATE', { state: issuance.state });
    if (approve) await numberIssuance(tx as unknown as Db, updated, now);
    await writeAudit(tx as unknown as Db, request, { module: 'certificate', operation: 'review', params: decision });
  });
  return issuanceView(ctx.db, issuance.id);
}

/** The issuer takes a pending issuance back before it is reviewed. */
export async function withdrawReview(ctx: AppContext, request: FastifyRequest, auth: AuthContext, reviewId: string) {
  const [review] = await ctx.db.select().from(certificateReviews).where(eq(certificateReviews.id, reviewId));
  const issuance = review ? await findIssuance(ctx.db, review.issuanceId) : null;
  if (!review || !issuance || issuance.customerId !== auth.customerId || issuance.issuerId !== auth.userId) {
    throw new AppError('CERTIFICATE_NOT_FOUND');
  }
  const now = ctx.now();
  await ctx.db.transaction(async (tx) => {
    const [withdrawn] = await tx
      .update(certificateReviews)
      .set({ state: 'withdrawn', decidedAt: now })
      .where(and(eq(certificateReviews.id, reviewId), eq(certificateReviews.state, 'pending')))
      .returning();
    const [updated] = await tx
      .update(certificateIssuances)
      .set({ state: 'withdrawn', decidedAt: now, updatedAt: now })
      .where(and(eq(certificateIssuances.id, issuance.id), eq(certificateIssuances.state, 'pending')))
      .returning();
    if (!withdrawn || !updated) throw new AppError('CERT_ISSUANCE_STATE', { state: issuance.state });
    await writeAudit(tx as unknown as Db, request, {
      module: 'certificate',
      operation: 'withdraw',
      params: { id: issuance.id, reviewId },
    });
  });
}

/** The review records of an issuance: for its issuer, the customer's managers and its auditors. */
export async function reviewHistory(ctx: AppContext, auth: AuthContext, issuanceId: string): Promise<TCertReview[]> {
  const issuance = await findIssuance(ctx.db, issuanceId);
  const allowed =
    issuance &&
    (reaches(await certReach(ctx.db, auth), issuance) ||
      (issuance.customerId === auth.customerId && (await isAuditor(ctx.db, auth))));
  if (!allowed) throw new AppError('CERTIFICATE_NOT_FOUND');
  const rows = await ctx.db
    .select({
      id: certificateReviews.id,
      issuanceId: certificateReviews.issuanceId,
      state: certificateReviews.state,
      reason: certificateReviews.reason,
      auditorId: certificateReviews.auditorId,
      auditorName: sql<string | null>`${userDisplayName}`, // no auditor yet: null
      createdAt: certificateReviews.createdAt,
      decidedAt: certificateReviews.decidedAt,
    })
    .from(certificateReviews)
    .leftJoin(users, eq(users.id, certificateReviews.auditorId))
    .where(eq(certificateReviews.issuanceId, issuanceId))
    .orderBy(asc(certificateReviews.createdAt), asc(certificateReviews.id));
  return rows.map((r) => ({
    ...r,
    createdAt: r.createdAt.toISOString(),
    decidedAt: r.decidedAt ? r.decidedAt.toISOString() : null,
  }));
}
