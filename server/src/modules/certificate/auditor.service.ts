import { ROLES, type TCertAuditor, type TCertSettings } from '@aiedu/contracts';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { writeAudit } from '../../platform/audit.js';
import type { AuthContext } from '../../platform/auth/tokens.js';
import type { Db } from '../../platform/db/client.js';
import type { AppContext } from '../../platform/context.js';
import {
  certificateAuditors,
  certificateIssuances,
  certificateSettings,
  users,
} from '../../platform/db/schema/index.js';
import { AppError } from '../../platform/errors.js';
import { customerOf } from './cert-access.js';
import { reviewRequired } from './issuance.service.js';

/** Who may be an auditor: the customer's teachers and administrators (never a student). */
const STAFF: string[] = [
  ROLES.teacher,
  ROLES.schoolAdmin,
  ROLES.organizeAdmin,
  ROLES.customerAdmin,
  ROLES.subCustomerAdmin,
];

/** The advisory lock a customer's review settings and auditors change under (two keys: this and the customer). */
const REVIEW_LOCK = 706_150_001;

/**
 * Review with no auditor would leave issuances pending for ever: turning review on needs an auditor, and the last
 * auditor cannot go while review is on or issuances still wait for a decision (4409). Each change is written first and
 * checked under the customer's lock, so of a removal and a switch at the same moment the second sees the first.
 */
async function requireAuditorForReview(tx: Db, customerId: string, { orPending = false } = {}) {
  await tx.execute(sql`select pg_advisory_xact_lock(${REVIEW_LOCK}::int4, hashtext(${customerId}))`);
  const waiting = async () =>
    (
      await tx
        .select({ id: certificateIssuances.id })
        .from(certificateIssuances)
        .where(and(eq(certificateIssuances.customerId, customerId), eq(certificateIssuances.state, 'pending')))
        .limit(1)
    ).length > 0;
  if (!(await reviewRequired(tx, customerId)) && !(orPending && (await waiting()))) return;
  const [any] = await tx
    .select({ id: certificateAuditors.id })
    .from(certificateAuditors)
    .where(eq(certificateAuditors.customerId, customerId))
    .limit(1);
  if (!any) throw new AppError('CERT_REVIEW_NEEDS_AUDITOR');
}

export async function listAuditors(ctx: AppContext, auth: AuthContext): Promise<TCertAuditor[]> {
  const rows = await ctx.db
    .select({
      id: certificateAuditors.id,
      userId: certificateAuditors.userId,
      username: users.username,
      realName: users.realName,
      createdAt: certificateAuditors.createdAt,
    })
    .from(certificateAuditors)
    .innerJoin(users, eq(users.id, certificateAuditors.userId))
    .where(eq(certificateAuditors.customerId, customerOf(auth)))
    .orderBy(asc(certificateAuditors.createdAt));
  return rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() }));
}

export async function addAuditor(
  ctx: AppContext,
  request: FastifyRequest,
  auth: AuthContext,
  userId: string,
): Promise<TCertAuditor> {
  const customerId = customerOf(auth);
  const [user] = await ctx.db
    .select({ id: users.id, roles: users.roles })
    .from(users)
    .where(and(eq(users.id, userId), eq(users.customerId, customerId)));
  if (!user || !user.roles.some((r) => STAFF.includes(r))) throw new AppError('NOT_FOUND');
  const added = await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(certificateAuditors)
      .values({ customerId, userId, createdBy: auth.userId })
      .onConflictDoNothing()
      .returning({ id: certificateAuditors.id });
    if (!row) throw new AppError('CERT_AUDITOR_EXISTS');
    await writeAudit(tx as unknown as Db, request, {
      module: 'certificate',
      operation: 'addAuditor',
      params: { userId },
    });
    return row;
  });
  return (await listAuditors(ctx, auth)).find((a) => a.id === added.id)!;
}

export async function removeAuditor(
  ctx: AppContext,
  request: FastifyRequest,
  auth: AuthContext,
  auditorId: string,
  userId: string,
) {
  await ctx.db.transaction(async (tx) => {
    const [removed] = await tx
      .delete(certificateAuditors)
      .where(
        and(
          eq(certificateAuditors.id, auditorId),
          eq(certificateAuditors.userId, userId),
          eq(certificateAuditors.customerId, customerOf(auth)),
        ),
      )
      .returning({ id: certificateAuditors.id });
    if (!removed) throw new AppError('NOT_FOUND');
    await requireAuditorForReview(tx as unknown as Db, customerOf(auth), { orPending: true });
    await writeAudit(tx as unknown as Db, request, {
      module: 'certificate',
      operation: 'removeAuditor',
      params: { auditorId, userId },
    });
  });
}

export async function getSettings(ctx: AppContext, auth: AuthContext): Promise<TCertSettings> {
  return { reviewRequired: await reviewRequired(ctx.db, customerOf(auth)) };
}

export async function putSettings(
  ctx: AppContext,
  request: FastifyRequest,
  auth: AuthContext,
  settings: TCertSettings,
): Promise<TCertSettings> {
  const customerId = customerOf(auth);
  await ctx.db.transaction(async (tx) => {
    await tx
      .insert(certificateSettings)
      .values({ customerId, reviewRequired: settings.reviewRequired })
      .onConflictDoUpdate({
        target: certificateSettings.customerId,
        set: { reviewRequired: settings.reviewRequired, updatedAt: ctx.now() },
      });
    await requireAuditorForReview(tx as unknown as Db, customerId);
    await writeAudit(tx as unknown as Db, request, { module: 'certificate', operation: 'settings', params: settings });
  });
  return getSettings(ctx, auth);
}
