import { ROLES } from '@aiedu/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { b64, buildCustomer, buildSchool, buildUser, signIn } from '../../test/factories.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

/**
 * Every PUT of the administration families changes only the fields it was sent: one field sent, everything else
 * read back as it was (a left-out field is never blanked by a default).
 */
describe('updates of the administration families', () => {
  let t: TestApp;
  let superToken: string;
  let adminToken: string;
  const ids: Record<string, string> = {};

  const call = (token: string, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
    t.app.inject({ method, url, payload, headers: { 'x-authorization': token, language: 'en' } });
  const data = async (token: string, method: 'GET' | 'POST', url: string, payload?: object) => {
    const res = await call(token, method, url, payload);
    expect(res.json().errorCode, url).toBe('1000');
    return res.json().data;
  };
  const find = async (token: string, url: string, id: string) =>
    ((await data(token, 'GET', url)).list as { id: string }[]).find((row) => row.id === id);

  beforeAll(async () => {
    t = await createTestApp();
    const db = t.database.db;
    const root = await buildUser(db, { username: 'root', roles: [ROLES.super] });
    superToken = await signIn(t.app, '', 'root', root.password);
    const customer = await buildCustomer(db, { remark: 'kept remark', schoolQuota: 9, province: '110000' });
    ids.customer = customer.id;
    const admin = await buildUser(db, { customerId: customer.id, username: 'boss', roles: [ROLES.customerAdmin] });
    adminToken = await signIn(t.app, customer.code, 'boss', admin.password);
    ids.sub = (
      await data(adminToken, 'POST', '/api/v1/admin/sub-customers', {
        code: 'partsub01',
        name: 'Sub',
        remark: 'sub remark',
        adminUsername: 'subboss',
        adminName: 'Sub Boss',
        adminPassword: b64('Start#2026'),
      })
    ).id;
    ids.school = (
      await data(adminToken, 'POST', '/api/v1/admin_organize/schools', {
        name: 'North',
        eduStages: ['primary', 'junior'],
        notes: 'kept notes',
        listed: true,
      })
    ).id;
    ids.class = (
      await data(adminToken, 'POST', '/gw/admin/api/v1/school/classes', {
        schoolId: ids.school,
        eduStage: 'primary',
        grade: 2,
        className: '2-1',
      })
    ).id;
    ids.teacher = (
      await data(adminToken, 'POST', '/gw/admin/api/v1/school/teachers', {
        schoolId: ids.school,
        username: 'teach01',
        realName: 'Ms Teach',
        phone: '13800000001',
        remark: 'kept remark',
        password: b64('Start2026'),
      })
    ).id;
    ids.student = (
      await data(adminToken, 'POST', '/gw/admin/api/v1/school/students', {
        classId: ids.class,
        username: 'kid01',
        realName: 'Kid',
        schoolNumber: 'S-01',
        password: b64('Start2026'),
      })
    ).id;
    ids.adminUser = (
      await data(adminToken, 'POST', '/api/v1/user', {
        schoolId: ids.school,
        username: 'head01',
        realName: 'Head',
        phone: '13800000002',
        role: ROLES.schoolAdmin,
        password: b64('Start2026'),
        alsoTeacher: true,
      })
    ).id;
    await buildSchool(db, customer.id);
  });
  afterAll(() => t.close());

  const cases: { name: string; put: () => [string, string, object]; read: () => Promise<object | undefined> }[] = [
    {
      name: 'customer',
      put: () => [superToken, `/api/v1/admin_super/organizes/${ids.customer}`, { name: 'Renamed' }],
      read: () => find(superToken, '/api/v1/admin_super/organizes?size=100', ids.customer!),
    },
    {
      name: 'sub-customer',
      put: () => [adminToken, `/api/v1/admin/sub-customers/${ids.sub}`, { name: 'Renamed' }],
      read: async () =>
        ((await data(adminToken, 'GET', '/api/v1/admin/sub-customers')) as { id: string }[]).find(
          (row) => row.id === ids.sub,
        ),
    },
    {
      name: 'school',
      put: () => [adminToken, `/api/v1/admin_organize/schools/${ids.school}`, { name: 'Renamed' }],
      read: () => find(adminToken, '/api/v1/admin_organize/schools', ids.school!),
    },
    {
      name: 'teacher',
      put: () => [adminToken, `/gw/admin/api/v1/school/teachers/${ids.teacher}`, { realName: 'Renamed' }],
      read: () => find(adminToken, '/gw/admin/api/v1/school/teachers', ids.teacher!),
    },
    {
      name: 'student',
      put: () => [adminToken, `/gw/admin/api/v1/school/students/${ids.student}`, { realName: 'Renamed' }],
      read: () => find(adminToken, '/gw/admin/api/v1/school/students', ids.student!),
    },
    {
      name: 'administrator account',
      put: () => [adminToken, `/api/v1/user/${ids.adminUser}`, { realName: 'Renamed' }],
      read: () => find(adminToken, '/api/v1/user', ids.adminUser!),
    },
  ];

  it.each(cases)('$name: one field sent, the others unchanged', async ({ put, read }) => {
    const before = (await read()) as Record<string, unknown>;
    expect(before).toBeDefined();
    const [token, url, body] = put();
    const res = await call(token, 'PUT', url, body);
    expect(res.json().errorCode).toBe('1000');
    const after = (await read()) as Record<string, unknown>;
    expect(after).toEqual({ ...before, ...body });
  });

  it('institution home: project types sent, banner links and footer sites unchanged', async () => {
    const full = { bannerLinks: ['https://a.example/'], projectTypes: ['AI'], footerSites: [] };
    expect((await call(adminToken, 'PUT', '/api/v1/admin/institution-home', full)).json().errorCode).toBe('1000');
    await call(adminToken, 'PUT', '/api/v1/admin/institution-home', {
      footerSites: [{ name: 'Site', url: 'https://s.example/' }],
    });
    expect(
      (await call(adminToken, 'PUT', '/api/v1/admin/institution-home', { projectTypes: ['Robots'] })).json().errorCode,
    ).toBe('1000');
    const [customer] = (await data(superToken, 'GET', '/api/v1/admin_super/organizes?size=100')).list.filter(
      (c: { id: string }) => c.id === ids.customer,
    );
    const home = await data(superToken, 'GET', `/gw/api/v1/school/home?custcode=${customer.code}`);
    expect(home).toMatchObject({
      projectTypes: ['Robots'],
      footerSites: [{ name: 'Site', url: 'https://s.example/' }],
    });
    expect(home.banners).toEqual([]);
  });

  it('a period update without its required fields is refused, not blanked', async () => {
    const period = await data(adminToken, 'POST', '/api/v1/admin_organize/periods', {
      name: 'Autumn',
      startDate: '2026-09-01',
      endDate: '2027-01-20',
    });
    const res = await call(adminToken, 'PUT', `/api/v1/admin_organize/periods/${period.id}`, { name: 'Spring' });
    expect(res.statusCode).toBe(400);
  });
});
