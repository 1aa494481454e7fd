import { ROLES } from '@aiedu/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCustomer, buildUser, createProjectAs, signIn } from '../../test/factories.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

describe('a server without the notebook runtime', () => {
  let t: TestApp;
  let token: string;

  beforeAll(async () => {
    t = await createTestApp({ config: { runtimePython: '/nonexistent/python3' } });
    const customer = await buildCustomer(t.database.db);
    const kid = await buildUser(t.database.db, { customerId: customer.id, username: 'kid', roles: [ROLES.student] });
    token = await signIn(t.app, customer.code, 'kid', kid.password);
  });
  afterAll(() => t.close());

  it('says so, names the install command, and refuses to start a runtime with it', async () => {
    const headers = { 'x-authorization': token };
    const availability = (
      await t.app.inject({ method: 'GET', url: '/gw/api/v1/runtime/availability', headers })
    ).json();
    expect(availability.data).toMatchObject({ state: 'missing' });
    expect(availability.data.command).toContain('apt-get install -y --no-install-recommends jupyter-server');
    const id = await createProjectAs(t.app, token, 'No Python here');
    const start = await t.app.inject({ method: 'POST', url: `/gw/api/v1/projects/${id}/runtime/start`, headers });
    expect(start.statusCode).toBe(503);
    expect(start.json()).toMatchObject({ errorCode: '3101', data: { command: availability.data.command } });
    // The rest of the project still works without Python.
    const files = await t.app.inject({ method: 'GET', url: `/gw/api/v1/projects/${id}/files`, headers });
    expect(files.json().data.map((f: { name: string }) => f.name)).toEqual(['main.ipynb']);
  });
});
