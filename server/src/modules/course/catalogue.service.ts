import type { TCatalogueEntry } from '@aiedu/contracts';
import { and, asc, count, eq, ilike, ne, sql, type SQL } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { writeAudit } from '../../platform/audit.js';
import type { AuthContext } from '../../platform/auth/tokens.js';
import type { AppContext } from '../../platform/context.js';
import type { Db } from '../../platform/db/client.js';
import {
  courseApplications,
  courseCategories,
  courseDifficulties,
  courses,
  courseTags,
  courseVersions,
} from '../../platform/db/schema/index.js';
import { AppError } from '../../platform/errors.js';
import { forgetCatalogues } from './catalogue-cache.js';
import { likeText } from '../../platform/db/like.js';

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
type CategoryKind = 'direction' | 'stage';

/**
 * A column of the entry's own table, named in full: in a one-table select the query builder writes columns
 * without their table, which inside the subqueries below would name the courses' columns instead.
 */
const outer = (table: string, column = 'id') => sql`${sql.identifier(table)}.${sql.identifier(column)}`;

/**
 * How many courses use an entry. Closed courses do not count: their category simply empties when it is deleted
 * (the foreign key sets it null) and their learners' records stay. A tag counts where the published version or
 * the draft carries it.
 */
const USAGE: Record<CatalogueKind, SQL<number>> = {
  category: sql<number>`(select count(*) from ${courses} where (${courses.directionId} = ${outer('course_categories')} or ${courses.stageId} = ${outer('course_categories')}) and ${courses.status} <> 'closed')`,
  difficulty: sql<number>`(select count(*) from ${courses} where ${courses.difficultyId} = ${outer('course_difficulties')} and ${courses.status} <> 'closed')`,
  tag: sql<number>`(select count(*) from ${courses} where ${courses.status} <> 'closed' and exists (select 1 from ${courseVersions} where ${courseVersions.id} in (${courses.publishedVersionId}, ${courses.draftVersionId}) and ${outer('course_tags', 'name')} = any(${courseVersions.tags})))`,
};

const ORDER: Record<CatalogueKind, SQL[]> = {
  category: [sql`${courseCategories.kind}`, sql`${courseCategories.createdAt}`, sql`${courseCategories.id}`],
  difficulty: [sql`${courseDifficulties.createdAt}`, sql`${courseDifficulties.id}`],
  tag: [sql`${courseTags.name}`, sql`${courseTags.id}`],
};

function presentEntry(row: { id: string; name: string; createdAt: Date; courses: number; kind?: CategoryKind }) {
  return {
    id: row.id,
    name: row.name,
    ...(row.kind ? { kind: row.kind } : {}),
    courses: Number(row.courses),
    createdAt: row.createdAt.toISOString(),
  } satisfies TCatalogueEntry;
}

/** One entry with its usage, or NOT_FOUND. */
async function loadEntry(db: Db, kind: CatalogueKind, id: string) {
  const table = TABLES[kind];
  const [row] = await db
    .select({ row: table, courses: USAGE[kind].mapWith(Number) })
    .from(table)
    .where(eq(table.id, id));
  if (!row) throw new AppError('NOT_FOUND');
  return { ...row.row, courses: row.courses };
}

/** The administration's list of one kind of entry: search by name, directions or stages only, with usage. */
export async function listCatalogue(
  ctx: AppContext,
  kind: CatalogueKind,
  query: { page: number; size: number; keyword?: string | undefined; kind?: CategoryKind | undefined },
) {
  const table = TABLES[kind];
  const where = and(
    query.keyword ? ilike(table.name, likeText(query.keyword)) : undefined,
    kind === 'category' && query.kind ? eq(courseCategories.kind, query.kind) : undefined,
  );
  const [rows, [total]] = await Promise.all([
    ctx.db
      .select({ row: table, courses: USAGE[kind].mapWith(Number) })
      .from(table)
      .where(where)
      .orderBy(...ORDER[kind])
      .limit(query.size)
      .offset((query.page - 1) * query.size),
    ctx.db.select({ n: count() }).from(table).where(where),
  ]);
  return {
    list: rows.map((r) => presentEntry({ ...r.row, courses: r.courses })),
    total: total?.n ?? 0,
    page: query.page,
    size: query.size,
  };
}

