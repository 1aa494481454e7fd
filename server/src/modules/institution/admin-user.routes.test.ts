import { ROLES } from '@aiedu/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operationLogs, users } from '../../platform/db/schema/index.js';
import { b64, buildCustomer, buildSchool, buildUser, signIn } from '../../test/factories.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

describe('administrator accounts (/api/v1/user) and roles (/api/v1/role)', () => {
  let t: TestApp;
  let token: string;
  let custcode: string;
  let customerId: string;
  let schoolId: string;

  beforeAll(async () => {
    t = await createTestApp();
    const db = t.database.db;
    const customer = await buildCustomer(db);
    custcode = customer.code;
    customerId = customer.id;
    schoolId = (await buildSchool(db, customer.id)).id;
    const admin = await buildUser(db, { customerId, username: 'admin', roles: [ROLES.customerAdmin] });
    token = await signIn(t.app, custcode, 'admin', admin.password);
  });
  afterAll(() => t.close());

  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({ method, url, payload, headers: { 'x-authorization': token, language: 'en' } });

  async function createSchoolAdmin(username: string) {
    const res = await call('POST', '/api/v1/user', {
      username,
      realName: `Admin ${username}`,
      role: ROLES.schoolAdmin,
      schoolId,
      password: b64('Start2026'),
    });
    expect(res.json().errorCode).toBe('1000');
    return res.json().data as { id: string; roles: string[]; schoolId: string };
  }

  it('creates a school administrator who must change the password, and finds it by search', async () => {
    const created = await createSchoolAdmin('school9');
    expect(created).toMatchObject({ roles: [ROLES.schoolAdmin], schoolId });
    const login = await t.app.inject({
      method: 'POST',
      url: '/gw/api/v1/auth/login',
      payload: { custcode, usernameOrEmailOrPhone: 'school9', password: b64('Start2026') },
    });
    expect(login.json().data.mustChangePassword).toBe(true);
    const found = await call('GET', '/api/v1/user?keyword=school9');
    expect(found.json().data).toMatchObject({ total: 1, list: [{ username: 'school9' }] });
    // Teachers and students are not administrator accounts: the search never lists them.
    await buildUser(t.database.db, { customerId, username: 'teacherx', roles: [ROLES.teacher] });
    expect((await call('GET', '/api/v1/user?keyword=teacherx')).json().data.total).toBe(0);
  });

  it('refuses a school role without a school and a role that does not fit the customer', async () => {
    const noSchool = await call('POST', '/api/v1/user', {
      username: 'school8',
      realName: 'X',
      role: ROLES.schoolAdmin,
      password: b64('Start2026'),
    });
    expect(noSchool.json().errorCode).toBe('1001');
    const wrongRole = await call('POST', '/api/v1/user', {
      username: 'sub8',
      realName: 'X',
      role: ROLES.subCustomerAdmin,
      password: b64('Start2026'),
    });
    expect(wrongRole.json().errorCode).toBe('1007');
  });

  it('updates, switches off (signing out), resets the password and logs each change', async () => {
    const { id } = await createSchoolAdmin('school7');
    expect((await call('PUT', `/api/v1/user/${id}`, { realName: 'Renamed' })).json().data.realName).toBe('Renamed');
    expect((await call('PUT', `/api/v1/user/${id}/status`, { enabled: false })).json().data.enabled).toBe(false);
    const disabled = await t.app.inject({
      method: 'POST',
      url: '/gw/api/v1/auth/login',
      payload: { custcode, usernameOrEmailOrPhone: 'school7', password: b64('Start2026') },
    });
    expect(disabled.json().errorCode).not.toBe('1000');
    expect((await call('PUT', `/api/v1/user/${id}/password`, { password: b64('short') })).json().errorCode).toBe(
      '1117',
    );
    expect((await call('PUT', `/api/v1/user/${id}/password`, { password: b64('Again2026') })).json().errorCode).toBe(
      '1000',
    );
    const logs = await t.database.db.select().from(operationLogs).where(eq(operationLogs.module, 'user'));
    expect(logs.map((l) => l.operation)).toEqual(expect.arrayContaining(['update', 'switch', 'reset-password']));
    const reset = logs.find((l) => l.operation === 'reset-password')!;
    expect(reset.params).toMatchObject({ password: '******' });
  });

  it('refuses to switch off or delete oneself', async () => {
    const [me] = await t.database.db.select().from(users).where(eq(users.username, 'admin'));
    expect((await call('PUT', `/api/v1/user/${me!.id}/status`, { enabled: false })).json().errorCode).toBe('1007');
    expect((await call('DELETE', `/api/v1/user/${me!.id}`)).json().errorCode).toBe('1007');
  });

  it('deletes one or several accounts, all or none', async () => {
    const one = await createSchoolAdmin('school6');
    const two = await createSchoolAdmin('school5');
    const outsider = await buildUser(t.database.db, { roles: [ROLES.schoolAdmin] });
    const refused = await call('POST', '/api/v1/user/batch-delete', { ids: [one.id, outsider.id] });
    expect(refused.statusCode).toBe(404);
    expect(await t.database.db.select().from(users).where(eq(users.id, one.id))).toHaveLength(1);
    expect((await call('POST', '/api/v1/user/batch-delete', { ids: [one.id, two.id] })).json().errorCode).toBe('1000');
    expect(await t.database.db.select().from(users).where(eq(users.id, two.id))).toEqual([]);
    const three = await createSchoolAdmin('school4');
    expect((await call('DELETE', `/api/v1/user/${three.id}`)).json().errorCode).toBe('1000');
  });

  it('lists every role with its permissions from the one table', async () => {
    const roles = (await call('GET', '/api/v1/role')).json().data as { role: string; permissions: string[] }[];
    expect(roles.find((r) => r.role === ROLES.schoolAdmin)?.permissions).toEqual(
      expect.arrayContaining(['class.manage', 'student.manage']),
    );
    expect(roles.find((r) => r.role === ROLES.schoolAdmin)?.permissions).not.toContain('school.manage');
    expect(roles.find((r) => r.role === ROLES.student)?.permissions).toEqual(['course.learn']);
  });
});
