import { ROLES } from '@aiedu/contracts';
import ExcelJS from 'exceljs';
import { desc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operationLogs, schools, users } from '../../platform/db/schema/index.js';
import { b64, buildUser, signIn as signInAs } from '../../test/factories.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

describe('customers and schools', () => {
  let t: TestApp;
  let superToken: string;

  beforeAll(async () => {
    t = await createTestApp({ config: { trustProxy: true } });
    const root = await buildUser(t.database.db, { username: 'root', roles: [ROLES.super] });
    superToken = await signIn('', 'root', root.password);
  });
  afterAll(() => t.close());

  async function signIn(custcode: string, username: string, password: string) {
    const res = await t.app.inject({
      method: 'POST',
      url: '/gw/api/v1/auth/login',
      payload: { custcode, usernameOrEmailOrPhone: username, password: b64(password) },
    });
    return res.json().data.token as string;
  }
  const call = (token: string, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
    t.app.inject({
      method,
      url,
      payload,
      headers: { 'x-authorization': token, language: 'en', 'x-forwarded-for': '192.0.2.10' },
    });

  it('creates a customer with its administrator, logs it with the password masked, and lists it', async () => {
    const res = await call(superToken, 'POST', '/api/v1/admin_super/organizes', {
      code: 'district01',
      name: 'District One',
      schoolQuota: 2,
      adminUsername: 'admin',
      adminName: 'Ms Admin',
      adminPassword: b64('Start#2026'),
    });
    expect(res.json().data).toMatchObject({ code: 'district01', schoolQuota: 2, enabled: true, schoolCount: 0 });
    const [log] = await t.database.db.select().from(operationLogs).orderBy(desc(operationLogs.createdAt)).limit(1);
    expect(log).toMatchObject({ module: 'customer', operation: 'create', ip: '192.0.2.10' });
    expect(JSON.stringify(log!.params)).not.toContain(b64('Start#2026'));
    expect((log!.params as { adminPassword: string }).adminPassword).toBe('******');

    const list = await call(superToken, 'GET', '/api/v1/admin_super/organizes?keyword=district&sort=code,asc');
    expect(list.json().data).toMatchObject({ total: 1, page: 1, size: 20 });

    const duplicate = await call(superToken, 'POST', '/api/v1/admin_super/organizes', {
      code: 'district01',
      name: 'Again',
      adminUsername: 'admin',
      adminName: 'X',
      adminPassword: b64('Start#2026'),
    });
    expect(duplicate.json()).toMatchObject({ errorCode: '5001', errorMsg: 'This customer code is already in use' });
    expect(
      (await call(superToken, 'POST', '/api/v1/admin_super/organizes', { code: 'bad-code', name: 'x' })).statusCode,
    ).toBe(400);
  });

  it('makes the new administrator change the password, then lets them manage schools within the quota', async () => {
    const first = await signIn('district01', 'admin', 'Start#2026');
    expect((await call(first, 'GET', '/api/v1/admin_organize/schools')).json().errorCode).toBe('1118');
    const changed = await call(first, 'PUT', '/gw/api/v1/auth/pwd/default', { newPasswd: b64('Mine#2026x') });
    const admin = changed.json().data.token as string;

    for (const name of ['North Primary', 'South Primary']) {
      const res = await call(admin, 'POST', '/api/v1/admin_organize/schools', { name, eduStages: ['primary'] });
      expect(res.json().errorCode).toBe('1000');
    }
    const third = await call(admin, 'POST', '/api/v1/admin_organize/schools', {
      name: 'West Primary',
      eduStages: ['primary'],
    });
    expect(third.statusCode).toBe(409);
    expect(third.json()).toMatchObject({
      errorCode: '5002',
      errorMsg: 'The institution has used its quota of schools',
      data: { quota: 2 },
    });
    const [{ n } = { n: 0 }] = await t.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(schools)
      .where(eq(schools.name, 'West Primary'));
    expect(n).toBe(0);
    const list = await call(admin, 'GET', '/api/v1/admin_organize/schools?sort=name,asc');
    expect(list.json().data.list.map((s: { name: string }) => s.name)).toEqual(['North Primary', 'South Primary']);
  });

  it('keeps customer codes without regard to case: one customer, signed into with any case, and its creator', async () => {
    const res = await call(superToken, 'POST', '/api/v1/admin_super/organizes', {
      code: 'h2test01',
      name: 'Case One',
      adminUsername: 'admin',
      adminName: 'Ms Case',
      adminPassword: b64('Start#2026'),
    });
    expect(res.json().data).toMatchObject({ code: 'h2test01', creator: 'root' });
    const again = await call(superToken, 'POST', '/api/v1/admin_super/organizes', {
      code: 'H2TEST01',
      name: 'Case Two',
      adminUsername: 'admin',
      adminName: 'Mr Case',
      adminPassword: b64('Start#2026'),
    });
    expect(again.json().errorCode).toBe('5001');
    for (const custcode of ['H2test01', 'H2TEST01']) {
      const login = await t.app.inject({
        method: 'POST',
        url: '/gw/api/v1/auth/login',
        payload: { custcode, usernameOrEmailOrPhone: 'admin', password: b64('Start#2026') },
      });
      expect(login.json().errorCode).toBe('1000');
    }
    const home = await call(superToken, 'GET', '/gw/api/v1/school/home?custcode=H2TEST01');
    expect(home.json().data).toMatchObject({ custcode: 'h2test01', name: 'Case One' });
  });

  it('switches a customer off: its users cannot sign in until it is switched on again', async () => {
    const [customer] = (await call(superToken, 'GET', '/api/v1/admin_super/organizes?keyword=district01')).json().data
      .list;
    expect(
      (await call(superToken, 'PUT', `/api/v1/admin_super/organizes/${customer.id}/status`, { enabled: false })).json()
        .data.enabled,
    ).toBe(false);
    const refused = await t.app.inject({
      method: 'POST',
      url: '/gw/api/v1/auth/login',
      payload: { custcode: 'district01', usernameOrEmailOrPhone: 'admin', password: b64('Mine#2026x') },
    });
    expect(refused.json().errorCode).toBe('E003');
    await call(superToken, 'PUT', `/api/v1/admin_super/organizes/${customer.id}/status`, { enabled: true });
    expect(await signIn('district01', 'admin', 'Mine#2026x')).toBeTruthy();
  });

  it('keeps a customer administrator inside their own customer', async () => {
    const other = await call(superToken, 'POST', '/api/v1/admin_super/organizes', {
      code: 'district02',
      name: 'District Two',
      adminUsername: 'admin',
      adminName: 'Mr Other',
      adminPassword: b64('Start#2026'),
    });
    const otherId = other.json().data.id;
    await t.database.db.update(users).set({ mustChangePassword: false }).where(eq(users.customerId, otherId));
    const otherAdmin = await signIn('district02', 'admin', 'Start#2026');
    expect((await call(otherAdmin, 'GET', '/api/v1/admin_organize/schools')).json().data.total).toBe(0);
    const [school] = await t.database.db.select().from(schools).where(eq(schools.name, 'North Primary'));
    const foreign = await call(otherAdmin, 'PUT', `/api/v1/admin_organize/schools/${school!.id}`, {
      name: 'Taken over',
    });
    expect(foreign.statusCode).toBe(404);
    const sneaky = await call(otherAdmin, 'POST', '/api/v1/admin_organize/schools', {
      name: 'Planted',
      eduStages: ['primary'],
      customerId: school!.customerId,
    });
    expect(sneaky.json().data.customerId).toBe(otherId);
    expect((await call(otherAdmin, 'GET', '/api/v1/admin_super/organizes')).statusCode).toBe(403);
  });

  it('lets a customer administrator create a sub-customer whose administrator sees only its subtree', async () => {
    const parent = await signIn('district01', 'admin', 'Mine#2026x');
    const sub = await call(parent, 'POST', '/api/v1/admin/sub-customers', {
      code: 'district01east',
      name: 'East Area',
      adminUsername: 'eastadmin',
      adminName: 'East Admin',
      adminPassword: b64('Start#2026'),
    });
    // A sub-customer's schools count against its parent's quota too, which the parent's two schools use up.
    expect(sub.json().data).toMatchObject({ code: 'district01east', parentId: expect.any(String), schoolQuota: 2 });
    await call(superToken, 'PUT', `/api/v1/admin_super/organizes/${sub.json().data.parentId}`, { schoolQuota: 3 });
    const subId = sub.json().data.id;
    await t.database.db.update(users).set({ mustChangePassword: false }).where(eq(users.customerId, subId));
    const subAdmin = await signIn('district01east', 'eastadmin', 'Start#2026');
    const school = await call(subAdmin, 'POST', '/api/v1/admin_organize/schools', {
      name: 'East Primary',
      eduStages: ['primary'],
    });
    expect(school.json().data.customerId).toBe(subId);
    const subSchools = (await call(subAdmin, 'GET', '/api/v1/admin_organize/schools')).json().data.list;
    expect(subSchools.map((s: { name: string }) => s.name)).toEqual(['East Primary']);
    const parentSchools = (await call(parent, 'GET', '/api/v1/admin_organize/schools?sort=name,asc')).json().data.list;
    expect(parentSchools.map((s: { name: string }) => s.name)).toEqual([
      'East Primary',
      'North Primary',
      'South Primary',
    ]);
    expect(
      (await call(parent, 'GET', '/api/v1/admin/sub-customers')).json().data.map((c: { code: string }) => c.code),
    ).toEqual(['district01east']);
    const [north] = parentSchools.filter((s: { name: string }) => s.name === 'North Primary');
    expect(
      (await call(subAdmin, 'PUT', `/api/v1/admin_organize/schools/${north.id}`, { name: 'Mine now' })).statusCode,
    ).toBe(404);
  });

  it('keeps the region, container types and course packages, and names the administrator', async () => {
    const pkg = (
      await call(superToken, 'POST', '/api/v1/courses/packages', { name: 'AI basics', courseIds: [] })
    ).json().data;
    const res = await call(superToken, 'POST', '/api/v1/admin_super/organizes', {
      code: 'region2026',
      name: 'Region',
      country: 'CN',
      province: '44',
      city: '4401',
      district: '440106',
      containerTypes: ['BASIC', 'GPU'],
      coursePackages: [pkg.id],
      adminUsername: 'radmin',
      adminName: 'Region Admin',
      adminPassword: b64('Start#2026'),
    });
    expect(res.json().data).toMatchObject({
      province: '44',
      district: '440106',
      containerTypes: ['BASIC', 'GPU'],
      coursePackages: [{ id: pkg.id, name: 'AI basics' }],
      adminUsername: 'radmin',
      adminName: 'Region Admin',
    });
    // One record: the package names the customer, and the customer the package, whichever side set it.
    const packages = (await call(superToken, 'GET', '/api/v1/courses/packages')).json().data.list;
    expect(packages.find((p: { id: string }) => p.id === pkg.id).customerIds).toEqual([res.json().data.id]);
    const other = (
      await call(superToken, 'POST', '/api/v1/courses/packages', { name: 'Robotics', courseIds: [] })
    ).json().data;
    await call(superToken, 'PUT', `/api/v1/courses/packages/${other.id}/customers`, {
      customerIds: [res.json().data.id],
    });
    const listed = (await call(superToken, 'GET', '/api/v1/admin_super/organizes?keyword=region2026')).json().data
      .list[0];
    expect(listed.coursePackages.map((p: { name: string }) => p.name)).toEqual(['AI basics', 'Robotics']);
    const cleared = await call(superToken, 'PUT', `/api/v1/admin_super/organizes/${res.json().data.id}`, {
      coursePackages: [other.id],
    });
    expect(cleared.json().data.coursePackages).toEqual([{ id: other.id, name: 'Robotics' }]);
    const unknown = await call(superToken, 'PUT', `/api/v1/admin_super/organizes/${res.json().data.id}`, {
      coursePackages: ['0192f7a0-0000-7000-8000-000000000000'],
    });
    expect(unknown.json()).toMatchObject({
      errorCode: '1004',
      data: { coursePackages: ['0192f7a0-0000-7000-8000-000000000000'] },
    });
    const updated = await call(superToken, 'PUT', `/api/v1/admin_super/organizes/${res.json().data.id}`, {
      containerTypes: ['ADVANCED'],
    });
    expect(updated.json().data).toMatchObject({ containerTypes: ['ADVANCED'], adminUsername: 'radmin' });
    expect(
      (
        await call(superToken, 'PUT', `/api/v1/admin_super/organizes/${res.json().data.id}`, {
          containerTypes: ['TPU'],
        })
      ).statusCode,
    ).toBe(400);
  });

  it('lets a customer administrator change and switch its sub-customers, but not its own customer', async () => {
    const parent = await signIn('district01', 'admin', 'Mine#2026x');
    const [sub] = (await call(parent, 'GET', '/api/v1/admin/sub-customers')).json().data;
    const renamed = await call(parent, 'PUT', `/api/v1/admin/sub-customers/${sub.id}`, { name: 'East District' });
    expect(renamed.json().data).toMatchObject({ name: 'East District', adminUsername: 'eastadmin' });
    const off = await call(parent, 'PUT', `/api/v1/admin/sub-customers/${sub.id}/status`, { enabled: false });
    expect(off.json().data.enabled).toBe(false);
    const refused = await t.app.inject({
      method: 'POST',
      url: '/gw/api/v1/auth/login',
      payload: { custcode: 'district01east', usernameOrEmailOrPhone: 'eastadmin', password: b64('Start#2026') },
    });
    expect(refused.json().errorCode).not.toBe('1000');
    await call(parent, 'PUT', `/api/v1/admin/sub-customers/${sub.id}/status`, { enabled: true });
    const [own] = await t.database.db.select().from(users).where(eq(users.username, 'admin')).limit(1);
    const ownStatus = await call(parent, 'PUT', `/api/v1/admin/sub-customers/${own!.customerId}/status`, {
      enabled: false,
    });
    expect(ownStatus.statusCode).toBe(404);
  });

  it('refuses to change or remove an operation log, even from inside the database', async () => {
    const [log] = await t.database.db.select().from(operationLogs).limit(1);
    await expect(
      t.database.db.update(operationLogs).set({ module: 'x' }).where(eq(operationLogs.id, log!.id)),
    ).rejects.toThrow();
    await expect(t.database.db.delete(operationLogs).where(eq(operationLogs.id, log!.id))).rejects.toThrow();
    const [still] = await t.database.db.select().from(operationLogs).where(eq(operationLogs.id, log!.id));
    expect(still?.module).toBe(log!.module);
  });
});

describe('operation log search and export', () => {
  let t: TestApp;
  const tokens: Record<string, string> = {};

  beforeAll(async () => {
    t = await createTestApp();
    const root = await buildUser(t.database.db, { username: 'root', roles: [ROLES.super], realName: 'Root' });
    const login = async (custcode: string, username: string, password: string) =>
      await signInAs(t.app, custcode, username, password);
    tokens.super = await login('', 'root', root.password);
    for (const code of ['logsone01', 'logstwo02']) {
      await t.app.inject({
        method: 'POST',
        url: '/api/v1/admin_super/organizes',
        headers: { 'x-authorization': tokens.super },
        payload: { code, name: code, adminUsername: 'admin', adminName: 'Admin', adminPassword: b64('Start#2026') },
      });
    }
    await t.database.db.update(users).set({ mustChangePassword: false });
    tokens.one = await login('logsone01', 'admin', 'Start#2026');
    tokens.two = await login('logstwo02', 'admin', 'Start#2026');
    await t.app.inject({
      method: 'POST',
      url: '/api/v1/admin_organize/schools',
      headers: { 'x-authorization': tokens.one },
      payload: { name: 'Logged School', eduStages: ['primary'] },
    });
  });
  afterAll(() => t.close());

  const search = (who: string, query = '') =>
    t.app.inject({ method: 'GET', url: `/api/v1/admin/logs${query}`, headers: { 'x-authorization': tokens[who]! } });

  it('finds entries by module and operator, each customer seeing only its own', async () => {
    const mine = (await search('one', '?module=school')).json().data;
    expect(mine.total).toBe(1);
    expect(mine.list[0]).toMatchObject({ module: 'school', operation: 'create', operatorName: 'Admin (admin)' });
    expect((await search('two', '?module=school')).json().data.total).toBe(0);
    expect((await search('super', '?module=customer&operator=Root')).json().data.total).toBe(2);
    const future = (await search('super', `?from=${encodeURIComponent('2099-01-01T00:00:00+08:00')}`)).json().data;
    expect(future.total).toBe(0);
  });

  it('shows school staff only the entries of their own school’s operators', async () => {
    const [school] = await t.database.db.select().from(schools).where(eq(schools.name, 'Logged School'));
    const staff = await buildUser(t.database.db, {
      customerId: school!.customerId,
      schoolId: school!.id,
      username: 'school1',
      roles: [ROLES.schoolAdmin],
    });
    const token = await signInAs(t.app, 'logsone01', 'school1', staff.password);
    const seen = await t.app.inject({
      method: 'GET',
      url: '/api/v1/admin/logs',
      headers: { 'x-authorization': token },
    });
    expect(seen.json().data.total).toBe(0);
    await t.app.inject({
      method: 'POST',
      url: '/gw/admin/api/v1/school/classes',
      headers: { 'x-authorization': token },
      payload: { schoolId: school!.id, eduStage: 'primary', grade: 1, className: '1-1' },
    });
    const own = await t.app.inject({ method: 'GET', url: '/api/v1/admin/logs', headers: { 'x-authorization': token } });
    expect(own.json().data.list.map((l: { module: string }) => l.module)).toEqual(['class']);
  });

  it('exports them to an xlsx workbook, with headers in the request language', async () => {
    const headers = async (language: string) => {
      const res = await t.app.inject({
        method: 'GET',
        url: '/api/v1/admin/logs/export?module=customer',
        headers: { 'x-authorization': tokens.super!, language },
      });
      const book = new ExcelJS.Workbook();
      await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
      return (book.worksheets[0]!.getRow(1).values as unknown[]).slice(1);
    };
    expect(await headers('en')).toEqual(['Time', 'Operator', 'Module', 'Operation', 'IP', 'Parameters']);
    expect(await headers('ja')).toEqual(['日時', '操作者', 'モジュール', '操作', 'IP', 'パラメーター']);
    const res = await search('super', '/export?module=customer');
    expect(res.headers['content-type']).toContain('spreadsheetml');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    expect(sheet.getRow(1).getCell(2).value).toBe('操作人');
    expect(sheet.rowCount).toBe(3);
    expect(String(sheet.getRow(2).getCell(3).value)).toBe('customer');
  });

  it('offers no way to change or delete a log', async () => {
    const id = (await search('super')).json().data.list[0].id;
    for (const method of ['PUT', 'DELETE', 'PATCH'] as const) {
      const res = await t.app.inject({
        method,
        url: `/api/v1/admin/logs/${id}`,
        headers: { 'x-authorization': tokens.super! },
      });
      expect(res.statusCode).toBe(404);
    }
  });
});