/** Adds a direction, stage, difficulty or tag; a name already there is refused ("Tag already exists!"). */
export async function addCatalogueItem(
  ctx: AppContext,
  request: FastifyRequest,
  kind: CatalogueKind,
  input: { name: string; kind?: CategoryKind | undefined },
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
    return { id: row.id, name: row.name, ...('kind' in row ? { kind: row.kind as CategoryKind } : {}) };
  });
}

/** Another entry of the same kind (and, for categories, the same direction or stage) already has the name. */
async function nameTaken(db: Db, kind: CatalogueKind, id: string, name: string, categoryKind?: CategoryKind) {
  const table = TABLES[kind];
  const [row] = await db
    .select({ id: table.id })
    .from(table)
    .where(
      and(
        eq(table.name, name),
        ne(table.id, id),
        kind === 'category' ? eq(courseCategories.kind, categoryKind!) : undefined,
      ),
    );
  return Boolean(row);
}

/**
 * Carries a tag's new name into every course version that carries the old one, without a version then holding
 * the same tag twice (tags are unique within a course, whatever their case).
 */
async function renameTagInCourses(tx: Db, from: string, to: string) {
  await tx.execute(sql`
    update ${courseVersions} set tags = case
      when exists (select 1 from unnest(tags) t where lower(t) = lower(${to}) and t <> ${from}) then array_remove(tags, ${from})
      else array_replace(tags, ${from}, ${to}) end
    where ${from} = any(tags)`);
}

/**
 * Renames an entry (a category may also change between direction and stage while no course uses it). Courses
 * refer to categories and difficulties by id, so they show the new name at once; a tag's new name is written
 * into the courses that carry it.
 */
export async function updateCatalogueItem(
  ctx: AppContext,
  request: FastifyRequest,
  kind: CatalogueKind,
  id: string,
  input: { name: string; kind?: CategoryKind | undefined },
) {
  const table = TABLES[kind];
  const result = await ctx.db.transaction(async (tx) => {
    const entry = await loadEntry(tx, kind, id);
    const categoryKind = 'kind' in entry ? (input.kind ?? entry.kind) : undefined;
    if (await nameTaken(tx, kind, id, input.name, categoryKind)) throw new AppError('TAG_EXISTS', { name: input.name });
    if (categoryKind && 'kind' in entry && categoryKind !== entry.kind && entry.courses > 0) {
      throw new AppError('CATALOGUE_ITEM_IN_USE', { courses: entry.courses });
    }
    if (kind === 'category') {
      await tx
        .update(courseCategories)
        .set({ name: input.name, kind: categoryKind })
        .where(eq(courseCategories.id, id));
    } else {
      await tx.update(table).set({ name: input.name }).where(eq(table.id, id));
    }
    if (kind === 'tag' && entry.name !== input.name) await renameTagInCourses(tx, entry.name, input.name);
    await writeAudit(tx, request, {
      module: 'course',
      operation: `update-${kind}`,
      params: { id, from: entry.name, ...input },
      customerId: null,
    });
    return presentEntry(await loadEntry(tx, kind, id));
  });
  if (kind === 'tag') forgetCatalogues(ctx.db);
  return result;
}

/** Deletes an entry no course uses; one in use is refused with the number of courses. */
export async function deleteCatalogueItem(ctx: AppContext, request: FastifyRequest, kind: CatalogueKind, id: string) {
  const table = TABLES[kind];
  await ctx.db.transaction(async (tx) => {
    const entry = await loadEntry(tx, kind, id);
    if (entry.courses > 0) throw new AppError('CATALOGUE_ITEM_IN_USE', { courses: entry.courses });
    await tx.delete(table).where(eq(table.id, id));
    await writeAudit(tx, request, {
      module: 'course',
      operation: `delete-${kind}`,
      params: { id, name: entry.name },
      customerId: null,
    });
  });
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
