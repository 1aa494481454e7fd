import { ROLES } from '@aiedu/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customers, operationLogs, teacherCertifications, teachers, users } from '../../platform/db/schema/index.js';
import { b64, buildCustomer, buildSchool, buildUser, signIn } from '../../test/factories.js';
import { createTestApp } from '../../test/test-app.js';

/** A fresh app with one customer, one of its schools and its signed-in customer administrator `admin`. */
async function customerWithAdmin() {
  const t = await createTestApp();
  const db = t.database.db;
  const customer = await buildCustomer(db);
  const schoolId = (await buildSchool(db, customer.id)).id;
  const admin = await buildUser(db, { customerId: customer.id, username: 'admin', roles: [ROLES.customerAdmin] });
  const token = await signIn(t.app, customer.code, 'admin', admin.password);
  return { t, token, custcode: customer.code, customerId: customer.id, schoolId };
}
type World = Awaited<ReturnType<typeof customerWithAdmin>>;

describe('administrator accounts (/api/v1/user) and roles (/api/v1/role)', () => {
  let w: World;
  beforeAll(async () => {
    w = await customerWithAdmin();
  });
  afterAll(() => w.t.close());

  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    w.t.app.inject({ method, url, payload, headers: { 'x-authorization': w.token, language: 'en' } });

  async function createSchoolAdmin(username: string) {
    const res = await call('POST', '/api/v1/user', {
      username,
      realName: `Admin ${username}`,
      role: ROLES.schoolAdmin,
      schoolId: w.schoolId,
      password: b64('Start2026'),
    });
    expect(res.json().errorCode).toBe('1000');
    return res.json().data as { id: string; roles: string[]; schoolId: string };
  }

  it('creates a school administrator who must change the password, and finds it by search', async () => {
    const created = await createSchoolAdmin('school9');
    expect(created).toMatchObject({ roles: [ROLES.schoolAdmin], schoolId: w.schoolId });
    const login = await w.t.app.inject({
      method: 'POST',
      url: '/gw/api/v1/auth/login',
      payload: { custcode: w.custcode, usernameOrEmailOrPhone: 'school9', password: b64('Start2026') },
    });
    expect(login.json().data.mustChangePassword).toBe(true);
    const found = await call('GET', '/api/v1/user?keyword=school9');
    expect(found.json().data).toMatchObject({ total: 1, list: [{ username: 'school9' }] });
    // Teachers and students are not administrator accounts: the search never lists them.
    await buildUser(w.t.database.db, { customerId: w.customerId, username: 'teacherx', roles: [ROLES.teacher] });
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
    const disabled = await w.t.app.inject({
      method: 'POST',
      url: '/gw/api/v1/auth/login',
      payload: { custcode: w.custcode, usernameOrEmailOrPhone: 'school7', password: b64('Start2026') },
    });
    expect(disabled.json().errorCode).not.toBe('1000');
    expect((await call('PUT', `/api/v1/user/${id}/password`, { password: b64('short') })).json().errorCode).toBe(
      '1117',
    );
    expect((await call('PUT', `/api/v1/user/${id}/password`, { password: b64('Again2026') })).json().errorCode).toBe(
      '1000',
    );
    const logs = await w.t.database.db.select().from(operationLogs).where(eq(operationLogs.module, 'user'));
    expect(logs.map((l) => l.operation)).toEqual(expect.arrayContaining(['update', 'switch', 'reset-password']));
    const reset = logs.find((l) => l.operation === 'reset-password')!;
    expect(reset.params).toMatchObject({ password: '******' });
  });

  it('refuses to switch off or delete oneself', async () => {
    const [me] = await w.t.database.db.select().from(users).where(eq(users.username, 'admin'));
    expect((await call('PUT', `/api/v1/user/${me!.id}/status`, { enabled: false })).json().errorCode).toBe('1007');
    expect((await call('DELETE', `/api/v1/user/${me!.id}`)).json().errorCode).toBe('1007');
  });

  it('deletes one or several accounts, all or none', async () => {
    const one = await createSchoolAdmin('school6');
    const two = await createSchoolAdmin('school5');
    const outsider = await buildUser(w.t.database.db, { roles: [ROLES.schoolAdmin] });
    const refused = await call('POST', '/api/v1/user/batch-delete', { ids: [one.id, outsider.id] });
    expect(refused.statusCode).toBe(404);
    expect(await w.t.database.db.select().from(users).where(eq(users.id, one.id))).toHaveLength(1);
    expect((await call('POST', '/api/v1/user/batch-delete', { ids: [one.id, two.id] })).json().errorCode).toBe('1000');
    expect(await w.t.database.db.select().from(users).where(eq(users.id, two.id))).toEqual([]);
    const three = await createSchoolAdmin('school4');
    expect((await call('DELETE', `/api/v1/user/${three.id}`)).json().errorCode).toBe('1000');
  });

  it('filters by role and sorts on the server', async () => {
    await createSchoolAdmin('school3');
    const list = async (query: string) =>
      ((await call('GET', `/api/v1/user?${query}`)).json().data.list as { username: string }[]).map((u) => u.username);
    const schoolAdmins = await list(`role=${ROLES.schoolAdmin}&sort=username,desc`);
    expect(schoolAdmins).toEqual([...schoolAdmins].sort().reverse());
    expect(schoolAdmins).toContain('school3');
    expect(schoolAdmins).not.toContain('admin');
    expect((await call('GET', '/api/v1/user?sort=passwordHash,asc')).statusCode).toBe(400);
  });

  it('lists every role with its permissions from the one table', async () => {
    const roles = (await call('GET', '/api/v1/role')).json().data as { role: string; permissions: string[] }[];
    expect(roles.find((r) => r.role === ROLES.schoolAdmin)?.permissions).toEqual(
      expect.arrayContaining(['class.manage', 'student.manage']),
    );
    expect(roles.find((r) => r.role === ROLES.schoolAdmin)?.permissions).not.toContain('school.manage');
    expect(roles.find((r) => r.role === ROLES.student)?.permissions).toEqual(['event.take', 'course.learn']);
  });
});

