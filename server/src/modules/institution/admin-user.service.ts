import {
  ADMIN_ROLES,
  ROLES,
  SCHOOL_ROLES,
  type TAdminUser,
  type TCreateAdminUserRequest,
  type TUpdateAdminUserRequest,
} from '@aiedu/contracts';
import { and, arrayOverlaps, asc, count, desc, eq, ilike, inArray, or, type SQL } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { writeAudit } from '../../platform/audit.js';
import type { AuthContext } from '../../platform/auth/tokens.js';
import type { AppContext } from '../../platform/context.js';
import type { Db } from '../../platform/db/client.js';
import { customers, schools, teacherCertifications, teachers, users } from '../../platform/db/schema/index.js';
import { AppError } from '../../platform/errors.js';
import { callerScope, scopeWhere, targetCustomer, type Scope } from '../../platform/tenancy.js';
import { revokeSessionsOf } from '../auth/session.service.js';
import { assertAccountFree } from './account-clash.js';
import { setAlsoTeacher } from './also-teacher.service.js';
import { adminPasswordHash } from './people.service.js';
import { likeText } from '../../platform/db/like.js';

type UserRow = typeof users.$inferSelect;

const present = (row: UserRow): TAdminUser => ({
  id: row.id,
  customerId: row.customerId,
  schoolId: row.schoolId,
  username: row.username,
  realName: row.realName,
  phone: row.phone,
  roles: row.roles,
  enabled: row.enabled,
  alsoTeacher: row.roles.includes(ROLES.teacher),
  createdAt: row.createdAt.toISOString(),
});

/** Administrator accounts inside the caller's scope: the only rows `/api/v1/user` reads or changes. */
function adminWhere(scope: Scope): SQL | undefined {
  return and(
    arrayOverlaps(users.roles, [...ADMIN_ROLES]),
    scopeWhere(scope, { customerId: users.customerId, schoolId: users.schoolId }),
  );
}

const SORTABLE = { username: users.username, realName: users.realName, createdAt: users.createdAt } as const;

export async function listAdminUsers(
  ctx: AppContext,
  auth: AuthContext,
  query: {
    page: number;
    size: number;
    keyword?: string | undefined;
    role?: string | undefined;
    sort?: string | undefined;
  },
) {
  const where = and(
    adminWhere(await callerScope(ctx.db, auth)),
    query.keyword
      ? or(ilike(users.username, likeText(query.keyword)), ilike(users.realName, likeText(query.keyword)))
      : undefined,
    query.role ? arrayOverlaps(users.roles, [query.role]) : undefined,
  );
  const [field, direction] = (query.sort ?? 'username,asc').split(',') as [keyof typeof SORTABLE, 'asc' | 'desc'];
  const column = SORTABLE[field] ?? users.username;
  const [rows, [total]] = await Promise.all([
    ctx.db
      .select()
      .from(users)
      .where(where)
      .orderBy(direction === 'desc' ? desc(column) : asc(column), asc(users.id))
      .limit(query.size)
      .offset((query.page - 1) * query.size),
    ctx.db.select({ n: count() }).from(users).where(where),
  ]);
  return { list: rows.map(present), total: total?.n ?? 0, page: query.page, size: query.size };
}

/**
 * Where a new administrator goes, checked against the caller's scope: a customer administrator belongs to a
 * top-level customer, a sub-customer administrator to a sub-customer, school roles to a school of the customer.
 */
async function placement(db: Db, scope: Scope, input: TCreateAdminUserRequest) {
  if (SCHOOL_ROLES.includes(input.role)) {
    if (!input.schoolId) throw new AppError('BAD_REQUEST', { reason: 'schoolId' });
    const [school] = await db
      .select({ id: schools.id, customerId: schools.customerId })
      .from(schools)
      .where(and(eq(schools.id, input.schoolId), scopeWhere(scope, schools)));
    if (!school) throw new AppError('NOT_FOUND');
    return { customerId: school.customerId, schoolId: school.id };
  }
  const customerId = targetCustomer(scope, input.customerId);
  const [customer] = await db.select().from(customers).where(eq(customers.id, customerId));
  if (!customer) throw new AppError('NOT_FOUND');
  const wanted = customer.parentId ? ROLES.subCustomerAdmin : ROLES.customerAdmin;
  if (input.role !== wanted) throw new AppError('NO_EDIT_PERMISSION');
  return { customerId, schoolId: null };
}

