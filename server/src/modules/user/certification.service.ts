import { ROLES, type TTeacherCertification, type TTeacherCertificationRequest } from '@aiedu/contracts';
import { and, desc, eq, ilike, inArray, sql } from 'drizzle-orm';
import type { AuthContext } from '../../platform/auth/tokens.js';
import type { AppContext } from '../../platform/context.js';
import { customers, schools, teacherCertifications, teachers, users } from '../../platform/db/schema/index.js';
import { likeText } from '../../platform/db/like.js';
import { preparedStatements } from '../../platform/db/prepared.js';
import { AppError } from '../../platform/errors.js';
import {
  callerScope,
  customerSubtree,
  scopePlaceholders,
  scopeShape,
  scopeValues,
  scopeWhere,
  type Scope,
  type ScopeShape,
} from '../../platform/tenancy.js';
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

/**
 * The requests a reviewer's scope holds: those sent in its customers (a customer administrator's subtree), and for
 * school staff only those of their school's people. The requester's school decides: a request names its school
 * only as text.
 */
function reviewableWhere(ctx: AppContext, scope: Scope) {
  const sentInScope = scopeWhere(scope, teacherCertifications);
  if (scope.kind !== 'school') return sentInScope;
  const schoolPeople = ctx.db.select({ id: users.id }).from(users).where(scopeWhere(scope, users));
  return and(sentInScope, inArray(teacherCertifications.userId, schoolPeople));
}

/** The requests an administrator may review: their school's, their customer's with its sub-customers', or all. */
export async function listPendingCertifications(ctx: AppContext, auth: AuthContext) {
  const scope = await callerScope(ctx.db, auth);
  const rows = await ctx.db
    .select()
    .from(teacherCertifications)
    .where(and(eq(teacherCertifications.status, 'pending'), reviewableWhere(ctx, scope)))
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
  const scope = reviewableWhere(ctx, await callerScope(ctx.db, auth));
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

/**
 * Whether the school's customer and every customer above it are switched on: a school of a switched-off customer
 * takes no one in. `union` (not `union all`) ends the walk up should the parent links ever form a loop.
 */
const schoolCustomersOn = sql<boolean>`not exists (
  with recursive line(id, parent_id, enabled) as (
    select c.id, c.parent_id, c.enabled from ${customers} c where c.id = ${schools.customerId}
    union
    select c.id, c.parent_id, c.enabled from ${customers} c join line on c.id = line.parent_id
  )
  select 1 from line where not line.enabled
)`;

/**
 * The school search, built once per shape and database (`platform/db/prepared.ts`): in the public space only the
 * schools that chose to be listed (`listed`); otherwise those of the caller's scope (a `ScopeShape`).
 */
const schoolSearch = preparedStatements((db, name, key) => {
  const findable =
    key === 'listed'
      ? eq(schools.listed, true)
      : scopePlaceholders(JSON.parse(key) as ScopeShape, { customerId: schools.customerId });
  return db
    .select({ id: schools.id, name: schools.name })
    .from(schools)
    .where(and(findable, eq(schools.enabled, true), ilike(schools.name, sql.placeholder('name')), schoolCustomersOn))
    .orderBy(schools.name)
    .limit(20)
    .prepare(name);
});

/**
 * Up to 20 switched-on schools, of switched-on customers, whose name contains the text (for the profile form): a
 * customer's people find those of their customer and the customers below it, whatever their own school; super
 * administrators every school.
 */
export async function searchSchools(ctx: AppContext, auth: AuthContext, partName: string) {
  const name = likeText(partName);
  const isSuper = auth.roles.includes(ROLES.super);
  if (!isSuper && !auth.customerId) return schoolSearch(ctx.db, 'listed').execute({ name });
  const scope: Scope = isSuper
    ? { kind: 'all' }
    : { kind: 'customers', customerId: auth.customerId!, customerIds: await customerSubtree(ctx.db, auth.customerId!) };
  return schoolSearch(ctx.db, JSON.stringify(scopeShape(scope))).execute({ ...scopeValues(scope), name });
}
