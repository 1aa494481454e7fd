import { EDU_STAGES, graduateYearOf, STAGE_YEARS, type TClass, type TClassListQuery } from '@aiedu/contracts';
import { and, asc, count, desc, eq, ilike, inArray, ne, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { writeAudit } from '../../platform/audit.js';
import type { AuthContext } from '../../platform/auth/tokens.js';
import type { AppContext } from '../../platform/context.js';
import type { Db } from '../../platform/db/client.js';
import { classes, customers, schools, students, upgradeSchedules } from '../../platform/db/schema/index.js';
import { AppError } from '../../platform/errors.js';
import {
  callerScope,
  scopePlaceholders,
  scopeShape,
  scopeValues,
  scopeWhere,
  type Scope,
  type ScopeShape,
} from '../../platform/tenancy.js';
import { likeText } from '../../platform/db/like.js';
import { preparedStatements } from '../../platform/db/prepared.js';

type Stage = (typeof EDU_STAGES)[number];
type ClassRow = typeof classes.$inferSelect;

const isStage = (value: string): value is Stage => (EDU_STAGES as readonly string[]).includes(value);

function present(row: ClassRow, stuCount: number): TClass {
  const eduStage = isStage(row.eduStage) ? row.eduStage : 'primary';
  return {
    id: row.id,
    schoolId: row.schoolId,
    eduStage,
    grade: row.grade,
    className: row.className,
    startYear: row.startYear,
    graduateYear: graduateYearOf(eduStage, row.startYear),
    stuCount,
    classStatus: row.classStatus,
  };
}

/** The school year (starting 1 September) of a moment, in the customer's time zone. */
export function schoolYearIn(timeZone: string, at: Date): number {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: 'numeric' }).formatToParts(at);
  const year = Number(parts.find((p) => p.type === 'year')!.value);
  const month = Number(parts.find((p) => p.type === 'month')!.value);
  return month >= 9 ? year : year - 1;
}

const stuCount = sql<number>`(select count(*) from ${students} where ${students.classId} = ${classes.id})`.mapWith(
  Number,
);

const SORTABLE = {
  className: classes.className,
  grade: classes.grade,
  startYear: classes.startYear,
  stuCount,
  createdAt: classes.createdAt,
} as const;

function classWhere(scope: Scope, query: Pick<TClassListQuery, 'status' | 'schoolId' | 'keyword'>) {
  const statuses =
    query.status === 'current' ? (['current'] as const) : (['history', 'graduated', 'dismissed'] as const);
  return and(
    scopeWhere(scope, classes),
    inArray(classes.classStatus, [...statuses]),
    query.schoolId ? eq(classes.schoolId, query.schoolId) : undefined,
    query.keyword ? ilike(classes.className, likeText(query.keyword)) : undefined,
  );
}

/** What makes a class list's statement: the caller's scope, the filters given and the sort, never their values. */
interface ClassListShape {
  scope: ScopeShape;
  current: boolean;
  school: boolean;
  keyword: boolean;
  teacher: boolean;
  sort: string;
}

function shapeWhere(shape: ClassListShape) {
  const statuses = shape.current ? (['current'] as const) : (['history', 'graduated', 'dismissed'] as const);
  return and(
    scopePlaceholders(shape.scope, classes),
    inArray(classes.classStatus, [...statuses]),
    shape.school ? eq(classes.schoolId, sql.placeholder('schoolId')) : undefined,
    shape.keyword ? ilike(classes.className, sql.placeholder('keyword')) : undefined,
    shape.teacher ? eq(classes.teacherId, sql.placeholder('teacherId')) : undefined,
  );
}

/** A page of classes with their student counts and the total, built once per shape (`platform/db/prepared.ts`). */
const classPage = preparedStatements((db, name, key) => {
  const shape = JSON.parse(key) as ClassListShape;
  const [field, direction] = shape.sort.split(',') as [keyof typeof SORTABLE | '', 'asc' | 'desc'];
  const order = field
    ? [direction === 'desc' ? desc(SORTABLE[field]) : asc(SORTABLE[field]), asc(classes.id)]
    : [asc(classes.eduStage), asc(classes.grade), asc(classes.className), asc(classes.id)];
  // The total comes with the page, counted before the page is cut; a page past the end has no row to carry it.
  return db
    .select({ row: classes, stuCount, total: sql<number>`count(*) over ()`.mapWith(Number) })
    .from(classes)
    .where(shapeWhere(shape))
    .orderBy(...order)
    .limit(sql.placeholder('limit'))
    .offset(sql.placeholder('offset'))
    .prepare(name);
});

