import { ROLES } from '@aiedu/contracts';
import { v7 as uuidv7 } from 'uuid';
import type { Db } from '../platform/db/client.js';
import { customers, schools, users } from '../platform/db/schema/index.js';
import { hashPassword } from '../platform/passwords.js';
import { forgetCustomerTrees } from '../platform/tenancy.js';

/** A small world for one test: its own customer, school and users, named so they never clash. */
export async function buildCustomer(db: Db, overrides: Partial<typeof customers.$inferInsert> = {}) {
  const code = overrides.code ?? `c${uuidv7().replaceAll('-', '').slice(-12)}`;
  const [row] = await db
    .insert(customers)
    .values({ name: `Customer ${code}`, ...overrides, code })
    .returning();
  // Written behind the app's back: the customer trees the app keeps must hear of a new sub-customer, as from the app.
  if (overrides.parentId) await forgetCustomerTrees(db);
  return row!;
}

export async function buildSchool(db: Db, customerId: string, overrides: Partial<typeof schools.$inferInsert> = {}) {
  const [row] = await db
    .insert(schools)
    .values({ customerId, name: 'Test School', ...overrides })
    .returning();
  return row!;
}

export async function buildUser(db: Db, options: Partial<typeof users.$inferInsert> & { password?: string } = {}) {
  const { password = 'Pass@2026word', ...overrides } = options;
  const [row] = await db
    .insert(users)
    .values({
      username: `u${uuidv7().replaceAll('-', '').slice(-10)}`,
      roles: [ROLES.student],
      ...overrides,
      passwordHash: await hashPassword(password),
    })
    .returning();
  return { ...row!, password };
}

/** A clock the test moves forward instead of waiting. */
export function testClock(start = new Date('2026-11-22T09:00:00+08:00')) {
  let current = start.getTime();
  return {
    now: () => new Date(current),
    advance: (ms: number) => void (current += ms),
  };
}

export const b64 = (plain: string) => Buffer.from(plain, 'utf8').toString('base64');

/** Signs in through the real login call and answers the access token. */
export async function signIn(
  app: { inject: (opts: object) => Promise<{ json: () => { data: { token: string } } }> },
  custcode: string,
  username: string,
  password: string,
): Promise<string> {
  const res = await app.inject({
    method: 'POST',
    url: '/gw/api/v1/auth/login',
    payload: { custcode, usernameOrEmailOrPhone: username, password: b64(password) },
  });
  return res.json().data.token;
}

/** Creates a project through the real call as the signed-in user; answers its id. */
export async function createProjectAs(
  app: { inject: (opts: object) => Promise<{ json: () => { data: { id: string } } }> },
  token: string,
  name: string,
): Promise<string> {
  const res = await app.inject({
    method: 'POST',
    url: '/gw/api/v1/projects',
    payload: { name },
    headers: { 'x-authorization': token },
  });
  return res.json().data.id;
}
