import type { TSchool } from '@aiedu/contracts';
import { and, asc, count, desc, eq, ilike, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { writeAudit } from '../../platform/audit.js';
import type { AuthContext } from '../../platform/auth/tokens.js';
import type { AppContext } from '../../platform/context.js';
import type { Db } from '../../platform/db/client.js';
import { customers, schools } from '../../platform/db/schema/index.js';
import { AppError } from '../../platform/errors.js';
import { callerScope, scopeWhere, targetCustomer, type Scope } from '../../platform/tenancy.js';
import { likeText } from '../../platform/db/like.js';
import { revokeSessionsOf } from '../auth/session.service.js';
import { assertQuota } from './quota.service.js';

type SchoolRow = typeof schools.$inferSelect;

const present = (row: SchoolRow, customerName: string): TSchool => ({
  id: row.id,
  customerId: row.customerId,
  customerName,
  name: row.name,
  eduStages: row.eduStages,
  enabled: row.enabled,
  notes: row.notes,
  listed: row.listed,
  createdAt: row.createdAt.toISOString(),
});

/** The name of the customer a school belongs to, for telling apart the schools of sub-customers. */
const customerName = sql<string>`(select c.name from ${customers} c where c.id = ${schools.customerId})`;

async function nameOfCustomer(db: Db, id: string) {
  const [row] = await db.select({ name: customers.name }).from(customers).where(eq(customers.id, id));
  return row?.name ?? '';
}

/** The schools a scope holds: school staff hold only their own. */
const schoolsOf = (scope: Scope) => scopeWhere(scope, { customerId: schools.customerId, schoolId: schools.id });

export async function listSchools(
  ctx: AppContext,
  auth: AuthContext,
  query: { page: number; size: number; keyword?: string | undefined; sort?: string | undefined },
) {
  const where = and(
    schoolsOf(await callerScope(ctx.db, auth)),
    query.keyword ? ilike(schools.name, likeText(query.keyword)) : undefined,
  );
  const [field, direction] = (query.sort ?? 'createdAt,desc').split(',');
  const column = field === 'name' ? schools.name : schools.createdAt;
  const [rows, [total]] = await Promise.all([
    ctx.db
      .select({ school: schools, customerName })
      .from(schools)
      .where(where)
      .orderBy(direction === 'asc' ? asc(column) : desc(column), asc(schools.id))
      .limit(query.size)
      .offset((query.page - 1) * query.size),
    ctx.db.select({ n: count() }).from(schools).where(where),
  ]);
  return {
    list: rows.map((r) => present(r.school, r.customerName)),
    total: total?.n ?? 0,
    page: query.page,
    size: query.size,
  };
}

/**
 * Creates a school within the school quota of its customer and of every customer above it; concurrent creations
 * in one tree are serialised on the customer rows.
 */
export async function createSchool(
  ctx: AppContext,
  request: FastifyRequest,
  auth: AuthContext,
  input: {
    name: string;
    eduStages: string[];
    notes: string;
    listed?: boolean | undefined;
    customerId?: string | undefined;
  },
) {
  const customerId = targetCustomer(await callerScope(ctx.db, auth), input.customerId);
  return ctx.db.transaction(async (tx) => {
    await assertQuota(tx as unknown as Db, customerId, 'school');
    const [row] = await tx
      .insert(schools)
      .values({
        customerId,
        name: input.name,
        eduStages: input.eduStages,
        notes: input.notes,
        listed: input.listed ?? false,
      })
      .returning();
    await writeAudit(tx, request, { module: 'school', operation: 'create', params: input, customerId });
    return present(row!, await nameOfCustomer(tx as unknown as Db, customerId));
  });
}

export async function updateSchool(
  ctx: AppContext,
  request: FastifyRequest,
  auth: AuthContext,
  id: string,
  input: Partial<Pick<SchoolRow, 'name' | 'eduStages' | 'notes' | 'enabled' | 'listed'>>,
  operation = 'update',
) {
  // The scope is read before the transaction: on the embedded database a query beside an open transaction waits for it.
  const scope = await callerScope(ctx.db, auth);
  const { school, ended } = await ctx.db.transaction(async (tx) => {
    const where = and(eq(schools.id, id), schoolsOf(scope));
    // A body without a field changes nothing and answers the school as it is.
    const [row] = Object.values(input).some((value) => value !== undefined)
      ? await tx.update(schools).set(input).where(where).returning()
      : await tx.select().from(schools).where(where);
    if (!row) throw new AppError('NOT_FOUND');
    // Switched off, its teachers, students and staff are signed out.
    const ending =
      input.enabled === false ? await revokeSessionsOf(tx as unknown as Db, { schoolId: id }, ctx.now()) : undefined;
    await writeAudit(tx, request, {
      module: 'school',
      operation,
      params: { id, ...input },
      customerId: row.customerId,
    });
    return { school: present(row, await nameOfCustomer(tx as unknown as Db, row.customerId)), ended: ending };
  });
  if (ended) ctx.sessions.ended(ended);
  return school;
}