describe('a school administrator who also teaches', () => {
  let w: World;
  beforeAll(async () => {
    w = await customerWithAdmin();
  });
  afterAll(() => w.t.close());

  const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, as = w.token) =>
    w.t.app.inject({ method, url, payload, headers: { 'x-authorization': as, language: 'en' } });
  const teacherList = async () =>
    (await call('GET', '/gw/admin/api/v1/school/teachers?size=100')).json().data.list as {
      username: string;
      alsoTeacher: boolean;
      certified: boolean;
    }[];
  /** Signs in with the account's first password replaced, and answers the roles and token of the sign-in. */
  async function signInFresh(username: string) {
    await w.t.database.db.update(users).set({ mustChangePassword: false }).where(eq(users.username, username));
    const res = await w.t.app.inject({
      method: 'POST',
      url: '/gw/api/v1/auth/login',
      payload: { custcode: w.custcode, usernameOrEmailOrPhone: username, password: b64('Start2026') },
    });
    return res.json().data as { roles: string[]; token: string };
  }

  it('is created as a teacher of the school too: listed, counted and able to write courses', async () => {
    const created = await call('POST', '/api/v1/user', {
      username: 'head1',
      realName: 'Head Teacher',
      role: ROLES.schoolAdmin,
      schoolId: w.schoolId,
      password: b64('Start2026'),
      alsoTeacher: true,
    });
    expect(created.json().data).toMatchObject({ alsoTeacher: true, roles: [ROLES.schoolAdmin, ROLES.teacher] });
    expect(await teacherList()).toEqual([expect.objectContaining({ username: 'head1', alsoTeacher: true })]);
    const login = await signInFresh('head1');
    expect(login.roles).toContain(ROLES.teacher);
    expect((await call('GET', '/api/v1/courses/mine', undefined, login.token)).statusCode).toBe(200);
  });

  it('stops teaching from the account form: gone from the teachers, no teacher role at the next sign-in', async () => {
    const [head] = await w.t.database.db.select().from(users).where(eq(users.username, 'head1'));
    const res = await call('PUT', `/api/v1/user/${head!.id}`, { alsoTeacher: false });
    expect(res.json().data).toMatchObject({ alsoTeacher: false, roles: [ROLES.schoolAdmin], realName: 'Head Teacher' });
    expect(await teacherList()).toEqual([]);
    const login = await signInFresh('head1');
    expect(login.roles).not.toContain(ROLES.teacher);
    expect((await call('GET', '/api/v1/courses/mine', undefined, login.token)).statusCode).toBe(403);
  });

  it('teaches again with the certification approved before, within the teacher quota', async () => {
    const [head] = await w.t.database.db.select().from(users).where(eq(users.username, 'head1'));
    await w.t.database.db.insert(teacherCertifications).values({
      userId: head!.id,
      customerId: w.customerId,
      region: 'other',
      schoolName: 'Demo',
      documentType: 'passport',
      status: 'certified',
    });
    expect((await call('PUT', `/api/v1/user/${head!.id}`, { alsoTeacher: true })).json().data.alsoTeacher).toBe(true);
    expect(await teacherList()).toEqual([expect.objectContaining({ username: 'head1', certified: true })]);
    await call('PUT', `/api/v1/user/${head!.id}`, { alsoTeacher: false });
    await w.t.database.db.update(customers).set({ teacherQuota: 0 }).where(eq(customers.id, w.customerId));
    const full = await call('PUT', `/api/v1/user/${head!.id}`, { alsoTeacher: true, realName: 'Not Saved' });
    expect(full.json()).toMatchObject({ errorCode: '5003' });
    const [after] = await w.t.database.db.select().from(users).where(eq(users.id, head!.id));
    expect(after).toMatchObject({ roles: [ROLES.schoolAdmin], realName: 'Head Teacher' });
    await w.t.database.db.update(customers).set({ teacherQuota: null }).where(eq(customers.id, w.customerId));
  });

  it('is ended from the teacher form too, which refuses it for a teacher who is not an administrator', async () => {
    const [head] = await w.t.database.db.select().from(users).where(eq(users.username, 'head1'));
    await call('PUT', `/api/v1/user/${head!.id}`, { alsoTeacher: true });
    const plain = await call('POST', '/gw/admin/api/v1/school/teachers', {
      schoolId: w.schoolId,
      username: 'plain1',
      realName: 'Plain Teacher',
      password: b64('Start2026'),
    });
    const refused = await call('PUT', `/gw/admin/api/v1/school/teachers/${plain.json().data.id}`, {
      alsoTeacher: false,
    });
    expect(refused.json()).toEqual({
      errorCode: '5005',
      errorMsg: 'Only an administrator of a school can also be its teacher',
      data: null,
    });
    expect((await teacherList()).map((p) => p.username).sort()).toEqual(['head1', 'plain1']);
    const ended = await call('PUT', `/gw/admin/api/v1/school/teachers/${head!.id}`, { alsoTeacher: false });
    expect(ended.json().errorCode).toBe('1000');
    expect((await teacherList()).map((p) => p.username)).toEqual(['plain1']);
    expect(await w.t.database.db.select().from(teachers).where(eq(teachers.userId, head!.id))).toEqual([]);
  });

  it('refuses it for an administrator without a school', async () => {
    const res = await call('POST', '/api/v1/user', {
      username: 'boss2',
      realName: 'Boss',
      role: ROLES.customerAdmin,
      password: b64('Start2026'),
      alsoTeacher: true,
    });
    expect(res.json().errorCode).toBe('5005');
    expect(await w.t.database.db.select().from(users).where(eq(users.username, 'boss2'))).toEqual([]);
  });
});
