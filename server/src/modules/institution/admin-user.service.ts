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
import {
  customers,
  customRoles,
  schools,
  teacherCertifications,
  teachers,
  users,
} from '../../platform/db/schema/index.js';
import { AppError } from '../../platform/errors.js';
import { callerScope, scopeWhere, targetCustomer, type Scope } from '../../platform/tenancy.js';
import { revokeSessionsOf } from '../auth/session.service.js';
import { assertAccountFree } from './account-clash.js';
import { setAlsoTeacher } from './also-teacher.service.js';
import { assertWithinCaller, assignableRole, customRolesById, forgetHeldRoles } from './custom-role.service.js';
import { adminPasswordHash } from './people.service.js';
import { likeText } from '../../platform/db/like.js';

type UserRow = typeof users.$inferSelect;

const present = (row: UserRow, customRoleName: string | null): TAdminUser => ({
  id: row.id,
  customerId: row.customerId,
  schoolId: row.schoolId,
  username: row.username,
  realName: row.realName,
  phone: row.phone,
  roles: row.roles,
  enabled: row.enabled,
  alsoTeacher: row.roles.includes(ROLES.teacher),
  customRoleId: row.customRoleId,
  customRoleName,
  createdAt: row.createdAt.toISOString(),
});

/** The built-in administrator role of an account, which its custom role (if any) narrows. */
const adminRoleOf = (roles: readonly string[]) => roles.find((r) => (ADMIN_ROLES as readonly string[]).includes(r))!;

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
      .select({ user: users, customRoleName: customRoles.name })
      .from(users)
      .leftJoin(customRoles, eq(customRoles.id, users.customRoleId))
      .where(where)
      .orderBy(direction === 'desc' ? desc(column) : asc(column), asc(users.id))
      .limit(query.size)
      .offset((query.page - 1) * query.size),
    ctx.db.select({ n: count() }).from(users).where(where),
  ]);
  return {
    list: rows.map((r) => present(r.user, r.customRoleName)),
    total: total?.n ?? 0,
    page: query.page,
    size: query.size,
  };
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
  const customRole = await assignableRole(ctx.db, input.customRoleId, input.role);
  await assertWithinCaller(ctx, auth, [{ roles: [input.role], held: customRole ?? null }]);
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
        customRoleId: customRole?.id ?? null,
        mustChangePassword: true,
      })
      .onConflictDoNothing()
      .returning();
    if (!row) throw new AppError('USERNAME_TAKEN');
    const created = input.alsoTeacher ? await setAlsoTeacher(tx as unknown as Db, row, true, auth.userId) : row;
    await writeAudit(tx, request, { module: 'user', operation: 'create', params: input, customerId: place.customerId });
    return present(created, customRole?.name ?? null);
  });
}

/** The administrator accounts named by `ids` within the scope (all or `1004`), with the custom roles they hold. */
async function targetsInScope(db: Db, scope: Scope, ids: string[]) {
  const rows = await db
    .select({ id: users.id, customerId: users.customerId, roles: users.roles, customRoleId: users.customRoleId })
    .from(users)
    .where(and(inArray(users.id, ids), adminWhere(scope)));
  if (rows.length !== new Set(ids).size) throw new AppError('NOT_FOUND');
  const held = await customRolesById(
    db,
    rows.flatMap((r) => (r.customRoleId ? [r.customRoleId] : [])),
  );
  return rows.map((r) => ({ ...r, held: (r.customRoleId && held.get(r.customRoleId)) || null }));
}

export async function updateAdminUser(
  ctx: AppContext,
  request: FastifyRequest,
  auth: AuthContext,
  id: string,
  change: TUpdateAdminUserRequest | { enabled: boolean } | { password: string },
) {
  const scope = await callerScope(ctx.db, auth);
  const customRoleId = 'customRoleId' in change ? change.customRoleId : undefined;
  // Nobody switches themselves off or changes their own custom role (which could only widen it).
  if (('enabled' in change || customRoleId !== undefined) && id === auth.userId) {
    throw new AppError('NO_EDIT_PERMISSION');
  }
  const alsoTeacher = 'alsoTeacher' in change ? change.alsoTeacher : undefined;
  const values: Partial<UserRow> =
    'password' in change
      ? { passwordHash: await adminPasswordHash(change.password), mustChangePassword: true }
      : 'enabled' in change
        ? { enabled: change.enabled }
        : { realName: change.realName, phone: change.phone };
  const { user, ended } = await ctx.db.transaction(async (tx) => {
    const db = tx as unknown as Db;
    const [target] = await targetsInScope(db, scope, [id]);
    await assertWithinCaller(ctx, auth, [target!]);
    const assigned = await assignableRole(db, customRoleId, adminRoleOf(target!.roles));
    if (assigned !== undefined) {
      await assertWithinCaller(ctx, auth, [{ roles: target!.roles, held: assigned }]);
      values.customRoleId = assigned?.id ?? null;
    }
    if ('phone' in values) await assertAccountFree(db, target!.customerId, { phone: values.phone }, id);
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
    const roleName = row!.customRoleId ? (await customRolesById(db, [row!.customRoleId])).get(row!.customRoleId) : null;
    return { user: present(row!, roleName?.name ?? null), ended: ending };
  });
  if (customRoleId !== undefined) forgetHeldRoles(ctx);
  if (ended) ctx.sessions.ended(ended);
  return user;
}

/** Deletes administrator accounts, all or none; the records they reviewed or created keep no dangling link. */
export async function deleteAdminUsers(ctx: AppContext, request: FastifyRequest, auth: AuthContext, ids: string[]) {
  if (ids.includes(auth.userId)) throw new AppError('NO_EDIT_PERMISSION');
  const scope = await callerScope(ctx.db, auth);
  await ctx.db.transaction(async (tx) => {
    const targets = await targetsInScope(tx as unknown as Db, scope, ids);
    await assertWithinCaller(ctx, auth, targets);
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