const classCount = preparedStatements((db, name, key) =>
  db
    .select({ n: count() })
    .from(classes)
    .where(shapeWhere(JSON.parse(key) as ClassListShape))
    .prepare(name),
);

/**
 * One page of current or history classes in the caller's scope, searched by name and sorted; with `teacherId`, only
 * the classes that teacher heads.
 */
export async function listClasses(
  ctx: AppContext,
  auth: AuthContext,
  query: Pick<TClassListQuery, 'status' | 'page' | 'size'> & Partial<TClassListQuery>,
  teacherId?: string,
) {
  const scope = await callerScope(ctx.db, auth);
  const shape: ClassListShape = {
    scope: scopeShape(scope),
    current: query.status === 'current',
    school: Boolean(query.schoolId),
    keyword: Boolean(query.keyword),
    teacher: Boolean(teacherId),
    sort: query.sort ?? '',
  };
  const key = JSON.stringify(shape);
  const values: Record<string, unknown> = {
    ...scopeValues(scope),
    schoolId: query.schoolId ?? null,
    keyword: query.keyword ? likeText(query.keyword) : null,
    teacherId: teacherId ?? null,
    limit: query.size,
    offset: (query.page - 1) * query.size,
  };
  const rows = await classPage(ctx.db, key).execute(values);
  const total =
    rows.length > 0 || query.page === 1
      ? (rows[0]?.total ?? 0)
      : ((await classCount(ctx.db, key).execute(values))[0]?.n ?? 0);
  return {
    list: rows.map((r) => present(r.row, r.stuCount)),
    total,
    page: query.page,
    size: query.size,
  };
}

/** Every current class of the scope, for the class pickers of the student forms and filters. */
export async function listClassOptions(ctx: AppContext, auth: AuthContext, schoolId: string | undefined) {
  const scope = await callerScope(ctx.db, auth);
  const rows = await ctx.db
    .select({
      id: classes.id,
      schoolId: classes.schoolId,
      eduStage: classes.eduStage,
      grade: classes.grade,
      className: classes.className,
    })
    .from(classes)
    .where(classWhere(scope, { status: 'current', schoolId }))
    .orderBy(asc(classes.eduStage), asc(classes.grade), asc(classes.className), asc(classes.id));
  return rows.map((r) => ({ ...r, eduStage: isStage(r.eduStage) ? r.eduStage : ('primary' as const) }));
}

/** A class of a school in the scope; `teacherId` heads it (a teacher creating a class of their own). */
export async function createClass(
  ctx: AppContext,
  request: FastifyRequest,
  auth: AuthContext,
  input: { schoolId: string; eduStage: Stage; grade: number; className: string },
  teacherId: string | null = null,
) {
  if (input.grade > STAGE_YEARS[input.eduStage]) throw new AppError('BAD_REQUEST', { reason: 'grade' });
  const scope = await callerScope(ctx.db, auth);
  return ctx.db.transaction(async (tx) => {
    const [school] = await tx
      .select({ id: schools.id, customerId: schools.customerId, timeZone: customers.timeZone })
      .from(schools)
      .innerJoin(customers, eq(customers.id, schools.customerId))
      .where(
        and(
          eq(schools.id, input.schoolId),
          scopeWhere(scope, { customerId: schools.customerId, schoolId: schools.id }),
        ),
      );
    if (!school) throw new AppError('NOT_FOUND');
    const startYear = schoolYearIn(school.timeZone, ctx.now()) - (input.grade - 1);
    const [row] = await tx
      .insert(classes)
      .values({ ...input, customerId: school.customerId, startYear, teacherId })
      .returning();
    await writeAudit(tx, request, {
      module: 'class',
      operation: 'create',
      params: input,
      customerId: school.customerId,
    });
    return present(row!, 0);
  });
}

/** Dismissing a class is irreversible: a dismissed class can never be current again. */
export async function dismissClass(ctx: AppContext, request: FastifyRequest, auth: AuthContext, id: string) {
  return endClass(ctx, request, auth, id, 'dismissed');
}

/**
 * Deleting a class (one without students: `1009` with `data.students` otherwise) takes it out of every list and
 * picker for good; the row stays, as `deleted`, for the operation logs and the courses given to it.
 */
