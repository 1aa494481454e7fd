import { ROLES } from '@aiedu/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { b64, buildCustomer, buildSchool, buildUser, signIn } from '../../test/factories.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

describe('teachers’ own classes and their statistics', () => {
  let t: TestApp;
  let custcode: string;
  let schoolId: string;
  const tokens: Record<string, string> = {};

  beforeAll(async () => {
    t = await createTestApp();
    const db = t.database.db;
    const customer = await buildCustomer(db);
    custcode = customer.code;
    schoolId = (await buildSchool(db, customer.id)).id;
    const other = await buildSchool(db, customer.id);
    const people = {
      teacher: { schoolId, roles: [ROLES.teacher] },
      colleague: { schoolId, roles: [ROLES.teacher] },
      head: { schoolId, roles: [ROLES.schoolAdmin] },
      stranger: { schoolId: other.id, roles: [ROLES.schoolAdmin] },
    };
    for (const [username, extra] of Object.entries(people)) {
      const user = await buildUser(db, { customerId: customer.id, username, ...extra });
      tokens[username] = await signIn(t.app, custcode, username, user.password);
    }
  });
  afterAll(() => t.close());

  const call = (who: string, method: 'GET' | 'POST', url: string, payload?: object) =>
    t.app.inject({ method, url, payload, headers: { 'x-authorization': tokens[who]!, language: 'en' } });

  it('lets a teacher create a class of their own school, which they head and list', async () => {
    const created = await call('teacher', 'POST', '/api/v1/classes', {
      eduStage: 'junior',
      grade: 1,
      className: 'J1-Robotics',
      schoolId: '0192f7a0-0000-7000-8000-000000000000',
    });
    expect(created.json().data).toMatchObject({ schoolId, className: 'J1-Robotics', classStatus: 'current' });
    const mine = (await call('teacher', 'GET', '/api/v1/classes/mine')).json().data;
    expect(mine.list.map((c: { className: string }) => c.className)).toEqual(['J1-Robotics']);
    expect((await call('colleague', 'GET', '/api/v1/classes/mine')).json().data.total).toBe(0);
    const admins = (await call('head', 'GET', '/gw/admin/api/v1/school/classes')).json().data;
    expect(admins.list.map((c: { className: string }) => c.className)).toContain('J1-Robotics');
    expect(
      (await call('head', 'POST', '/api/v1/classes', { eduStage: 'junior', grade: 1, className: 'x' })).statusCode,
    ).toBe(403);
  });

  it('shows the head teacher and the school’s administrators the class statistics, nobody else', async () => {
    const [klass] = (await call('teacher', 'GET', '/api/v1/classes/mine')).json().data.list;
    await call('head', 'POST', '/gw/admin/api/v1/school/students', {
      classId: klass.id,
      username: 'kid01',
      realName: 'Kid',
      password: b64('Start2026'),
    });
    const stats = await call('teacher', 'GET', `/api/v1/classes/${klass.id}/stats?days=7`);
    expect(stats.json().data).toMatchObject({ classId: klass.id, className: 'J1-Robotics', students: 1, courses: 0 });
    expect(stats.json().data.activeByDay).toHaveLength(7);
    expect((await call('head', 'GET', `/api/v1/classes/${klass.id}/stats`)).json().data.students).toBe(1);
    expect((await call('colleague', 'GET', `/api/v1/classes/${klass.id}/stats`)).statusCode).toBe(404);
    expect((await call('stranger', 'GET', `/api/v1/classes/${klass.id}/stats`)).statusCode).toBe(404);
  });
});