export async function createAdminUser(
  ctx: AppContext,
  request: FastifyRequest,
  auth: AuthContext,
  input: TCreateAdminUserRequest,
) {
  const scope = await callerScope(ctx.db, auth);
  const place = await placement(ctx.db, scope, input);
  const passwordHash = await adminPasswordHash(input.password);
  return ctx.db.transaction(async (tx) => {
    await assertAccountFree(tx as unknown as Db, place.customerId, input);
    const [row] = await tx
      .insert(users)
      .values({
        ...place,
        username: input.username,
        realName: input.realName,
        phone: input.phone ?? null,
        passwordHash,
        roles: [input.role],
        mustChangePassword: true,
      })
      .onConflictDoNothing()
      .returning();
    if (!row) throw new AppError('USERNAME_TAKEN');
    const created = input.alsoTeacher ? await setAlsoTeacher(tx as unknown as Db, row, true, auth.userId) : row;
    await writeAudit(tx, request, { module: 'user', operation: 'create', params: input, customerId: place.customerId });
    return present(created);
  });
}

async function targetsInScope(db: Db, scope: Scope, ids: string[]) {
  const rows = await db
    .select({ id: users.id, customerId: users.customerId })
    .from(users)
    .where(and(inArray(users.id, ids), adminWhere(scope)));
  if (rows.length !== new Set(ids).size) throw new AppError('NOT_FOUND');
  return rows;
}

export async function updateAdminUser(
  ctx: AppContext,
  request: FastifyRequest,
  auth: AuthContext,
  id: string,
  change: TUpdateAdminUserRequest | { enabled: boolean } | { password: string },
) {
  const scope = await callerScope(ctx.db, auth);
  if ('enabled' in change && id === auth.userId) throw new AppError('NO_EDIT_PERMISSION');
  const alsoTeacher = 'alsoTeacher' in change ? change.alsoTeacher : undefined;
  const values =
    'password' in change
      ? { passwordHash: await adminPasswordHash(change.password), mustChangePassword: true }
      : 'enabled' in change
        ? { enabled: change.enabled }
        : { realName: change.realName, phone: change.phone };
  const { user, ended } = await ctx.db.transaction(async (tx) => {
    const [target] = await targetsInScope(tx as unknown as Db, scope, [id]);
    if ('phone' in values) await assertAccountFree(tx as unknown as Db, target!.customerId, values, id);
    let [row] = Object.values(values).some((v) => v !== undefined)
      ? await tx.update(users).set(values).where(eq(users.id, id)).returning()
      : await tx.select().from(users).where(eq(users.id, id));
    if (alsoTeacher !== undefined && alsoTeacher !== row!.roles.includes(ROLES.teacher)) {
      row = await setAlsoTeacher(tx as unknown as Db, row!, alsoTeacher, auth.userId);
    }
    const ending =
      'password' in change || ('enabled' in change && !change.enabled)
        ? await revokeSessionsOf(tx as unknown as Db, { userId: id }, ctx.now())
        : undefined;
    const operation = 'password' in change ? 'reset-password' : 'enabled' in change ? 'switch' : 'update';
    await writeAudit(tx, request, {
      module: 'user',
      operation,
      params: { id, ...change },
      customerId: target!.customerId,
    });
    return { user: present(row!), ended: ending };
  });
  if (ended) ctx.sessions.ended(ended);
  return user;
}

/** Deletes administrator accounts, all or none; the records they reviewed or created keep no dangling link. */
export async function deleteAdminUsers(ctx: AppContext, request: FastifyRequest, auth: AuthContext, ids: string[]) {
  if (ids.includes(auth.userId)) throw new AppError('NO_EDIT_PERMISSION');
  const scope = await callerScope(ctx.db, auth);
  await ctx.db.transaction(async (tx) => {
    const targets = await targetsInScope(tx as unknown as Db, scope, ids);
    await tx.update(teachers).set({ createdBy: null }).where(inArray(teachers.createdBy, ids));
    await tx
      .update(teacherCertifications)
      .set({ reviewedBy: null })
      .where(inArray(teacherCertifications.reviewedBy, ids));
    await tx.delete(users).where(inArray(users.id, ids));
    await writeAudit(tx, request, {
      module: 'user',
      operation: 'delete',
      params: { ids },
      customerId: targets[0]!.customerId,
    });
  });
  // Their tokens went with them: their sign-ins have ended.
  for (const userId of ids) ctx.sessions.ended({ userId });
}
