import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, seedOnFirstStart } from '../../seed/seed.js';
import { eq } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { ROLES } from '@aiedu/contracts';
import { classes, customers, refreshTokens, students, teachers, users } from '../../platform/db/schema/index.js';
import { buildSchool, buildUser, signIn, testClock } from '../../test/factories.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { lastDays } from './statistics.service.js';

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
    // Every day of the period is there, oldest first, ending today in the caller's zone; only today had sign-ins.
    expect(stats.activeByDay).toHaveLength(30);
    const active = stats.activeByDay.filter((d: { users: number }) => d.users > 0);
    expect(active).toEqual([{ date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/), users: 3 }]);
    expect([stats.activeByDay.at(-1).date, stats.activeByDay.at(-2).date]).toContain(active[0].date);
    expect(stats.bySchool).toEqual([
      expect.objectContaining({ teachers: 1, students: 30, classes: 1, customerName: expect.any(String) }),
    ]);
  });

  it('counts only the school of a school administrator, while the customer administrator counts both', async () => {
    const db = t.database.db;
    const [demo] = await db.select().from(customers).where(eq(customers.code, 'demo2026'));
    const second = await buildSchool(db, demo!.id, { name: 'Second School' });
    const [klass] = await db
      .insert(classes)
      .values({
        customerId: demo!.id,
        schoolId: second.id,
        eduStage: 'junior',
        grade: 1,
        className: '1',
        startYear: 2026,
      })
      .returning();
    for (const roles of [[ROLES.teacher], [ROLES.student], [ROLES.student]]) {
      const user = await buildUser(db, { customerId: demo!.id, schoolId: second.id, roles });
      if (roles[0] === ROLES.teacher)
        await db.insert(teachers).values({ userId: user.id, customerId: demo!.id, schoolId: second.id });
      else
        await db
          .insert(students)
          .values({ userId: user.id, customerId: demo!.id, schoolId: second.id, classId: klass!.id });
    }
    const stats = async (token: string) =>
      (
        await t.app.inject({ method: 'GET', url: '/gw/api/v1/user/stats', headers: { 'x-authorization': token } })
      ).json().data;

    const school = await stats(await login('demo2026', 'school1', DEMO.schoolAdmin.password));
    expect(school).toMatchObject({ schools: 1, teachers: 1, students: 30, classes: 1 });
    expect(school.bySchool.map((row: { name: string }) => row.name)).not.toContain('Second School');
    expect(school.bySchool).toHaveLength(1);

    const customer = await stats(await login('demo2026', 'admin', DEMO.customerAdmin.password));
    expect(customer).toMatchObject({ schools: 2, teachers: 2, students: 32, classes: 2 });
    expect(customer.bySchool).toEqual([
      expect.objectContaining({ students: 30, teachers: 1, classes: 1 }),
      expect.objectContaining({ name: 'Second School', students: 2, teachers: 1, classes: 1 }),
    ]);
  });

  it('counts everything for a super administrator and refuses a teacher', async () => {
    const root = await login('', 'super', DEMO.superAdmin.password);
    const all = (
      await t.app.inject({ method: 'GET', url: '/gw/api/v1/user/stats', headers: { 'x-authorization': root } })
    ).json().data;
    // Both demo customers, and the second school the test before added to the first.
    expect(all).toMatchObject({ schools: 3, teachers: 3, students: 62, classes: 3 });
    const teacher = await login('demo2026', 'teacher1', DEMO.teacher.password);
    const refused = await t.app.inject({
      method: 'GET',
      url: '/gw/api/v1/user/stats',
      headers: { 'x-authorization': teacher },
    });
    expect(refused.statusCode).toBe(403);
  });
});

describe('active users on a fixed clock', () => {
  // 2026-11-22 01:00 UTC: 09:00 in Shanghai, still 17:00 on 11-21 in Los Angeles.
  const clock = testClock(new Date('2026-11-22T01:00:00Z'));
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await createTestApp({ now: clock.now });
    await seedOnFirstStart(t.database.db, { seedDemo: true, superAdminPassword: undefined });
    admin = await signIn(t.app, 'demo2026', 'admin', DEMO.customerAdmin.password);
    const db = t.database.db;
    const [kid] = await db.select().from(users).where(eq(users.username, 'student05')).limit(1);
    const token = (createdAt: string) => ({
      userId: kid!.id,
      familyId: uuidv7(),
      tokenHash: uuidv7(),
      expiresAt: new Date('2026-12-31T00:00:00Z'),
      createdAt: new Date(createdAt),
    });
    // 04:00 on 11-22 in Shanghai, 12:00 on 11-21 in Los Angeles; and one a day before the 3-day period in Shanghai.
    await db.insert(refreshTokens).values([token('2026-11-21T20:00:00Z'), token('2026-11-19T12:00:00Z')]);
  });
  afterAll(() => t.close());

  const activeByDay = async (query: string) =>
    (
      await t.app.inject({
        method: 'GET',
        url: `/gw/api/v1/user/stats?${query}`,
        headers: { 'x-authorization': admin },
      })
    ).json().data.activeByDay as { date: string; users: number }[];

  // The two sign-ins of the clock's day: the administrator's own (at 09:00 in Shanghai) and the student's.
  it('counts a sign-in on its date in the zone asked for, over the days asked for', async () => {
    expect(await activeByDay('days=3&timeZone=Asia%2FShanghai')).toEqual([
      { date: '2026-11-20', users: 0 },
      { date: '2026-11-21', users: 0 },
      { date: '2026-11-22', users: 2 },
    ]);
    expect(await activeByDay('days=2&timeZone=America%2FLos_Angeles')).toEqual([
      { date: '2026-11-20', users: 0 },
      { date: '2026-11-21', users: 2 },
    ]);
    // Four days reach back to 11-19 (20:00 in Shanghai); an unknown zone counts as Asia/Shanghai.
    expect((await activeByDay('days=4&timeZone=Mars%2FOlympus'))[0]).toEqual({ date: '2026-11-19', users: 1 });
  });
});

describe('lastDays', () => {
  it('lists the calendar days ending today in the zone, across month and year ends', () => {
    const instant = new Date('2026-03-01T01:00:00Z');
    expect(lastDays(instant, 3, 'Asia/Shanghai')).toEqual(['2026-02-27', '2026-02-28', '2026-03-01']);
    expect(lastDays(instant, 2, 'America/Los_Angeles')).toEqual(['2026-02-27', '2026-02-28']);
    expect(lastDays(new Date('2027-01-01T12:00:00Z'), 2, 'UTC')).toEqual(['2026-12-31', '2027-01-01']);
  });
});
