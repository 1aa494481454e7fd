import { ROLES } from '@aiedu/contracts';
import { and, eq, inArray, sql, type Column, type SQL } from 'drizzle-orm';
import type { AuthContext } from './auth/tokens.js';
import type { Db } from './db/client.js';
import { users } from './db/schema/index.js';
import type { RedisCluster } from './cluster.js';
import { AppError } from './errors.js';
import { KeptAnswers } from './kept-answers.js';

/**
 * What a caller may see: everything (super administrators), a customer with its sub-customers (customer and
 * sub-customer administrators see their subtree), or one school of a customer (school staff).
 */
export type Scope =
  | { kind: 'all' }
  | { kind: 'customers'; customerId: string; customerIds: string[] }
  | { kind: 'school'; customerId: string; schoolId: string };

const SCHOOL_BOUND: string[] = [ROLES.schoolAdmin, ROLES.organizeAdmin, ROLES.teacher, ROLES.student];

/**
 * The customer trees a process keeps: every administrator's request starts from theirs, and a tree changes only when
 * a sub-customer is created, which drops them here and on every other process (`forgetCustomerTrees`).
 */
const keptTrees = new WeakMap<Db, KeptAnswers<readonly string[]>>();

/** Keeps this app's customer trees (`customerSubtree`), dropped on every process when one of them creates a sub-customer. */
export function keepCustomerTrees(ctx: { db: Db; cluster: RedisCluster | null }) {
  if (!keptTrees.has(ctx.db)) {
    keptTrees.set(ctx.db, new KeptAnswers(ctx.cluster, 'customer-tree-changed', { max: 10_000, ttlMs: 60_000 }));
  }
}

export async function forgetCustomerTrees(db: Db) {
  await keptTrees.get(db)?.forget();
}

/** A customer and every customer below it. */
export async function customerSubtree(db: Db, customerId: string): Promise<string[]> {
  const kept = keptTrees.get(db);
  return [...(await (kept ? kept.get(customerId, () => readSubtree(db, customerId)) : readSubtree(db, customerId)))];
}

async function readSubtree(db: Db, customerId: string): Promise<readonly string[]> {
  const result = await db.execute<{ id: string }>(sql`
    with recursive tree(id) as (
      select id from customers where id = ${customerId}
      union all
      select c.id from customers c join tree t on c.parent_id = t.id
    )
    select id from tree`);
  return (result as unknown as { rows: { id: string }[] }).rows.map((r) => r.id);
}

/** The caller's scope. Every query of tenant-owned rows is built from it through `scopeWhere`. */
export async function callerScope(db: Db, auth: AuthContext): Promise<Scope> {
  if (auth.roles.includes(ROLES.super)) return { kind: 'all' };
  if (!auth.customerId) throw new AppError('NO_PERMISSION_PAGE');
  const institutionAdmin = auth.roles.includes(ROLES.customerAdmin) || auth.roles.includes(ROLES.subCustomerAdmin);
  if (!institutionAdmin && auth.roles.some((r) => SCHOOL_BOUND.includes(r))) {
    const [me] = await db.select({ schoolId: users.schoolId }).from(users).where(eq(users.id, auth.userId));
    if (!me?.schoolId) throw new AppError('NO_PERMISSION_PAGE');
    return { kind: 'school', customerId: auth.customerId, schoolId: me.schoolId };
  }
  return { kind: 'customers', customerId: auth.customerId, customerIds: await customerSubtree(db, auth.customerId) };
}

/** The `where` that keeps a query inside the scope, for a table with customer and (optionally) school columns. */
export function scopeWhere(scope: Scope, columns: { customerId: Column; schoolId?: Column }): SQL | undefined {
  if (scope.kind === 'all') return undefined;
  if (scope.kind === 'customers') return inArray(columns.customerId, scope.customerIds);
  const customer = eq(columns.customerId, scope.customerId);
  return columns.schoolId ? and(customer, eq(columns.schoolId, scope.schoolId)) : customer;
}

/**
 * What of a scope makes a prepared statement's SQL (`platform/db/prepared.ts`): its kind and, for a customer tree,
 * how many customers it holds. It goes into the statement's key; `scopeValues` gives its values at each run.
 */
export interface ScopeShape {
  kind: Scope['kind'];
  customers: number;
}

export function scopeShape(scope: Scope): ScopeShape {
  const customers = scope.kind === 'customers' ? scope.customerIds.length : scope.kind === 'school' ? 1 : 0;
  return { kind: scope.kind, customers };
}

/** The values of `scopePlaceholders`' placeholders for this scope. */
export function scopeValues(scope: Scope): Record<string, string> {
  if (scope.kind === 'all') return {};
  if (scope.kind === 'school') return { scopeCustomer0: scope.customerId, scopeSchool: scope.schoolId };
  return Object.fromEntries(scope.customerIds.map((id, i) => [`scopeCustomer${i}`, id]));
}

/** `scopeWhere` with placeholders instead of values, for a statement built once per shape. */
export function scopePlaceholders(
  shape: ScopeShape,
  columns: { customerId: Column; schoolId?: Column },
): SQL | undefined {
  if (shape.kind === 'all') return undefined;
  if (shape.kind === 'customers') {
    const ids = Array.from({ length: shape.customers }, (_, i) => sql.placeholder(`scopeCustomer${i}`));
    return inArray(columns.customerId, ids);
  }
  const customer = eq(columns.customerId, sql.placeholder('scopeCustomer0'));
  return columns.schoolId ? and(customer, eq(columns.schoolId, sql.placeholder('scopeSchool'))) : customer;
}

/** The customer a new row goes to: the one asked for when the caller's scope holds it, else the caller's own. */
export function targetCustomer(scope: Scope, asked: string | undefined): string {
  if (scope.kind === 'all') {
    if (!asked) throw new AppError('BAD_REQUEST');
    return asked;
  }
  if (asked && scope.kind === 'customers' && scope.customerIds.includes(asked)) return asked;
  return scope.customerId;
}