export async function deleteClass(ctx: AppContext, request: FastifyRequest, auth: AuthContext, id: string) {
  return endClass(ctx, request, auth, id, 'deleted');
}

async function endClass(
  ctx: AppContext,
  request: FastifyRequest,
  auth: AuthContext,
  id: string,
  status: 'dismissed' | 'deleted',
) {
  const scope = await callerScope(ctx.db, auth);
  return ctx.db.transaction(async (tx) => {
    const inScope = and(eq(classes.id, id), scopeWhere(scope, classes), ne(classes.classStatus, 'deleted'));
    // Found in the scope before anything else is said of it: another school's class is only ever "not found".
    const [found] = await tx.select({ id: classes.id }).from(classes).where(inScope).for('update');
    if (!found) throw new AppError('NOT_FOUND');
    const [{ n } = { n: 0 }] = await tx.select({ n: count() }).from(students).where(eq(students.classId, id));
    if (status === 'deleted' && n > 0) throw new AppError('OPERATION_FAILED', { students: n });
    const [row] = await tx.update(classes).set({ classStatus: status }).where(inScope).returning();
    if (!row) throw new AppError('NOT_FOUND');
    await writeAudit(tx, request, {
      module: 'class',
      operation: status === 'dismissed' ? 'dismiss' : 'delete',
      params: { id },
      customerId: row.customerId,
    });
    return present(row, n);
  });
}

/**
 * Moves current classes up one grade; a class past its stage's last grade graduates. Classes that are not current
 * (history, graduated, dismissed) are left as they are.
 */
export async function upgradeClasses(db: Db, classIds: string[] | 'all', scope: Scope) {
  const where = and(
    scopeWhere(scope, classes),
    eq(classes.classStatus, 'current'),
    classIds === 'all' ? undefined : inArray(classes.id, classIds),
  );
  const graduating = sql`${classes.grade} >= case ${classes.eduStage} ${sql.join(
    Object.entries(STAGE_YEARS).map(([stage, years]) => sql`when ${stage} then ${years}`),
    sql` `,
  )} else 6 end`;
  const graduated = await db
    .update(classes)
    .set({ classStatus: 'graduated' })
    .where(and(where, graduating))
    .returning({ id: classes.id });
  const upgraded = await db
    .update(classes)
    .set({ grade: sql`${classes.grade} + 1` })
    .where(and(where, sql`not (${graduating})`))
    .returning({ id: classes.id });
  return { upgraded: upgraded.length, graduated: graduated.length };
}

export async function upgradeClassesManually(
  ctx: AppContext,
  request: FastifyRequest,
  auth: AuthContext,
  classIds: string[],
) {
  const scope = await callerScope(ctx.db, auth);
  return ctx.db.transaction(async (tx) => {
    const result = await upgradeClasses(tx as unknown as Db, classIds, scope);
    await writeAudit(tx, request, { module: 'class', operation: 'upgrade', params: { classIds, ...result } });
    return result;
  });
}

/** Sets an automatic upgrade for the caller's customer (or one of its schools, or a school administrator's own). */
export async function scheduleUpgrade(
  ctx: AppContext,
  request: FastifyRequest,
  auth: AuthContext,
  input: { runAt: string; repeat: 'once' | 'yearly'; schoolId?: string | undefined },
) {
  // A time already past would run the upgrade at once: the administrator asked for one later.
  if (new Date(input.runAt) <= ctx.now()) throw new AppError('BAD_REQUEST', { field: 'runAt', reason: 'past' });
  const scope = await callerScope(ctx.db, auth);
  if (scope.kind === 'all') throw new AppError('BAD_REQUEST');
  const schoolId = scope.kind === 'school' ? scope.schoolId : input.schoolId;
  let customerId = scope.customerId;
  if (schoolId) {
    const [school] = await ctx.db
      .select({ id: schools.id, customerId: schools.customerId })
      .from(schools)
      .where(
        and(eq(schools.id, schoolId), scopeWhere(scope, { customerId: schools.customerId, schoolId: schools.id })),
      );
    if (!school) throw new AppError('NOT_FOUND');
    customerId = school.customerId;
  }
  return ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(upgradeSchedules)
      .values({
        customerId,
        schoolId: schoolId ?? null,
        runAt: new Date(input.runAt),
        repeat: input.repeat,
      })
      .returning();
    await writeAudit(tx, request, { module: 'class', operation: 'schedule-upgrade', params: input });
    return { id: row!.id, runAt: row!.runAt.toISOString(), repeat: row!.repeat };
  });
}
