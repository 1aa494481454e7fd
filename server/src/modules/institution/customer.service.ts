import {
  CONTAINER_TYPES,
  hasPermission,
  ROLES,
  type ContainerType,
  type TCreateCustomerRequest,
} from '@aiedu/contracts';
import { asc, count, desc, eq, ilike, inArray, isNotNull, or, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { writeAudit } from '../../platform/audit.js';
import { requireAuth } from '../../platform/auth/auth-guard.js';
import type { AppContext } from '../../platform/context.js';
import type { Db } from '../../platform/db/client.js';
import { customers, schools, users } from '../../platform/db/schema/index.js';
import { AppError } from '../../platform/errors.js';
import { customerSubtree, forgetCustomerTrees, type Scope } from '../../platform/tenancy.js';
import { likeText } from '../../platform/db/like.js';
import { revokeSessionsOf } from '../auth/session.service.js';
import { announcePackageChange, packagesOfCustomers, setCustomerPackages } from '../course/course-package.service.js';
import {
  assertWithinOffer,
  chainRows,
  inheritOffer,
  narrowBelow,
  offerOf,
  touchesOffer,
} from './customer-offer.service.js';
import { adminPasswordHash } from './people.service.js';
import { keptInstitutionHomes } from './home.service.js';

type CustomerRow = typeof customers.$inferSelect;

interface Extra {
  schoolCount: number;
  admin: { username: string; realName: string } | null;
  creator: string | null;
  /** The course packages given to the customer (the course catalogue's record). */
  packages?: { id: string; name: string }[] | undefined;
}

const present = (row: CustomerRow, { schoolCount, admin, creator, packages = [] }: Extra) => ({
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
  containerTypes: row.containerTypes.filter(isContainerType),
  coursePackages: packages,
  country: row.country,
  province: row.province,
  city: row.city,
  district: row.district,
  adminUsername: admin?.username ?? '',
  adminName: admin?.realName ?? '',
  creator,
  schoolCount,
  createdAt: row.createdAt.toISOString(),
});

const isContainerType = (t: string): t is ContainerType => (CONTAINER_TYPES as readonly string[]).includes(t);

/** The customer's first administrator (the one created with it). */
const adminOf = sql<{ username: string; realName: string } | null>`(
  select json_build_object('username', u.username, 'realName', u.real_name) from ${users} u
  where u.customer_id = "customers"."id" and u.roles && array[${ROLES.customerAdmin}, ${ROLES.subCustomerAdmin}]::text[]
  order by u.created_at limit 1)`;

/** The username of the administrator who created the customer (null: made before creators were kept, or deleted). */
const creatorOf = sql<string | null>`(select u.username from ${users} u where u.id = "customers"."created_by")`;

const schoolCount = sql<number>`(select count(*) from ${schools} s where s.customer_id = "customers"."id")`.mapWith(
  Number,
);

const SORTABLE = { code: customers.code, name: customers.name, createdAt: customers.createdAt } as const;

export async function listCustomers(
  ctx: AppContext,
  query: { page: number; size: number; keyword?: string | undefined; sort?: string | undefined },
) {
  const where = query.keyword
    ? or(ilike(customers.name, likeText(query.keyword)), ilike(customers.code, likeText(query.keyword)))
    : undefined;
  const [field, direction] = (query.sort ?? 'createdAt,desc').split(',') as [string, 'asc' | 'desc'];
  const column = SORTABLE[field as keyof typeof SORTABLE] ?? customers.createdAt;
  const [rows, [total]] = await Promise.all([
    ctx.db
      .select({ customer: customers, schoolCount, admin: adminOf, creator: creatorOf })
      .from(customers)
      .where(where)
      .orderBy(direction === 'asc' ? asc(column) : desc(column), asc(customers.id))
      .limit(query.size)
      .offset((query.page - 1) * query.size),
    ctx.db.select({ n: count() }).from(customers).where(where),
  ]);
  const packages = await packagesOfCustomers(
    ctx.db,
    rows.map((r) => r.customer.id),
  );
  return {
    list: rows.map((r) => present(r.customer, { ...r, packages: packages.get(r.customer.id) })),
    total: total?.n ?? 0,
    page: query.page,
    size: query.size,
  };
}

/**
 * A new customer and its administrator, in one transaction with its operation log. With a parent it is a
 * sub-customer, whose administrator sees only its subtree: its quotas and container types are those asked for
 * within what the parent offers, and the parent's where none are asked for.
 */
export async function createCustomer(
  ctx: AppContext,
  request: FastifyRequest,
  input: TCreateCustomerRequest,
  parentId: string | null = null,
) {
  const passwordHash = await adminPasswordHash(input.adminPassword);
  const { adminUsername, adminName, adminPassword: _secret, coursePackages, ...fields } = input;
  assertMayGivePackages(request, coursePackages);
  const created = await ctx.db.transaction(async (tx) => {
    const values = parentId ? inheritOffer(offerOf(await parentChain(tx as unknown as Db, parentId)), fields) : fields;
    const [row] = await tx
      .insert(customers)
      .values({ ...values, parentId, createdBy: requireAuth(request).userId })
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
    if (coursePackages) await setCustomerPackages(tx as unknown as Db, row.id, coursePackages);
    const [creator] = await tx.select({ creator: creatorOf }).from(customers).where(eq(customers.id, row.id));
    return present(row, {
      schoolCount: 0,
      admin: { username: adminUsername, realName: adminName },
      creator: creator?.creator ?? null,
      packages: (await packagesOfCustomers(tx as unknown as Db, [row.id])).get(row.id),
    });
  });
  if (coursePackages?.length) await announcePackageChange(ctx);
  // A sub-customer grows its parents' trees.
  if (parentId) await forgetCustomerTrees(ctx.db);
  return created;
}

/** Course packages are the course catalogue's, given by those who keep it (`course.catalogue`): others may not. */
function assertMayGivePackages(request: FastifyRequest, coursePackages: string[] | undefined) {
  if (coursePackages !== undefined && !hasPermission(requireAuth(request).roles, 'course.catalogue')) {
    throw new AppError('NO_PERMISSION_PAGE', { field: 'coursePackages' });
  }
}

/** A customer and those above it, locked from the top-level one down (see `chainRows`); refused when unknown. */
async function parentChain(db: Db, customerId: string) {
  const chain = await chainRows(db, customerId, true);
  if (chain.at(-1)?.id !== customerId) throw new AppError('NOT_FOUND');
  return chain;
}

/**
 * Changes a customer. A sub-customer's quotas and container types stay within what its parent offers (refused
 * beyond), and the customers below follow when its own offer shrinks.
 */
export async function updateCustomer(
  ctx: AppContext,
  request: FastifyRequest,
  id: string,
  {
    coursePackages,
    ...input
  }: Partial<Omit<CustomerRow, 'id' | 'code' | 'parentId' | 'createdAt' | 'updatedAt'>> & {
    coursePackages?: string[] | undefined;
  },
  operation = 'update',
  module = 'customer',
) {
  assertMayGivePackages(request, coursePackages);
  const { customer, ended } = await ctx.db.transaction(async (tx) => {
    const db = tx as unknown as Db;
    const above = await parentChain(db, id);
    const own = above.pop()!;
    if (own.parentId) assertWithinOffer(offerOf(above), input);
    const changes = Object.values(input).some((value) => value !== undefined);
    const [row] = changes
      ? await tx.update(customers).set(input).where(eq(customers.id, id)).returning()
      : await tx.select().from(customers).where(eq(customers.id, id));
    if (!row) throw new AppError('NOT_FOUND');
    if (coursePackages) await setCustomerPackages(db, id, coursePackages);
    if (touchesOffer(input)) await narrowBelow(db, id, offerOf([...above, row]));
    // Switched off, its people and those of every customer below it are signed out.
    const ending =
      input.enabled === false
        ? await revokeSessionsOf(db, { customerIds: await customerSubtree(db, id) }, ctx.now())
        : undefined;
    await writeAudit(tx, request, { module, operation, params: { id, ...input, coursePackages }, customerId: row.id });
    const [extra] = await tx
      .select({ schoolCount, admin: adminOf, creator: creatorOf })
      .from(customers)
      .where(eq(customers.id, id));
    const packages = (await packagesOfCustomers(db, [id])).get(id);
    return {
      customer: present(row, { ...(extra ?? { schoolCount: 0, admin: null, creator: null }), packages }),
      ended: ending,
    };
  });
  if (ended) ctx.sessions.ended(ended);
  if (coursePackages) await announcePackageChange(ctx);
  // Its name or its being switched off shows on its home page and those of the customers below it.
  if (Object.values(input).some((value) => value !== undefined)) await keptInstitutionHomes(ctx).forget();
  return customer;
}

/** The sub-customers below the caller's customer (all of them for a super administrator). */
export async function listSubCustomers(ctx: AppContext, scope: Scope) {
  const where =
    scope.kind === 'all'
      ? isNotNull(customers.parentId)
      : scope.kind === 'customers'
        ? inArray(customers.parentId, scope.customerIds)
        : sql`false`;
  const rows = await ctx.db
    .select({ customer: customers, schoolCount, admin: adminOf, creator: creatorOf })
    .from(customers)
    .where(where)
    .orderBy(asc(customers.code));
  const packages = await packagesOfCustomers(
    ctx.db,
    rows.map((r) => r.customer.id),
  );
  return rows.map((r) => present(r.customer, { ...r, packages: packages.get(r.customer.id) }));
}

/** Changes a sub-customer strictly below the caller's customer (never the caller's own customer or a sibling's). */
export async function updateSubCustomer(
  ctx: AppContext,
  request: FastifyRequest,
  scope: Scope,
  id: string,
  input: Parameters<typeof updateCustomer>[3],
  operation: string,
) {
  const below =
    scope.kind === 'all' || (scope.kind === 'customers' && scope.customerIds.includes(id) && id !== scope.customerId);
  const [row] = below ? await ctx.db.select().from(customers).where(eq(customers.id, id)) : [];
  if (!row?.parentId) throw new AppError('NOT_FOUND');
  return updateCustomer(ctx, request, id, input, operation, 'sub-customer');
}

/** How many customers are offered each container type. */
export async function countCustomersByContainerType(ctx: AppContext): Promise<Partial<Record<ContainerType, number>>> {
  const type = sql<string>`unnest(${customers.containerTypes})`;
  const rows = await ctx.db
    .select({ type, n: count() })
    .from(customers)
    .groupBy(sql`1`);
  return Object.fromEntries(rows.filter((r) => isContainerType(r.type)).map((r) => [r.type, r.n]));
}
