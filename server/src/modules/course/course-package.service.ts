import type { TCoursePackage } from '@aiedu/contracts';
import { count, desc, eq, ilike, inArray, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { writeAudit } from '../../platform/audit.js';
import type { AppContext } from '../../platform/context.js';
import type { Db } from '../../platform/db/client.js';
import { coursePackages, courses, courseVersions, customers } from '../../platform/db/schema/index.js';
import { AppError } from '../../platform/errors.js';
import { likeText } from '../../platform/db/like.js';
import { forgetCentrePages } from './centre-cache.js';

type PackageRow = typeof coursePackages.$inferSelect;

/** Names of the courses (their published version's, else the draft's) and customers the packages name. */
async function namesFor(db: Db, rows: PackageRow[]) {
  const courseIds = [...new Set(rows.flatMap((r) => r.courseIds))];
  const customerIds = [...new Set(rows.flatMap((r) => r.customerIds))];
  const [courseNames, customerNames] = await Promise.all([
    courseIds.length
      ? db
          .select({ id: courses.id, name: courseVersions.name })
          .from(courses)
          .innerJoin(
            courseVersions,
            eq(courseVersions.id, sql`coalesce(${courses.publishedVersionId}, ${courses.draftVersionId})`),
          )
          .where(inArray(courses.id, courseIds))
      : [],
    customerIds.length
      ? db.select({ id: customers.id, name: customers.name }).from(customers).where(inArray(customers.id, customerIds))
      : [],
  ]);
  return {
    courses: new Map(courseNames.map((c) => [c.id, c])),
    customers: new Map(customerNames.map((c) => [c.id, c])),
  };
}

async function presentPackages(db: Db, rows: PackageRow[]): Promise<TCoursePackage[]> {
  const names = await namesFor(db, rows);
  const pick = (ids: string[], map: Map<string, { id: string; name: string }>) =>
    ids.flatMap((id) => (map.has(id) ? [map.get(id)!] : []));
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    courseIds: row.courseIds,
    customerIds: row.customerIds,
    courses: pick(row.courseIds, names.courses),
    customers: pick(row.customerIds, names.customers),
    createdAt: row.createdAt.toISOString(),
  }));
}

/** Every id must name an existing row; the missing ones are refused by name. */
async function assertExisting(db: Db, table: typeof courses | typeof customers, ids: string[], field: string) {
  if (ids.length === 0) return;
  const found = await db.select({ id: table.id }).from(table).where(inArray(table.id, ids));
  const missing = ids.filter((id) => !found.some((f) => f.id === id));
  if (missing.length > 0) throw new AppError('NOT_FOUND', { [field]: missing });
}

/** Course packages, newest first, searched by name. */
export async function listPackages(
  ctx: AppContext,
  query: { page: number; size: number; keyword?: string | undefined },
) {
  const where = query.keyword ? ilike(coursePackages.name, likeText(query.keyword)) : undefined;
  const [rows, [total]] = await Promise.all([
    ctx.db
      .select()
      .from(coursePackages)
      .where(where)
      .orderBy(desc(coursePackages.createdAt), desc(coursePackages.id))
      .limit(query.size)
      .offset((query.page - 1) * query.size),
    ctx.db.select({ n: count() }).from(coursePackages).where(where),
  ]);
  return { list: await presentPackages(ctx.db, rows), total: total?.n ?? 0, page: query.page, size: query.size };
}

const unique = (ids: string[]) => [...new Set(ids)];

export async function createPackage(
  ctx: AppContext,
  request: FastifyRequest,
  input: { name: string; courseIds: string[] },
) {
  const courseIds = unique(input.courseIds);
  await assertExisting(ctx.db, courses, courseIds, 'courseIds');
  const row = await ctx.db.transaction(async (tx) => {
    const [inserted] = await tx.insert(coursePackages).values({ name: input.name, courseIds }).returning();
    await writeAudit(tx, request, { module: 'course', operation: 'createPackage', params: input, customerId: null });
    return inserted!;
  });
  return (await presentPackages(ctx.db, [row]))[0]!;
}

