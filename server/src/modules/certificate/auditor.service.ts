import { ROLES, type TCertAuditor, type TCertSettings } from '@aiedu/contracts';
import { and, asc, eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { writeAudit } from '../../platform/audit.js';
import type { AuthContext } from '../../platform/auth/tokens.js';
import type { Db } from '../../platform/db/client.js';
import type { AppContext } from '../../platform/context.js';
import { certificateAuditors, certificateSettings, users } from '../../platform/db/schema/index.js';
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
    await writeAudit(tx as unknown as Db, request, { module: 'certificate', operation: 'settings', params: settings });
  });
  return getSettings(ctx, auth);
}
