import { MODULES, ROLES, hasPermission, type Permission, type TSideModules } from '@aiedu/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCustomer, buildUser, signIn } from '../../test/factories.js';
import { urlOf } from '../../test/route-inputs.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { moduleOfRoute } from './module-guard.js';

const all = [...MODULES];
const without = (module: string) => all.filter((m) => m !== module);

describe('modules switched off for a side, through the API', () => {
  let t: TestApp;
  let customerId: string;
  const tokens: Record<string, string> = {};
  const roles: Record<string, string[]> = { kid: [ROLES.student], teach: [ROLES.teacher] };

  beforeAll(async () => {
    t = await createTestApp();
    const customer = await buildCustomer(t.database.db);
    customerId = customer.id;
    for (const [username, roles] of [
      ['kid', [ROLES.student]],
      ['teach', [ROLES.teacher]],
    ] as const) {
      const user = await buildUser(t.database.db, { customerId, username, roles: [...roles] });
      tokens[username] = await signIn(t.app, customer.code, username, user.password);
    }
    const root = await buildUser(t.database.db, { username: 'root', roles: [ROLES.super] });
    tokens.root = await signIn(t.app, '', 'root', root.password);
    await t.app.ready();
  });
  afterAll(() => t.close());

  const setModules = async (modules: TSideModules) => {
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/admin_super/organizes/${customerId}/modules`,
      payload: modules,
      headers: { 'x-authorization': tokens.root! },
    });
    expect(res.json().errorCode).toBe('1000');
  };
  const call = (who: string, method: string, url: string, payload?: object) =>
    t.app.inject({ method: method as 'GET', url, payload, headers: { 'x-authorization': tokens[who]! } });

  it('refuses a student whose projects are off a new project, and makes none', async () => {
    await setModules({ teacher: all, student: without('projects') });
    const res = await call('kid', 'POST', '/gw/api/v1/projects', { name: 'Sneaky' });
    expect({ status: res.statusCode, code: res.json().errorCode }).toEqual({ status: 403, code: '1008' });
    await setModules({ teacher: all, student: all });
    const mine = await call('kid', 'GET', '/gw/api/v1/projects/mine');
    expect(mine.json().data.total).toBe(0);
  });

  it.each(['courses', 'projects', 'events'] as const)(
    'refuses every %s route to the side that has the module off, and only to that side',
    async (module) => {
      const routes = t.app.routeTable.filter((r) => moduleOfRoute(r.url) === module);
      expect(routes.length).toBeGreaterThan(5);
      for (const [off, on] of [
        ['kid', 'teach'],
        ['teach', 'kid'],
      ] as const) {
        await setModules(
          off === 'kid' ? { teacher: all, student: without(module) } : { teacher: without(module), student: all },
        );
        for (const route of routes) {
          const refused = await call(off, route.method, urlOf(route), {});
          // A route the role may not use at all says so first.
          const permitted = !route.permission || hasPermission(roles[off]!, route.permission as Permission);
          const name = `${route.method} ${route.url}`;
          expect({ name, status: refused.statusCode, code: refused.json().errorCode }).toEqual({
            name,
            status: 403,
            code: permitted ? '1008' : '1006',
          });
          const allowed = await call(on, route.method, urlOf(route), {});
          expect(allowed.statusCode === 403 && allowed.json().errorCode === '1008').toBe(false);
        }
      }
      await setModules({ teacher: all, student: all });
    },
  );

  it('leaves every module to visitors and the public space', async () => {
    await setModules({ teacher: [], student: [] });
    const centre = await t.app.inject({ method: 'GET', url: '/api/v1/courses/centre' });
    expect(centre.json().errorCode).toBe('1000');
    const publicLearner = await buildUser(t.database.db, { username: 'solo', roles: [ROLES.student] });
    const token = await signIn(t.app, '', 'solo', publicLearner.password);
    const res = await t.app.inject({
      method: 'GET',
      url: '/gw/api/v1/projects/mine',
      headers: { 'x-authorization': token },
    });
    expect(res.json().errorCode).toBe('1000');
    await setModules({ teacher: all, student: all });
  });
});
