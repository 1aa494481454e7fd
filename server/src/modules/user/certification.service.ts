import { ROLES, type TTeacherCertification, type TTeacherCertificationRequest } from '@aiedu/contracts';
import { and, desc, eq, sql } from 'drizzle-orm';
import type { AuthContext } from '../../platform/auth/tokens.js';
import type { AppContext } from '../../platform/context.js';
import { teacherCertifications, teachers, users } from '../../platform/db/schema/index.js';
import { AppError } from '../../platform/errors.js';
import { consumeCode } from './verification.service.js';

type Row = typeof teacherCertifications.$inferSelect;

/** Identity numbers are kept for the reviewer but shown masked: the first 3 and the last 4 characters. */
export function mask(value: string): string {
  if (value.length <= 7) return value.replace(/./g, '*');
  return `${value.slice(0, 3)}${'*'.repeat(value.length - 7)}${value.slice(-4)}`;
}

function present(row: Row): TTeacherCertification {
  return {
    id: row.id,
    userId: row.userId,
    region: row.region,
    schoolName: row.schoolName,
    teacherNumber: row.teacherNumber,
    idNumber: mask(row.idNumber),
    phone: row.phone,
    documentType: row.documentType,
    documentNumber: mask(row.documentNumber),
    contact: row.contact,
    status: row.status,
    reason: row.reason,
    createdAt: row.createdAt.toISOString(),
    reviewedAt: row.reviewedAt?.toISOString() ?? null,
  };
}

/** Submits a request; a pending one must be reviewed before another is sent, a certified teacher needs none. */
export async function submitCertification(ctx: AppContext, auth: AuthContext, input: TTeacherCertificationRequest) {
  const latest = await latestCertification(ctx, auth.userId);
  if (latest && latest.status !== 'rejected') throw new AppError('OPERATION_FAILED');
  if (input.region === 'mainland') await consumeCode(ctx, 'BIND', input.phone, input.verifyCode);
  const values =
    input.region === 'mainland'
      ? { ...input, documentType: 'id' as const, documentNumber: input.idNumber }
      : { ...input, teacherNumber: '', idNumber: '' };
  const [row] = await ctx.db
    .insert(teacherCertifications)
    .values({ ...values, userId: auth.userId, customerId: auth.customerId })
    .returning();
  return present(row!);
}

export async function latestCertification(ctx: AppContext, userId: string) {
  const [row] = await ctx.db
    .select()
    .from(teacherCertifications)
    .where(eq(teacherCertifications.userId, userId))
    .orderBy(desc(teacherCertifications.createdAt))
    .limit(1);
  return row ? present(row) : null;
}

/** The requests an administrator may review: their customer's, or all for a super administrator. */
export async function listPendingCertifications(ctx: AppContext, auth: AuthContext) {
  const scope = auth.roles.includes(ROLES.super) ? undefined : eq(teacherCertifications.customerId, auth.customerId!);
  const rows = await ctx.db
    .select()
    .from(teacherCertifications)
    .where(and(eq(teacherCertifications.status, 'pending'), scope))
    .orderBy(teacherCertifications.createdAt);
  return rows.map(present);
}

/** Certifies or rejects; a certified user becomes a teacher who may create courses. */
export async function reviewCertification(
  ctx: AppContext,
  auth: AuthContext,
  id: string,
  decision: { status: 'certified' | 'rejected'; reason: string },
) {
  const scope = auth.roles.includes(ROLES.super) ? undefined : eq(teacherCertifications.customerId, auth.customerId!);
  return ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .update(teacherCertifications)
      .set({ status: decision.status, reason: decision.reason, reviewedBy: auth.userId, reviewedAt: ctx.now() })
      .where(and(eq(teacherCertifications.id, id), eq(teacherCertifications.status, 'pending'), scope))
      .returning();
    if (!row) throw new AppError('NOT_FOUND');
    if (decision.status === 'certified') {
      await tx
        .update(users)
        .set({ roles: sql`array_append(array_remove(${users.roles}, ${ROLES.teacher}), ${ROLES.teacher})` })
        .where(eq(users.id, row.userId));
      await tx.update(teachers).set({ certified: true }).where(eq(teachers.userId, row.userId));
    }
    return present(row);
  });
}