/** Changes a package's row and logs it, in one transaction. */
async function changePackage(
  ctx: AppContext,
  request: FastifyRequest,
  id: string,
  set: Partial<Pick<PackageRow, 'name' | 'courseIds' | 'customerIds'>>,
  operation: string,
) {
  const row = await ctx.db.transaction(async (tx) => {
    const [updated] = await tx
      .update(coursePackages)
      .set({ ...set, updatedAt: ctx.now() })
      .where(eq(coursePackages.id, id))
      .returning();
    if (!updated) throw new AppError('NOT_FOUND');
    await writeAudit(tx, request, { module: 'course', operation, params: { id, ...set }, customerId: null });
    return updated;
  });
  return (await presentPackages(ctx.db, [row]))[0]!;
}

/** Renames a package or changes its courses; the customers given it see the new set at once. */
export async function updatePackage(
  ctx: AppContext,
  request: FastifyRequest,
  id: string,
  input: { name: string; courseIds: string[] },
) {
  const courseIds = unique(input.courseIds);
  await assertExisting(ctx.db, courses, courseIds, 'courseIds');
  return changePackage(ctx, request, id, { name: input.name, courseIds }, 'updatePackage');
}

/** Assigns a package to customers: their users find its courses in the centre. */
export async function assignPackage(ctx: AppContext, request: FastifyRequest, id: string, customerIds: string[]) {
  const ids = unique(customerIds);
  await assertExisting(ctx.db, customers, ids, 'customerIds');
  return changePackage(ctx, request, id, { customerIds: ids }, 'assignPackage');
}

/**
 * Deletes a package: its customers no longer find its courses in the centre. Learners who joined one keep it and
 * their records (an enrolment does not depend on the package).
 */
export async function deletePackage(ctx: AppContext, request: FastifyRequest, id: string) {
  await ctx.db.transaction(async (tx) => {
    const [deleted] = await tx.delete(coursePackages).where(eq(coursePackages.id, id)).returning();
    if (!deleted) throw new AppError('NOT_FOUND');
    await writeAudit(tx, request, {
      module: 'course',
      operation: 'deletePackage',
      params: { id, name: deleted.name },
      customerId: null,
    });
  });
}

/** The packages given to each of the customers, `{ id, name }` by name, for the customers' own records. */
export async function packagesOfCustomers(db: Db, customerIds: string[]) {
  const given = new Map<string, { id: string; name: string }[]>(customerIds.map((id) => [id, []]));
  if (customerIds.length === 0) return given;
  const rows = await db
    .select({ id: coursePackages.id, name: coursePackages.name, customerIds: coursePackages.customerIds })
    .from(coursePackages)
    .where(sql`${coursePackages.customerIds} && ${sql.param(customerIds)}::uuid[]`)
    .orderBy(coursePackages.name, coursePackages.id);
  for (const row of rows) {
    for (const customerId of row.customerIds) given.get(customerId)?.push({ id: row.id, name: row.name });
  }
  return given;
}

/**
 * Gives a customer exactly these packages, from the customer's side: each package's customer list gains or loses it
 * (the one record `assignPackage` keeps). Unknown package ids are refused by name (`1004`).
 */
export async function setCustomerPackages(db: Db, customerId: string, packageIds: string[]) {
  const ids = unique(packageIds);
  if (ids.length > 0) {
    const found = await db
      .select({ id: coursePackages.id })
      .from(coursePackages)
      .where(inArray(coursePackages.id, ids));
    const missing = ids.filter((id) => !found.some((f) => f.id === id));
    if (missing.length > 0) throw new AppError('NOT_FOUND', { coursePackages: missing });
  }
  await db
    .update(coursePackages)
    .set({ customerIds: sql`array_remove(${coursePackages.customerIds}, ${customerId}::uuid)` })
    .where(sql`${customerId}::uuid = any(${coursePackages.customerIds})`);
  if (ids.length > 0) {
    await db
      .update(coursePackages)
      .set({ customerIds: sql`array_append(${coursePackages.customerIds}, ${customerId}::uuid)` })
      .where(inArray(coursePackages.id, ids));
  }
}

/** After `setCustomerPackages` outside the course routes: the centre's kept pages go, here and on the other processes. */
export async function announcePackageChange(ctx: AppContext) {
  forgetCentrePages(ctx.db);
  await ctx.cluster?.publish('course-centre-changed', null);
}
