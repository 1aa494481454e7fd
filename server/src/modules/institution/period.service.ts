import type { TPeriod, TPeriodRequest } from '@aiedu/contracts';
import { and, desc, eq, or, isNull } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { writeAudit } from '../../platform/audit.js';
import type { AuthContext } from '../../platform/auth/tokens.js';
import type { AppContext } from '../../platform/context.js';
import { periods, schools } from '../../platform/db/schema/index.js';
import { AppError } from '../../platform/errors.js';
import { callerScope, scopeWhere, targetCustomer, type Scope } from '../../platform/tenancy.js';

type PeriodRow = typeof periods.$inferSelect;

const present = (row: PeriodRow): TPeriod => ({
  id: row.id,
  customerId: row.customerId,
  schoolId: row.schoolId,
  name: row.name,
  startDate: row.startDate,
  endDate: row.endDate,
  createdAt: row.createdAt.toISOString(),
});

/** Periods a caller sees: its customers'; school staff see their school's and the customer-wide ones. */
function periodWhere(scope: Scope) {
  if (scope.kind !== 'school') return scopeWhere(scope, periods);
  return and(
    eq(periods.customerId, scope.customerId),
    or(isNull(periods.schoolId), eq(periods.schoolId, scope.schoolId)),
  );
}

/** Periods a caller may change: school staff only their own school's. */
function editableWhere(scope: Scope) {
  return scopeWhere(scope, periods);
}

export async function listPeriods(ctx: AppContext, auth: AuthContext) {
  const scope = await callerScope(ctx.db, auth);
  const rows = await ctx.db
    .select()
    .from(periods)
    .where(periodWhere(scope))
    .orderBy(desc(periods.startDate), desc(periods.id));
  return rows.map(present);
}

/** The school a period belongs to: the caller's own for school staff, else one inside the scope (or none). */
async function periodSchool(ctx: AppContext, scope: Scope, asked: string | null | undefined) {
  if (scope.kind === 'school') return { schoolId: scope.schoolId, customerId: scope.customerId };
  if (!asked) return null;
  const [school] = await ctx.db
    .select({ schoolId: schools.id, customerId: schools.customerId })
    .from(schools)
    .where(and(eq(schools.id, asked), scopeWhere(scope, schools)));
  if (!school) throw new AppError('NOT_FOUND');
  return school;
}

export async function createPeriod(
  ctx: AppContext,
  request: FastifyRequest,
  auth: AuthContext,
  input: TPeriodRequest & { customerId?: string | undefined },
) {
  const scope = await callerScope(ctx.db, auth);
  const school = await periodSchool(ctx, scope, input.schoolId);
  const customerId = school?.customerId ?? targetCustomer(scope, input.customerId);
  return ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(periods)
      .values({
        customerId,
        schoolId: school?.schoolId ?? null,
        name: input.name,
        startDate: input.startDate,
        endDate: input.endDate,
      })
      .returning();
    await writeAudit(tx, request, { module: 'period', operation: 'create', params: input, customerId });
    return present(row!);
  });
}

export async function updatePeriod(
  ctx: AppContext,
  request: FastifyRequest,
  auth: AuthContext,
  id: string,
  input: TPeriodRequest,
) {
  const scope = await callerScope(ctx.db, auth);
  const school = input.schoolId === undefined ? undefined : await periodSchool(ctx, scope, input.schoolId);
  return ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .update(periods)
      .set({
        name: input.name,
        startDate: input.startDate,
        endDate: input.endDate,
        ...(school === undefined ? {} : { schoolId: school?.schoolId ?? null }),
      })
      .where(and(eq(periods.id, id), editableWhere(scope)))
      .returning();
    if (!row) throw new AppError('NOT_FOUND');
    await writeAudit(tx, request, {
      module: 'period',
      operation: 'update',
      params: { id, ...input },
      customerId: row.customerId,
    });
    return present(row);
  });
}

export async function deletePeriod(ctx: AppContext, request: FastifyRequest, auth: AuthContext, id: string) {
  const scope = await callerScope(ctx.db, auth);
  await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .delete(periods)
      .where(and(eq(periods.id, id), editableWhere(scope)))
      .returning();
    if (!row) throw new AppError('NOT_FOUND');
    await writeAudit(tx, request, {
      module: 'period',
      operation: 'delete',
      params: { id },
      customerId: row.customerId,
    });
  });
}
