import { ROLES, type TCreateCustomerRequest } from '@aiedu/contracts';
import { asc, count, desc, eq, ilike, inArray, isNotNull, or, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { writeAudit } from '../../platform/audit.js';
import type { AppContext } from '../../platform/context.js';
import { customers, schools, users } from '../../platform/db/schema/index.js';
import { AppError } from '../../platform/errors.js';
import { decodePassword } from '../../platform/password-policy.js';
import { hashPassword } from '../../platform/passwords.js';
import type { Scope } from '../../platform/tenancy.js';

type CustomerRow = typeof customers.$inferSelect;

const present = (row: CustomerRow, schoolCount: number) => ({
  id: row.id,
  parentId: row.parentId,
  code: row.code,
  name: row.name,
  enabled: row.enabled,
  remark: row.remark,
  schoolQuota: row.schoolQuota,
  teacherQuota: row.teacherQuota,
  studentQuota: row.studentQuota,
  containerConcurrency: row.containerConcurrency,
  maxStartsPerPerson: row.maxStartsPerPerson,
  studyConcurrency: row.studyConcurrency,
  schoolCount,
  createdAt: row.createdAt.toISOString(),
});

const SORTABLE = { code: customers.code, name: customers.name, createdAt: customers.createdAt } as const;

export async function listCustomers(
  ctx: AppContext,
  query: { page: number; size: number; keyword?: string | undefined; sort?: string | undefined },
) {
  const where = query.keyword
    ? or(ilike(customers.name, `%${query.keyword}%`), ilike(customers.code, `%${query.keyword}%`))
    : undefined;
  const [field, direction] = (query.sort ?? 'createdAt,desc').split(',') as [string, 'asc' | 'desc'];
  const column = SORTABLE[field as keyof typeof SORTABLE] ?? customers.createdAt;
  const schoolCount =
    sql<number>`(select count(*) from ${schools} where ${schools.customerId} = ${customers.id})`.mapWith(Number);
  const [rows, [total]] = await Promise.all([
    ctx.db
      .select({ customer: customers, schoolCount })
      .from(customers)
      .where(where)
      .orderBy(direction === 'asc' ? asc(column) : desc(column), asc(customers.id))
      .limit(query.size)
      .offset((query.page - 1) * query.size),
    ctx.db.select({ n: count() }).from(customers).where(where),
  ]);
  return {
    list: rows.map((r) => present(r.customer, r.schoolCount)),
    total: total?.n ?? 0,
    page: query.page,
    size: query.size,
  };
}

/**
 * A new customer and its administrator, in one transaction with its operation log. With a parent it is a
 * sub-customer, whose administrator sees only its subtree.
 */
export async function createCustomer(
  ctx: AppContext,
  request: FastifyRequest,
  input: TCreateCustomerRequest,
  parentId: string | null = null,
) {
  const password = decodePassword(input.adminPassword);
  if (password.length < 6 || password.length > 20) throw new AppError('PASSWORD_WEAK');
  const passwordHash = await hashPassword(password);
  const { adminUsername, adminName, adminPassword: _secret, ...fields } = input;
  return ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(customers)
      .values({ ...fields, parentId })
      .onConflictDoNothing()
      .returning();
    if (!row) throw new AppError('CUSTOMER_CODE_TAKEN');
    await tx.insert(users).values({
      customerId: row.id,
      username: adminUsername,
      realName: adminName,
      passwordHash,
      roles: [parentId ? ROLES.subCustomerAdmin : ROLES.customerAdmin],
      // An administrator-chosen password: the new customer administrator sets their own at first sign-in.
      mustChangePassword: true,
    });
    await writeAudit(tx, request, {
      module: parentId ? 'sub-customer' : 'customer',
      operation: 'create',
      params: { ...input, parentId },
      customerId: parentId ?? row.id,
    });
    return present(row, 0);
  });
}

export async function updateCustomer(
  ctx: AppContext,
  request: FastifyRequest,
  id: string,
  input: Partial<Omit<CustomerRow, 'id' | 'code' | 'parentId' | 'createdAt' | 'updatedAt'>>,
  operation = 'update',
) {
  return ctx.db.transaction(async (tx) => {
    const [row] = await tx.update(customers).set(input).where(eq(customers.id, id)).returning();
    if (!row) throw new AppError('NOT_FOUND');
    await writeAudit(tx, request, { module: 'customer', operation, params: { id, ...input }, customerId: row.id });
    const [{ n } = { n: 0 }] = await tx.select({ n: count() }).from(schools).where(eq(schools.customerId, id));
    return present(row, n);
  });
}

/** The sub-customers below the caller's customer (all of them for a super administrator). */
export async function listSubCustomers(ctx: AppContext, scope: Scope) {
  const where =
    scope.kind === 'all'
      ? isNotNull(customers.parentId)
      : scope.kind === 'customers'
        ? inArray(customers.parentId, scope.customerIds)
        : sql`false`;
  const rows = await ctx.db.select().from(customers).where(where).orderBy(asc(customers.code));
  return rows.map((row) => present(row, 0));
}
