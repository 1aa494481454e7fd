import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, seedOnFirstStart } from '../../seed/seed.js';
import { signIn } from '../../test/factories.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

describe('statistics on the demo data', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    await seedOnFirstStart(t.database.db, { seedDemo: true, superAdminPassword: undefined });
  });
  afterAll(() => t.close());

  const login = (custcode: string, username: string, password: string) => signIn(t.app, custcode, username, password);

  it('counts a customer’s schools, teachers, students, classes and today’s active users', async () => {
    await login('demo2026', 'student01', DEMO.studentPassword);
    await login('demo2026', 'student02', DEMO.studentPassword);
    await login('other2026', 'student01', DEMO.studentPassword);
    const admin = await login('demo2026', 'admin', DEMO.customerAdmin.password);
    const res = await t.app.inject({
      method: 'GET',
      url: '/gw/api/v1/user/stats',
      headers: { 'x-authorization': admin },
    });
    const stats = res.json().data;
    expect(stats).toMatchObject({ schools: 1, teachers: 1, students: 30, classes: 1 });
    expect(stats.activeByDay).toHaveLength(1);
    expect(stats.activeByDay[0].users).toBe(3);
    expect(stats.bySchool).toEqual([
      expect.objectContaining({ teachers: 1, students: 30, classes: 1, customerName: expect.any(String) }),
    ]);
  });

  it('counts everything for a super administrator and refuses a teacher', async () => {
    const root = await login('', 'super', DEMO.superAdmin.password);
    const all = (
      await t.app.inject({ method: 'GET', url: '/gw/api/v1/user/stats', headers: { 'x-authorization': root } })
    ).json().data;
    expect(all).toMatchObject({ schools: 2, teachers: 2, students: 60, classes: 2 });
    const teacher = await login('demo2026', 'teacher1', DEMO.teacher.password);
    const refused = await t.app.inject({
      method: 'GET',
      url: '/gw/api/v1/user/stats',
      headers: { 'x-authorization': teacher },
    });
    expect(refused.statusCode).toBe(403);
  });
});
