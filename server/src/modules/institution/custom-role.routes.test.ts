import { ROLES } from '@aiedu/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customRoles, operationLogs, users } from '../../platform/db/schema/index.js';
import { b64, buildCustomer, buildSchool, buildUser, signIn } from '../../test/factories.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

const ROLE = '/api/v1/role';
const USERS = '/api/v1/user';
const LOGS = '/api/v1/admin/logs';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

describe('custom roles (/api/v1/role)', () => {
  let t: TestApp;
  let custcode: string;
  let customerId: string;
  let schoolId: string;
  const tokens: Record<string, string> = {};

  beforeAll(async () => {
    t = await createTestApp();
    const db = t.database.db;
    const customer = await buildCustomer(db);
    custcode = customer.code;
    customerId = customer.id;
    schoolId = (await buildSchool(db, customer.id)).id;
    const admin = await buildUser(db, { customerId, username: 'admin', roles: [ROLES.customerAdmin] });
    const root = await buildUser(db, { username: 'root', roles: [ROLES.super] });
    const teacher = await buildUser(db, { customerId, schoolId, username: 'teach', roles: [ROLES.teacher] });
    tokens.admin = await signIn(t.app, custcode, 'admin', admin.password);
    tokens.root = await signIn(t.app, '', 'root', root.password);
    tokens.teacher = await signIn(t.app, custcode, 'teach', teacher.password);
  });
  afterAll(() => t.close());

  const call = async (who: string, method: Method, url: string, payload?: object) => {
    const res = await t.app.inject({
      method,
      url,
      ...(payload ? { payload } : {}),
      headers: { 'x-authorization': tokens[who]!, language: 'en' },
    });
    return { status: res.statusCode, body: res.json() };
  };
  const create = async (name: string, permissions: string[], baseRole: string = ROLES.customerAdmin) => {
    const res = await call('root', 'POST', ROLE, { name, description: `${name} role`, baseRole, permissions });
    expect(res.body.errorCode).toBe('1000');
    return res.body.data as { id: string; name: string; accounts: number; enabled: boolean; permissions: string[] };
  };
  /** A customer administrator made by `admin` with the custom role, signed in with its first password replaced. */
  const holder = async (username: string, customRoleId: string | null, as = 'admin') => {
    const made = await call(as, 'POST', USERS, {
      username,
      realName: username,
      role: ROLES.customerAdmin,
      password: b64('Start2026'),
      customRoleId,
    });
    expect(made.body.errorCode).toBe('1000');
    await t.database.db.update(users).set({ mustChangePassword: false }).where(eq(users.username, username));
    tokens[username] = await signIn(t.app, custcode, username, 'Start2026');
    return made.body.data as { id: string; customRoleId: string | null; customRoleName: string | null };
  };

  it('lets super administrators create a role of some of a built-in role’s permissions, named once', async () => {
    const auditor = await create('Auditor', ['log.view', 'statistics.view']);
    expect(auditor).toMatchObject({ name: 'Auditor', enabled: true, accounts: 0 });
    expect(auditor.permissions).toEqual(['log.view', 'statistics.view']);

    const taken = await call('root', 'POST', ROLE, { name: 'auditor', baseRole: ROLES.schoolAdmin, permissions: [] });
    expect(taken.body.errorCode).toBe('1001');
    const same = await call('root', 'POST', ROLE, {
      name: 'AUDITOR',
      baseRole: ROLES.schoolAdmin,
      permissions: ['class.manage'],
    });
    expect({ status: same.status, code: same.body.errorCode }).toEqual({ status: 409, code: '5006' });
    const widening = await call('root', 'POST', ROLE, {
      name: 'Widening',
      baseRole: ROLES.schoolAdmin,
      permissions: ['class.manage', 'school.manage'],
    });
    expect(widening.body).toMatchObject({ errorCode: '1001', data: { notOfBaseRole: ['school.manage'] } });
    const builtInName = await call('root', 'POST', ROLE, {
      name: 'ROLE_AUDITOR',
      baseRole: ROLES.customerAdmin,
      permissions: ['log.view'],
    });
    expect(builtInName.body.errorCode).toBe('1001');
    const superRole = await call('root', 'POST', ROLE, {
      name: 'Deputy',
      baseRole: ROLES.super,
      permissions: ['log.view'],
    });
    expect(superRole.body.errorCode).toBe('1001');
    const logs = await t.database.db.select().from(operationLogs).where(eq(operationLogs.module, 'role'));
    expect(logs.map((l) => l.operation)).toEqual(['create']);
  });

  it('searches roles by name, base role and state, a page at a time, for those who assign roles', async () => {
    await create('Class keeper', ['class.manage', 'student.manage'], ROLES.schoolAdmin);
    const off = await create('Statistics reader', ['statistics.view'], ROLES.subCustomerAdmin);
    await call('root', 'PUT', `${ROLE}/${off.id}/status`, { enabled: false });
    const names = async (query: string, who = 'admin') =>
      ((await call(who, 'GET', `${ROLE}/search?${query}`)).body.data.list as { name: string }[]).map((r) => r.name);
    expect(await names('')).toEqual(['Auditor', 'Class keeper', 'Statistics reader']);
    expect(await names('keyword=KEEP')).toEqual(['Class keeper']);
    expect(await names('keyword=auditor%20role')).toEqual(['Auditor']);
    expect(await names(`baseRole=${ROLES.schoolAdmin}`)).toEqual(['Class keeper']);
    expect(await names('enabled=false', 'root')).toEqual(['Statistics reader']);
    expect(await names('enabled=true')).toEqual(['Auditor', 'Class keeper']);
    const second = (await call('admin', 'GET', `${ROLE}/search?size=2&page=2`)).body.data;
    expect(second).toMatchObject({ total: 3, page: 2, size: 2, list: [{ name: 'Statistics reader' }] });
    const refused = await call('teacher', 'GET', `${ROLE}/search`);
    expect({ status: refused.status, code: refused.body.errorCode }).toEqual({ status: 403, code: '1006' });
  });

  it('renames, changes and switches a role; nobody but super administrators may', async () => {
    const role = await create('Helper', ['log.view']);
    const renamed = await call('root', 'PUT', `${ROLE}/${role.id}`, { name: 'Log helper' });
    expect(renamed.body.data).toMatchObject({
      name: 'Log helper',
      description: 'Helper role',
      permissions: ['log.view'],
    });
    const changed = await call('root', 'PUT', `${ROLE}/${role.id}`, { permissions: ['log.view', 'period.manage'] });
    expect(changed.body.data).toMatchObject({ name: 'Log helper', permissions: ['log.view', 'period.manage'] });
    const taken = await call('root', 'PUT', `${ROLE}/${role.id}`, { name: 'auditor' });
    expect(taken.body.errorCode).toBe('5006');
    const widened = await call('root', 'PUT', `${ROLE}/${role.id}`, { permissions: ['customer.manage'] });
    expect(widened.body.errorCode).toBe('1001');
    expect((await call('root', 'PUT', `${ROLE}/${role.id}/status`, { enabled: false })).body.data.enabled).toBe(false);

    const attempts: [Method, string, object?][] = [
      ['POST', ROLE, { name: 'Mine', baseRole: ROLES.schoolAdmin, permissions: ['class.manage'] }],
      ['PUT', `${ROLE}/${role.id}`, { name: 'Taken over' }],
      ['PUT', `${ROLE}/${role.id}/status`, { enabled: true }],
      ['DELETE', `${ROLE}/${role.id}`],
      ['POST', `${ROLE}/batch-delete`, { ids: [role.id] }],
    ];
    for (const [method, url, body] of attempts) {
      for (const who of ['admin', 'teacher']) {
        const res = await call(who, method, url, body);
        expect({ who, url, method, status: res.status, code: res.body.errorCode }).toEqual({
          who,
          url,
          method,
          status: 403,
          code: '1006',
        });
      }
    }
    const [kept] = await t.database.db.select().from(customRoles).where(eq(customRoles.id, role.id));
    expect(kept).toMatchObject({ name: 'Log helper', enabled: false });
  });

  it('keeps built-in roles fixed, and answers 1004 for a role that does not exist', async () => {
    for (const [method, url, body] of [
      ['PUT', `${ROLE}/${ROLES.teacher}`, { name: 'Tutor' }],
      ['PUT', `${ROLE}/${ROLES.schoolAdmin}/status`, { enabled: false }],
      ['DELETE', `${ROLE}/${ROLES.customerAdmin}`, undefined],
      ['POST', `${ROLE}/batch-delete`, { ids: [ROLES.student] }],
    ] as [Method, string, object | undefined][]) {
      const res = await call('root', method, url, body);
      expect({ url, status: res.status, code: res.body.errorCode }).toEqual({ url, status: 403, code: '5008' });
    }
    expect((await call('root', 'PUT', `${ROLE}/0192f7a0-0000-7000-8000-000000000000`, { name: 'X' })).status).toBe(404);
    expect((await call('root', 'DELETE', `${ROLE}/not-a-role`)).body.errorCode).toBe('1004');
    const table = (await call('admin', 'GET', ROLE)).body.data as { role: string }[];
    expect(table.map((r) => r.role)).toContain(ROLES.teacher);
  });

  it('gives an account holding a role that role’s permissions only, changed and switched off within the request', async () => {
    const role = await create('Readers', ['log.view', 'statistics.view', 'course.learn']);
    const made = await holder('reader1', role.id);
    expect(made).toMatchObject({ customRoleId: role.id, customRoleName: 'Readers' });
    const listed = (await call('admin', 'GET', `${USERS}?keyword=reader1`)).body.data.list;
    expect(listed).toEqual([expect.objectContaining({ customRoleId: role.id, customRoleName: 'Readers' })]);

    expect((await call('reader1', 'GET', LOGS)).status).toBe(200);
    const refused = await call('reader1', 'GET', USERS);
    expect({ status: refused.status, code: refused.body.errorCode }).toEqual({ status: 403, code: '1006' });
    expect((await call('reader1', 'GET', `${ROLE}/mine`)).body.data).toEqual({
      customRole: {
        id: role.id,
        name: 'Readers',
        baseRole: ROLES.customerAdmin,
        permissions: ['log.view', 'statistics.view', 'course.learn'],
        enabled: true,
      },
    });
    expect((await call('admin', 'GET', `${ROLE}/mine`)).body.data).toEqual({ customRole: null });

    await call('root', 'PUT', `${ROLE}/${role.id}`, { permissions: ['log.view', 'user.manage'] });
    expect((await call('reader1', 'GET', USERS)).status).toBe(200);
    await call('root', 'PUT', `${ROLE}/${role.id}/status`, { enabled: false });
    expect((await call('reader1', 'GET', LOGS)).body.errorCode).toBe('1006');
    await call('root', 'PUT', `${ROLE}/${role.id}/status`, { enabled: true });
    expect((await call('reader1', 'GET', LOGS)).status).toBe(200);
  });

  it('assigns only a switched-on role of the account’s own base role', async () => {
    const schoolRole = await create('School helper', ['class.manage'], ROLES.schoolAdmin);
    const wrongBase = await call('admin', 'POST', USERS, {
      username: 'wrongbase',
      realName: 'X',
      role: ROLES.customerAdmin,
      password: b64('Start2026'),
      customRoleId: schoolRole.id,
    });
    expect(wrongBase.body).toMatchObject({ errorCode: '1001', data: { field: 'customRoleId', reason: 'baseRole' } });
    const off = await create('Dormant', ['log.view']);
    await call('root', 'PUT', `${ROLE}/${off.id}/status`, { enabled: false });
    const { id } = await holder('plain1', null);
    const disabled = await call('admin', 'PUT', `${USERS}/${id}`, { customRoleId: off.id });
    expect(disabled.body).toMatchObject({ errorCode: '1001', data: { reason: 'disabled' } });
    const [admin] = await t.database.db.select().from(users).where(eq(users.username, 'admin'));
    const own = await call('admin', 'PUT', `${USERS}/${admin!.id}`, { customRoleId: schoolRole.id });
    expect(own.body.errorCode).toBe('1007');
  });

  it('deletes only roles no account holds, one or several, all or none', async () => {
    const held = await create('Held', ['log.view']);
    const free = await create('Free', ['log.view']);
    const { id } = await holder('holder1', held.id);
    const inUse = await call('root', 'DELETE', `${ROLE}/${held.id}`);
    expect({ status: inUse.status, body: inUse.body }).toMatchObject({
      status: 409,
      body: { errorCode: '5007', data: { accounts: 1 } },
    });
    const batch = await call('root', 'POST', `${ROLE}/batch-delete`, { ids: [free.id, held.id] });
    expect(batch.body.errorCode).toBe('5007');
    expect(await t.database.db.select().from(customRoles).where(eq(customRoles.id, free.id))).toHaveLength(1);

    const counted = (await call('root', 'GET', `${ROLE}/search?keyword=held`)).body.data.list[0];
    expect(counted.accounts).toBe(1);
    expect((await call('admin', 'PUT', `${USERS}/${id}`, { customRoleId: null })).body.data.customRoleId).toBeNull();
    expect((await call('root', 'POST', `${ROLE}/batch-delete`, { ids: [free.id, held.id] })).body.errorCode).toBe(
      '1000',
    );
    expect(await t.database.db.select().from(customRoles).where(eq(customRoles.id, held.id))).toEqual([]);
  });

  it('lets an administrator holding a role act only on accounts that can do no more than it can', async () => {
    const keeper = await create('Account keeper', ['user.manage', 'log.view']);
    await holder('keeper1', keeper.id);
    // An account without a custom role could do everything a customer administrator can: refused.
    const full = await call('keeper1', 'POST', USERS, {
      username: 'full1',
      realName: 'Full',
      role: ROLES.customerAdmin,
      password: b64('Start2026'),
    });
    expect(full.body.errorCode).toBe('1007');
    const readers = await create('Log readers', ['log.view']);
    const narrow = await holder('narrow1', readers.id, 'keeper1');
    expect(narrow.customRoleName).toBe('Log readers');
    const [admin] = await t.database.db.select().from(users).where(eq(users.username, 'admin'));
    const reset = await call('keeper1', 'PUT', `${USERS}/${admin!.id}/password`, { password: b64('Taken2026') });
    expect(reset.body.errorCode).toBe('1007');
    expect((await call('keeper1', 'PUT', `${USERS}/${narrow.id}`, { customRoleId: null })).body.errorCode).toBe('1007');
    expect((await call('keeper1', 'DELETE', `${USERS}/${admin!.id}`)).body.errorCode).toBe('1007');
    expect((await call('keeper1', 'PUT', `${USERS}/${narrow.id}`, { realName: 'Narrow' })).body.errorCode).toBe('1000');
  });
});
