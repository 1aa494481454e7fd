import { ROLES } from '@aiedu/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../platform/db/schema/index.js';
import { b64, buildCustomer, buildSchool, buildUser, signIn } from '../../test/factories.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

describe('/api/v1/student: the teaching side’s student management', () => {
  let t: TestApp;
  let custcode: string;
  const tokens: Record<string, string> = {};
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    t = await createTestApp();
    const db = t.database.db;
    const customer = await buildCustomer(db);
    custcode = customer.code;
    const school = await buildSchool(db, customer.id, { name: 'North' });
    const other = await buildSchool(db, customer.id, { name: 'South' });
    const admin = await buildUser(db, { customerId: customer.id, username: 'boss', roles: [ROLES.customerAdmin] });
    const teacher = await buildUser(db, {
      customerId: customer.id,
      schoolId: school.id,
      username: 'teach',
      roles: [ROLES.teacher],
    });
    tokens.admin = await signIn(t.app, custcode, 'boss', admin.password);
    tokens.teacher = await signIn(t.app, custcode, 'teach', teacher.password);
    for (const [key, schoolId, username] of [
      ['mine', school.id, 'kid01'],
      ['theirs', other.id, 'kid02'],
    ] as const) {
      const klass = await call('admin', 'POST', '/gw/admin/api/v1/school/classes', {
        schoolId,
        eduStage: 'primary',
        grade: 3,
        className: `3-${key}`,
      });
      ids[key] = (
        await call('admin', 'POST', '/gw/admin/api/v1/school/students', {
          classId: klass.json().data.id,
          username,
          realName: `Kid ${key}`,
          schoolNumber: `N-${key}`,
          password: b64('Start2026'),
        })
      ).json().data.id;
    }
  });
  afterAll(() => t.close());

  function call(who: string, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) {
    return t.app.inject({ method, url, payload, headers: { 'x-authorization': tokens[who]!, language: 'en' } });
  }

  it('lets a teacher search and read the students of their own school only', async () => {
    const found = (await call('teacher', 'GET', '/api/v1/student?keyword=kid')).json().data;
    expect(found.list.map((s: { username: string }) => s.username)).toEqual(['kid01']);
    const detail = (await call('teacher', 'GET', `/api/v1/student/${ids.mine}`)).json().data;
    expect(detail).toMatchObject({
      username: 'kid01',
      className: '3-mine',
      schoolName: 'North',
      schoolNumber: 'N-mine',
    });
    expect((await call('teacher', 'GET', `/api/v1/student/${ids.theirs}`)).statusCode).toBe(404);
    expect((await call('admin', 'GET', '/api/v1/student')).json().data.total).toBe(2);
  });

  it('lets a teacher set a password the student must change, and switch a student off and on', async () => {
    const reset = await call('teacher', 'PUT', `/api/v1/student/${ids.mine}/password`, { password: b64('Again2026') });
    expect(reset.json().errorCode).toBe('1000');
    const login = (password: string) =>
      t.app.inject({
        method: 'POST',
        url: '/gw/api/v1/auth/login',
        payload: { custcode, usernameOrEmailOrPhone: 'kid01', password: b64(password) },
      });
    expect((await login('Again2026')).json().data.mustChangePassword).toBe(true);
    await call('teacher', 'PUT', `/api/v1/student/${ids.mine}/status`, { enabled: false });
    expect((await login('Again2026')).json().errorCode).toBe('E003');
    await call('teacher', 'PUT', `/api/v1/student/${ids.mine}/status`, { enabled: true });
    expect((await login('Again2026')).json().errorCode).toBe('1000');
    const foreign = await call('teacher', 'PUT', `/api/v1/student/${ids.theirs}/status`, { enabled: false });
    expect(foreign.statusCode).toBe(404);
  });

  it('refuses students themselves', async () => {
    await t.database.db.update(users).set({ mustChangePassword: false }).where(eq(users.id, ids.theirs!));
    const kid = await signIn(t.app, custcode, 'kid02', 'Start2026');
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/student', headers: { 'x-authorization': kid } });
    expect(res.json()).toMatchObject({ errorCode: '1006' });
    expect(res.statusCode).toBe(403);
  });
});
