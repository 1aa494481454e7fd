import { graduateYearOf, ROLES } from '@aiedu/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upgradeSchedules } from '../../platform/db/schema/index.js';
import { buildCustomer, buildSchool, buildUser, testClock, signIn } from '../../test/factories.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { schoolYearIn } from './class.service.js';
import { runDueUpgrades } from './upgrade-schedule.service.js';

describe('classes: start and graduation years, upgrades, dismissal', () => {
  let t: TestApp;
  const clock = testClock(new Date('2026-11-22T09:00:00+08:00'));
  const tokens: Record<string, string> = {};
  let schoolA: string;

  beforeAll(async () => {
    t = await createTestApp({ now: clock.now });
    const db = t.database.db;
    const customer = await buildCustomer(db);
    schoolA = (await buildSchool(db, customer.id)).id;
    const schoolB = (await buildSchool(db, customer.id)).id;
    const people = {
      adminA: await buildUser(db, {
        customerId: customer.id,
        schoolId: schoolA,
        username: 'schoolA',
        roles: [ROLES.schoolAdmin],
      }),
      adminB: await buildUser(db, {
        customerId: customer.id,
        schoolId: schoolB,
        username: 'schoolB',
        roles: [ROLES.schoolAdmin],
      }),
    };
    for (const [name, user] of Object.entries(people)) {
      tokens[name] = await signIn(t.app, customer.code, user.username, user.password);
    }
  });
  afterAll(() => t.close());

  const call = (who: string, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
    t.app.inject({ method, url, payload, headers: { 'x-authorization': tokens[who]! } });
  const create = async (grade: number, className: string, eduStage = 'primary') =>
    (
      await call('adminA', 'POST', '/gw/admin/api/v1/school/classes', { schoolId: schoolA, eduStage, grade, className })
    ).json();

  it('computes the school year in the customer’s time zone', () => {
    expect(schoolYearIn('Asia/Shanghai', new Date('2026-08-31T15:59:00Z'))).toBe(2025);
    expect(schoolYearIn('Asia/Shanghai', new Date('2026-08-31T16:00:00Z'))).toBe(2026);
    expect(graduateYearOf('junior', 2026)).toBe(2029);
  });

  it('derives the start year from the grade and the graduate year from the stage', async () => {
    const created = await create(4, 'Grade 4 Class 1');
    expect(created.data).toMatchObject({
      grade: 4,
      startYear: 2023,
      graduateYear: 2029,
      classStatus: 'current',
      stuCount: 0,
    });
    expect((await create(7, 'Too high')).errorCode).toBe('1001');
  });

  it('upgrades current classes and graduates those past their last grade', async () => {
    const four = (await create(5, 'Grade 5 Class 2')).data;
    const six = (await create(6, 'Grade 6 Class 1')).data;
    const res = await call('adminA', 'POST', '/gw/admin/api/v1/school/classes/upgrade', {
      classIds: [four.id, six.id],
    });
    expect(res.json().data).toEqual({ upgraded: 1, graduated: 1 });
    const current = (await call('adminA', 'GET', '/gw/admin/api/v1/school/classes')).json().data.list;
    expect(current.find((c: { id: string }) => c.id === four.id).grade).toBe(6);
    const history = (await call('adminA', 'GET', '/gw/admin/api/v1/school/classes?status=history')).json().data.list;
    expect(history.map((c: { id: string; classStatus: string }) => [c.id, c.classStatus])).toEqual([
      [six.id, 'graduated'],
    ]);
  });

  it('dismisses a class for good: upgrades pass it by and nothing makes it current again', async () => {
    const klass = (await create(2, 'Grade 2 Class 9')).data;
    expect(
      (await call('adminA', 'PUT', `/gw/admin/api/v1/school/classes/${klass.id}/dismiss`)).json().data.classStatus,
    ).toBe('dismissed');
    const res = await call('adminA', 'POST', '/gw/admin/api/v1/school/classes/upgrade', { classIds: [klass.id] });
    expect(res.json().data).toEqual({ upgraded: 0, graduated: 0 });
    const history = (await call('adminA', 'GET', '/gw/admin/api/v1/school/classes?status=history')).json().data.list;
    expect(history.find((c: { id: string }) => c.id === klass.id)).toMatchObject({
      grade: 2,
      classStatus: 'dismissed',
    });
  });

  it('deletes a class without students for good: it leaves the lists and pickers, and one with students stays', async () => {
    const empty = (await create(3, 'Grade 3 Class 8')).data;
    const del = (id: string) =>
      t.app.inject({
        method: 'DELETE',
        url: `/gw/admin/api/v1/school/classes/${id}`,
        headers: { 'x-authorization': tokens.adminA! },
      });
    expect((await del(empty.id)).json().data.classStatus).toBe('deleted');
    expect((await del(empty.id)).statusCode).toBe(404);
    for (const url of ['?status=current', '?status=history', '/options']) {
      const rows = (await call('adminA', 'GET', `/gw/admin/api/v1/school/classes${url}`)).json().data;
      expect(('list' in rows ? rows.list : rows).map((c: { id: string }) => c.id)).not.toContain(empty.id);
    }
    expect((await call('adminA', 'PUT', `/gw/admin/api/v1/school/classes/${empty.id}/dismiss`)).statusCode).toBe(404);

    const taught = (await create(3, 'Grade 3 Class 7')).data;
    await call('adminA', 'POST', '/gw/admin/api/v1/school/students', {
      classId: taught.id,
      username: 'pupil37',
      realName: 'Pupil',
      password: 'U3RhcnQyMDI2',
    });
    const refused = await del(taught.id);
    expect(refused.json()).toMatchObject({ errorCode: '1009', data: { students: 1 } });
  });

  it('pages, searches and sorts the classes on the server', async () => {
    for (const name of ['Robotics A', 'Robotics B', 'Robotics C']) await create(1, name);
    const list = async (query: string) =>
      (await call('adminA', 'GET', `/gw/admin/api/v1/school/classes?${query}`)).json().data as {
        list: { className: string; grade: number }[];
        total: number;
        page: number;
        size: number;
      };
    const first = await list('keyword=robotics&size=2&sort=className,desc');
    expect(first).toMatchObject({ total: 3, page: 1, size: 2 });
    expect(first.list.map((c) => c.className)).toEqual(['Robotics C', 'Robotics B']);
    const second = await list('keyword=robotics&size=2&page=2&sort=className,desc');
    expect(second.list.map((c) => c.className)).toEqual(['Robotics A']);
    expect(second.total).toBe(3);
    // A page past the end has no row to carry the total, and still tells it.
    expect(await list('keyword=robotics&size=2&page=9')).toMatchObject({ list: [], total: 3, page: 9 });
    const byGrade = (await list('size=100&sort=grade,desc')).list.map((c) => c.grade);
    expect(byGrade).toEqual([...byGrade].sort((a, b) => b - a));
    expect((await call('adminA', 'GET', '/gw/admin/api/v1/school/classes?sort=password,asc')).statusCode).toBe(400);
    expect((await call('adminA', 'GET', '/gw/admin/api/v1/school/classes?size=101')).statusCode).toBe(400);
    const options = (await call('adminA', 'GET', '/gw/admin/api/v1/school/classes/options')).json().data as {
      className: string;
    }[];
    expect(options.length).toBe((await list('size=100')).total);
    expect(options.map((c) => c.className)).toContain('Robotics B');
  });

  it('keeps a school administrator to their own school', async () => {
    expect((await call('adminB', 'GET', '/gw/admin/api/v1/school/classes')).json().data).toMatchObject({
      list: [],
      total: 0,
    });
    expect((await call('adminB', 'GET', '/gw/admin/api/v1/school/classes/options')).json().data).toEqual([]);
    const [one] = (await call('adminA', 'GET', '/gw/admin/api/v1/school/classes')).json().data.list;
    expect((await call('adminB', 'PUT', `/gw/admin/api/v1/school/classes/${one.id}/dismiss`)).statusCode).toBe(404);
    const upgrade = await call('adminB', 'POST', '/gw/admin/api/v1/school/classes/upgrade', { classIds: [one.id] });
    expect(upgrade.json().data).toEqual({ upgraded: 0, graduated: 0 });
    const create = await call('adminB', 'POST', '/gw/admin/api/v1/school/classes', {
      schoolId: schoolA,
      eduStage: 'primary',
      grade: 1,
      className: 'Planted',
    });
    expect(create.statusCode).toBe(404);
  });
});

describe('automatic upgrades', () => {
  let t: TestApp;
  const clock = testClock(new Date('2027-08-01T09:00:00+08:00'));
  let token: string;
  let schoolId: string;

  beforeAll(async () => {
    // The clock jumps a year ahead: the test's sign-in must outlive it.
    t = await createTestApp({ now: clock.now, config: { accessTokenTtlSeconds: 3 * 365 * 86_400 } });
    const db = t.database.db;
    const customer = await buildCustomer(db);
    schoolId = (await buildSchool(db, customer.id)).id;
    const admin = await buildUser(db, { customerId: customer.id, username: 'admin', roles: [ROLES.customerAdmin] });
    token = await signIn(t.app, customer.code, 'admin', admin.password);
  });
  afterAll(() => t.close());

  const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
    t.app.inject({ method, url, payload, headers: { 'x-authorization': token } });
  const grades = async () =>
    ((await call('GET', '/gw/admin/api/v1/school/classes')).json().data.list as { grade: number }[]).map(
      (c) => c.grade,
    );

  it('runs at its time, once per year, and only once even when two servers check together', async () => {
    await call('POST', '/gw/admin/api/v1/school/classes', {
      schoolId,
      eduStage: 'primary',
      grade: 3,
      className: '3-1',
    });
    const scheduled = await call('POST', '/gw/admin/api/v1/school/classes/upgrade-schedules', {
      runAt: '2027-08-25T00:00:00+08:00',
      repeat: 'yearly',
    });
    expect(scheduled.json().data.repeat).toBe('yearly');

    expect(await runDueUpgrades(t.database.db, clock.now())).toBe(0);
    expect(await grades()).toEqual([3]);

    clock.advance(25 * 86_400_000);
    const [a, b] = await Promise.all([
      runDueUpgrades(t.database.db, clock.now()),
      runDueUpgrades(t.database.db, clock.now()),
    ]);
    expect(a + b).toBe(1);
    expect(await grades()).toEqual([4]);
    expect(await runDueUpgrades(t.database.db, clock.now())).toBe(0);

    clock.advance(365 * 86_400_000);
    expect(await runDueUpgrades(t.database.db, clock.now())).toBe(1);
    expect(await grades()).toEqual([5]);
  });

  it('refuses a time already past, which would upgrade at once', async () => {
    const res = await call('POST', '/gw/admin/api/v1/school/classes/upgrade-schedules', {
      runAt: '2027-07-31T09:00:00+08:00',
      repeat: 'once',
    });
    expect(res.json()).toMatchObject({ errorCode: '1001', data: { field: 'runAt', reason: 'past' } });
    const listed = (await call('GET', '/gw/admin/api/v1/school/classes/upgrade-schedules')).json().data;
    expect(listed.map((s: { runAt: string }) => s.runAt)).not.toContain('2027-07-31T01:00:00.000Z');
  });

  it('lists the schedules still to come and cancels one, which then never runs', async () => {
    const scheduled = await call('POST', '/gw/admin/api/v1/school/classes/upgrade-schedules', {
      runAt: '2029-08-25T00:00:00+08:00',
      repeat: 'once',
    });
    const id = scheduled.json().data.id as string;
    const listed = (await call('GET', '/gw/admin/api/v1/school/classes/upgrade-schedules')).json().data as {
      id: string;
    }[];
    expect(listed.map((s) => s.id)).toContain(id);
    const res = await t.app.inject({
      method: 'DELETE',
      url: `/gw/admin/api/v1/school/classes/upgrade-schedules/${id}`,
      headers: { 'x-authorization': token },
    });
    expect(res.json().errorCode).toBe('1000');
    const after = (await call('GET', '/gw/admin/api/v1/school/classes/upgrade-schedules')).json().data as {
      id: string;
    }[];
    expect(after.map((s) => s.id)).not.toContain(id);
    clock.advance(3 * 365 * 86_400_000);
    await runDueUpgrades(t.database.db, clock.now());
    const [row] = await t.database.db.select().from(upgradeSchedules).where(eq(upgradeSchedules.id, id));
    expect(row).toMatchObject({ active: false, lastRunAt: null });
  });
});
