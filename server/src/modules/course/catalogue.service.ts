import { asc, eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { writeAudit } from '../../platform/audit.js';
import type { AuthContext } from '../../platform/auth/tokens.js';
import type { AppContext } from '../../platform/context.js';
import {
  courseApplications,
  courseCategories,
  courseDifficulties,
  coursePackages,
  courseTags,
} from '../../platform/db/schema/index.js';
import { AppError } from '../../platform/errors.js';

/** Filters of the course centre: directions, stages, difficulties and tags kept by super administrators. */
export async function getFilters(ctx: AppContext) {
  const [categories, difficulties, tags] = await Promise.all([
    ctx.db.select().from(courseCategories).orderBy(asc(courseCategories.createdAt)),
    ctx.db.select().from(courseDifficulties).orderBy(asc(courseDifficulties.createdAt)),
    ctx.db.select().from(courseTags).orderBy(asc(courseTags.name)),
  ]);
  const item = (r: { id: string; name: string }) => ({ id: r.id, name: r.name });
  return {
    directions: categories.filter((c) => c.kind === 'direction').map((c) => ({ ...item(c), kind: c.kind })),
    stages: categories.filter((c) => c.kind === 'stage').map((c) => ({ ...item(c), kind: c.kind })),
    difficulties: difficulties.map(item),
    tags: tags.map(item),
  };
}

const TABLES = { category: courseCategories, difficulty: courseDifficulties, tag: courseTags } as const;
export type CatalogueKind = keyof typeof TABLES;

/** Adds a direction, stage, difficulty or tag; a name already there is refused ("Tag already exists!"). */
export async function addCatalogueItem(
  ctx: AppContext,
  request: FastifyRequest,
  kind: CatalogueKind,
  input: { name: string; kind?: 'direction' | 'stage' | undefined },
) {
  return ctx.db.transaction(async (tx) => {
    const rows =
      kind === 'category'
        ? await tx
            .insert(courseCategories)
            .values({ name: input.name, kind: input.kind ?? 'direction' })
            .onConflictDoNothing()
            .returning()
        : await tx.insert(TABLES[kind]).values({ name: input.name }).onConflictDoNothing().returning();
    const row = rows[0];
    if (!row) throw new AppError('TAG_EXISTS', { name: input.name });
    await writeAudit(tx, request, { module: 'course', operation: `add-${kind}`, params: input, customerId: null });
    return { id: row.id, name: row.name, ...('kind' in row ? { kind: row.kind as 'direction' | 'stage' } : {}) };
  });
}

export async function deleteCatalogueItem(ctx: AppContext, request: FastifyRequest, kind: CatalogueKind, id: string) {
  const table = TABLES[kind];
  const rows = await ctx.db.delete(table).where(eq(table.id, id)).returning({ id: table.id });
  if (rows.length === 0) throw new AppError('NOT_FOUND');
  await writeAudit(ctx.db, request, {
    module: 'course',
    operation: `delete-${kind}`,
    params: { id },
    customerId: null,
  });
}

export async function listPackages(ctx: AppContext) {
  const rows = await ctx.db.select().from(coursePackages).orderBy(asc(coursePackages.createdAt));
  return rows.map(presentPackage);
}

function presentPackage(row: typeof coursePackages.$inferSelect) {
  return { id: row.id, name: row.name, courseIds: row.courseIds, customerIds: row.customerIds };
}

export async function createPackage(
  ctx: AppContext,
  request: FastifyRequest,
  input: { name: string; courseIds: string[] },
) {
  const [row] = await ctx.db.insert(coursePackages).values(input).returning();
  await writeAudit(ctx.db, request, { module: 'course', operation: 'createPackage', params: input, customerId: null });
  return presentPackage(row!);
}

/** Assigns a package to customers: their users find its courses in the centre. */
export async function assignPackage(ctx: AppContext, request: FastifyRequest, id: string, customerIds: string[]) {
  const [row] = await ctx.db.update(coursePackages).set({ customerIds }).where(eq(coursePackages.id, id)).returning();
  if (!row) throw new AppError('NOT_FOUND');
  await writeAudit(ctx.db, request, {
    module: 'course',
    operation: 'assignPackage',
    params: { id, customerIds },
    customerId: null,
  });
  return presentPackage(row);
}

/** "Apply for courses": kept for administrators, who follow up within 3 working days. */
export async function applyForCourses(
  ctx: AppContext,
  auth: AuthContext | null,
  input: { name: string; phone: string; email: string; remark: string },
) {
  const [row] = await ctx.db
    .insert(courseApplications)
    .values({ ...input, customerId: auth?.customerId ?? null, userId: auth?.userId ?? null })
    .returning();
  return { id: row!.id, followUpWorkingDays: 3 };
}

export async function listApplications(ctx: AppContext) {
  const rows = await ctx.db.select().from(courseApplications).orderBy(asc(courseApplications.createdAt));
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    phone: r.phone,
    email: r.email,
    remark: r.remark,
    createdAt: r.createdAt.toISOString(),
  }));
}
