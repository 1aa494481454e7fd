import {
  ADMIN_ROLES,
  ALL_ROLES,
  hasEffectivePermission,
  PERMISSIONS,
  permissionsOfRole,
  ROLES,
  type Permission,
  type HeldCustomRole,
  type TCreateCustomRoleRequest,
  type TCustomRole,
  type TCustomRoleListQuery,
  type TMyRole,
  type TUpdateCustomRoleRequest,
} from '@aiedu/contracts';
import { and, asc, count, eq, ilike, inArray, ne, or, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { LRUCache } from 'lru-cache';
import { writeAudit } from '../../platform/audit.js';
import type { AuthContext } from '../../platform/auth/tokens.js';
import type { AppContext } from '../../platform/context.js';
import type { Db } from '../../platform/db/client.js';
import { likeText } from '../../platform/db/like.js';
import { customRoles, users } from '../../platform/db/schema/index.js';
import { AppError } from '../../platform/errors.js';
import { callerScope, scopeWhere, type Scope } from '../../platform/tenancy.js';
import { isUuid } from '../../platform/ids.js';

type RoleRow = typeof customRoles.$inferSelect;
export type HeldRole = HeldCustomRole & { id: string; name: string };

export const isAdminRole = (role: string) => (ADMIN_ROLES as readonly string[]).includes(role);

/**
 * How long a process answers from memory which custom role an account holds and what it allows. A change made in
 * this process is seen at once; one made in another process at most this long after (as switched-off modules).
 */
export const HELD_ROLES_KEPT_MS = 5_000;
const keptHeld = new WeakMap<Db, LRUCache<string, { held: HeldRole | null }>>();

const heldOf = (row: RoleRow): HeldRole => ({
  id: row.id,
  name: row.name,
  baseRole: row.baseRole,
  permissions: row.permissions,
  enabled: row.enabled,
});

/** The custom role the account holds, if any, kept for a few seconds per process. */
export async function heldCustomRole(ctx: AppContext, userId: string): Promise<HeldRole | null> {
  let kept = keptHeld.get(ctx.db);
  if (!kept) keptHeld.set(ctx.db, (kept = new LRUCache({ max: 10_000, ttl: HELD_ROLES_KEPT_MS })));
  const known = kept.get(userId);
  if (known) return known.held;
  const [row] = await ctx.db
    .select({ role: customRoles })
    .from(users)
    .innerJoin(customRoles, eq(customRoles.id, users.customRoleId))
    .where(eq(users.id, userId));
  const held = row ? heldOf(row.role) : null;
  kept.set(userId, { held });
  return held;
}

/** Forgets what this process kept of every account's custom role, after a role or an assignment changed. */
export function forgetHeldRoles(ctx: AppContext) {
  keptHeld.get(ctx.db)?.clear();
}

/** The caller's custom role, for the web's menus. */
export async function myRole(ctx: AppContext, auth: AuthContext): Promise<TMyRole> {
  const held = auth.roles.some(isAdminRole) ? await heldCustomRole(ctx, auth.userId) : null;
  return { customRole: held && { ...held, permissions: [...held.permissions] } };
}

/** Custom roles by id, for the accounts that hold them. */
export async function customRolesById(db: Db, ids: readonly string[]): Promise<Map<string, HeldRole>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select()
    .from(customRoles)
    .where(inArray(customRoles.id, [...ids]));
  return new Map(rows.map((row) => [row.id, heldOf(row)]));
}

/** How many accounts of the scope hold each role (a correlated count for a query of `custom_roles`). */
function accountsHolding(db: Db, scope: Scope) {
  const holders = db
    .select({ n: count() })
    .from(users)
    .where(
      and(
        eq(users.customRoleId, customRoles.id),
        scopeWhere(scope, { customerId: users.customerId, schoolId: users.schoolId }),
      ),
    );
  return sql<number>`(${holders})`;
}

const present = (row: RoleRow, accounts: number): TCustomRole => ({
  id: row.id,
  name: row.name,
  description: row.description,
  baseRole: row.baseRole as TCustomRole['baseRole'],
  permissions: row.permissions,
  enabled: row.enabled,
  accounts,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

export async function listCustomRoles(ctx: AppContext, auth: AuthContext, query: TCustomRoleListQuery) {
  const scope = await callerScope(ctx.db, auth);
  const where = and(
    query.keyword
      ? or(ilike(customRoles.name, likeText(query.keyword)), ilike(customRoles.description, likeText(query.keyword)))
      : undefined,
    query.baseRole ? eq(customRoles.baseRole, query.baseRole) : undefined,
    query.enabled ? eq(customRoles.enabled, query.enabled === 'true') : undefined,
  );
  const [rows, [total]] = await Promise.all([
    ctx.db
      .select({ role: customRoles, accounts: accountsHolding(ctx.db, scope) })
      .from(customRoles)
      .where(where)
      .orderBy(asc(sql`lower(${customRoles.name})`), asc(customRoles.id))
      .limit(query.size)
      .offset((query.page - 1) * query.size),
    ctx.db.select({ n: count() }).from(customRoles).where(where),
  ]);
  return {
    list: rows.map((r) => present(r.role, Number(r.accounts))),
    total: total?.n ?? 0,
    page: query.page,
    size: query.size,
  };
}

/** A role's permissions must be its base role's: a custom role narrows, it never widens. */
function checkPermissions(baseRole: string, permissions: readonly string[]) {
  const allowed: readonly string[] = permissionsOfRole(baseRole);
  const foreign = permissions.filter((p) => !allowed.includes(p));
  if (foreign.length > 0) throw new AppError('BAD_REQUEST', { field: 'permissions', notOfBaseRole: foreign });
}

async function assertNameFree(db: Db, name: string, except?: string) {
  const [taken] = await db
    .select({ id: customRoles.id })
    .from(customRoles)
    .where(
      and(eq(sql`lower(${customRoles.name})`, name.toLowerCase()), except ? ne(customRoles.id, except) : undefined),
    );
  if (taken) throw new AppError('ROLE_NAME_TAKEN', { name });
}

/** The custom roles named by `ids`, refusing built-in roles (fixed) and ids that name no role. */
async function loadRoles(db: Db, ids: readonly string[]): Promise<RoleRow[]> {
  const builtIn = ids.filter((id) => (ALL_ROLES as readonly string[]).includes(id));
  if (builtIn.length > 0) throw new AppError('ROLE_BUILT_IN', { roles: builtIn });
  if (!ids.every(isUuid)) throw new AppError('NOT_FOUND');
  const rows = await db
    .select()
    .from(customRoles)
    .where(inArray(customRoles.id, [...ids]))
    .for('update');
  if (rows.length !== new Set(ids).size) throw new AppError('NOT_FOUND');
  return rows;
}

export async function createCustomRole(ctx: AppContext, request: FastifyRequest, input: TCreateCustomRoleRequest) {
  const permissions = [...new Set(input.permissions)];
  checkPermissions(input.baseRole, permissions);
  return ctx.db.transaction(async (tx) => {
    const db = tx as unknown as Db;
    await assertNameFree(db, input.name);
    const [row] = await tx
      .insert(customRoles)
      .values({ name: input.name, description: input.description, baseRole: input.baseRole, permissions })
      .returning();
    await writeAudit(db, request, { module: 'role', operation: 'create', params: input, customerId: null });
    return present(row!, 0);
  });
}

/** Changes a custom role's name, description, permissions or switch; its holders have the change within seconds. */
export async function updateCustomRole(
  ctx: AppContext,
  request: FastifyRequest,
  auth: AuthContext,
  id: string,
  change: TUpdateCustomRoleRequest | { enabled: boolean },
) {
  const scope = await callerScope(ctx.db, auth);
  const result = await ctx.db.transaction(async (tx) => {
    const db = tx as unknown as Db;
    const [role] = await loadRoles(db, [id]);
    const values =
      'enabled' in change
        ? { enabled: change.enabled }
        : {
            name: change.name,
            description: change.description,
            permissions: change.permissions ? [...new Set(change.permissions)] : undefined,
          };
    if ('permissions' in values && values.permissions) checkPermissions(role!.baseRole, values.permissions);
    if ('name' in values && values.name !== undefined) await assertNameFree(db, values.name, id);
    await tx
      .update(customRoles)
      .set({ ...values, updatedAt: new Date() })
      .where(eq(customRoles.id, id));
    await writeAudit(db, request, {
      module: 'role',
      operation: 'enabled' in change ? 'switch' : 'update',
      params: { id, ...change },
      customerId: null,
    });
    const [row] = await tx
      .select({ role: customRoles, accounts: accountsHolding(db, scope) })
      .from(customRoles)
      .where(eq(customRoles.id, id));
    return present(row!.role, Number(row!.accounts));
  });
  forgetHeldRoles(ctx);
  return result;
}

/** Deletes custom roles, all or none; a role an account still holds stays (`ROLE_IN_USE`). */
export async function deleteCustomRoles(ctx: AppContext, request: FastifyRequest, ids: string[]) {
  await ctx.db.transaction(async (tx) => {
    const db = tx as unknown as Db;
    await loadRoles(db, ids);
    const [held] = await tx.select({ n: count() }).from(users).where(inArray(users.customRoleId, ids));
    if (held && held.n > 0) throw new AppError('ROLE_IN_USE', { accounts: held.n });
    await tx.delete(customRoles).where(inArray(customRoles.id, ids));
    await writeAudit(db, request, { module: 'role', operation: 'delete', params: { ids }, customerId: null });
  });
  forgetHeldRoles(ctx);
}

/**
 * The custom role an account of base role `baseRole` is to hold: `undefined` leaves it as it is, `null` takes it
 * away (the built-in role's full permissions). Only a switched-on role of that base role can be given.
 */
export async function assignableRole(
  db: Db,
  id: string | null | undefined,
  baseRole: string,
): Promise<HeldRole | null | undefined> {
  if (id === undefined || id === null) return id;
  const [row] = await db.select().from(customRoles).where(eq(customRoles.id, id));
  if (!row) throw new AppError('NOT_FOUND');
  if (row.baseRole !== baseRole) throw new AppError('BAD_REQUEST', { field: 'customRoleId', reason: 'baseRole' });
  if (!row.enabled) throw new AppError('BAD_REQUEST', { field: 'customRoleId', reason: 'disabled' });
  return heldOf(row);
}

/** What an account may do through its administrator roles (its `ROLE_TEACHER` is the teachers' business). */
function adminPermissions(roles: readonly string[], held: HeldCustomRole | null): Permission[] {
  const adminRoles = roles.filter((role) => role !== ROLES.teacher);
  return (Object.keys(PERMISSIONS) as Permission[]).filter((p) => hasEffectivePermission(adminRoles, p, held));
}

/**
 * An administrator who holds a custom role acts only on administrator accounts that can do no more than it can:
 * otherwise it could make, or set the password of, an account with the permissions its own role leaves out, and
 * sign in with it. Without a custom role the built-in roles' places (where each may create whom) already hold this.
 */
export async function assertWithinCaller(
  ctx: AppContext,
  auth: AuthContext,
  targets: readonly { roles: readonly string[]; held: HeldCustomRole | null }[],
) {
  const mine = await heldCustomRole(ctx, auth.userId);
  if (!mine) return;
  const allowed = new Set(adminPermissions(auth.roles, mine));
  if (targets.some((t) => adminPermissions(t.roles, t.held).some((p) => !allowed.has(p)))) {
    throw new AppError('NO_EDIT_PERMISSION');
  }
}
