import { ROLES } from '@aiedu/contracts';
import { eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customers, users } from '../../platform/db/schema/index.js';
import { b64, buildCustomer, buildSchool, buildUser } from '../../test/factories.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

describe('teachers and students', () => {
  let t: TestApp;
  let custcode: string;
  let customerId: string;
  let schoolId: string;
  let classId: string;
  const tokens: Record<string, string> = {};

  beforeAll(async () => {
    t = await createTestApp();
    const db = t.database.db;
    const customer = await buildCustomer(db, { teacherQuota: 1, studentQuota: 2 });
    custcode = customer.code;
    customerId = customer.id;
    schoolId = (await buildSchool(db, customer.id)).id;
    const otherSchool = (await buildSchool(db, customer.id)).id;
    const admin = await buildUser(db, { customerId, schoolId, username: 'school1', roles: [ROLES.schoolAdmin] });
    const other = await buildUser(db, {
      customerId,
      schoolId: otherSchool,
      username: 'school2',
      roles: [ROLES.schoolAdmin],
    });
    tokens.admin = (await login('school1', admin.password)).token;
    tokens.other = (await login('school2', other.password)).token;
    classId = (
      await call('admin', 'POST', '/gw/admin/api/v1/school/classes', {
        schoolId,
        eduStage: 'primary',
        grade: 4,
        className: '4-1',
      })
    ).json().data.id;
  });
  afterAll(() => t.close());

  async function login(username: string, password: string) {
    const res = await t.app.inject({
      method: 'POST',
      url: '/gw/api/v1/auth/login',
      payload: { custcode, usernameOrEmailOrPhone: username, password: b64(password) },
    });
    return res.json().data as { token: string; mustChangePassword: boolean; errorCode?: string } & Record<
      string,
      never
    >;
  }
  function call(who: string, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) {
    const token = typeof tokens[who] === 'string' ? tokens[who] : (tokens[who] as unknown as { token: string }).token;
    return t.app.inject({ method, url, payload, headers: { 'x-authorization': token!, language: 'en' } });
  }

  it('creates students within the quota, naming the quota when it is used up, and nothing half-created', async () => {
    for (const n of [1, 2]) {
      const res = await call('admin', 'POST', '/gw/admin/api/v1/school/students', {
        classId,
        username: `kid0${n}`,
        realName: `Kid ${n}`,
        password: b64('Start2026'),
      });
      expect(res.json().data).toMatchObject({ username: `kid0${n}`, classId });
    }
    const over = await call('admin', 'POST', '/gw/admin/api/v1/school/students', {
      classId,
      username: 'kid03',
      realName: 'Kid 3',
      password: b64('Start2026'),
    });
    expect(over.json()).toMatchObject({
      errorCode: '5004',
      errorMsg: 'The institution has used its quota of students',
    });
    expect(await t.database.db.select().from(users).where(eq(users.username, 'kid03'))).toEqual([]);
    const classes = (await call('admin', 'GET', '/gw/admin/api/v1/school/classes')).json().data;
    expect(classes.list[0].stuCount).toBe(2);
  });

  it('searches for % and _ as the characters themselves, not as wildcards', async () => {
    const search = async (keyword: string) =>
      (await call('admin', 'GET', `/gw/admin/api/v1/school/students?keyword=${encodeURIComponent(keyword)}`)).json()
        .data as { list: { username: string }[]; total: number };
    expect(await search('kid_1')).toMatchObject({ list: [], total: 0 });
    expect(await search('%')).toMatchObject({ list: [], total: 0 });
    expect(await search('k%1')).toMatchObject({ list: [], total: 0 });
    const plain = await search('ID0');
    expect(plain.list.map((s) => s.username)).toEqual(['kid01', 'kid02']);
    expect(plain.total).toBe(2);
  });

  it('creates a teacher, refuses a second over the quota and a taken username', async () => {
    const first = await call('admin', 'POST', '/gw/admin/api/v1/school/teachers', {
      schoolId,
      username: 'teach01',
      realName: 'Ms Li',
      phone: '13500000001',
      remark: 'Maths',
      password: b64('Start2026'),
    });
    expect(first.json().data).toMatchObject({ username: 'teach01', certified: false });
    const second = await call('admin', 'POST', '/gw/admin/api/v1/school/teachers', {
      schoolId,
      username: 'teach02',
      realName: 'Mr Wu',
      password: b64('Start2026'),
    });
    expect(second.json().errorCode).toBe('5003');
    await t.database.db.update(customers).set({ teacherQuota: null }).where(eq(customers.id, customerId));
    const taken = await call('admin', 'POST', '/gw/admin/api/v1/school/teachers', {
      schoolId,
      username: 'kid01',
      realName: 'Dup',
      password: b64('Start2026'),
    });
    expect(taken.json().errorCode).toBe('1103');
    const phoneTaken = await call('admin', 'POST', '/gw/admin/api/v1/school/teachers', {
      schoolId,
      username: 'teach03',
      realName: 'Mr Phone',
      phone: '13500000001',
      password: b64('Start2026'),
    });
    expect(phoneTaken.json()).toMatchObject({ errorCode: '1114', errorMsg: expect.stringMatching(/phone/i) });
    expect(first.json().data.creator).toBe('school1');
    const listed = (await call('admin', 'GET', '/gw/admin/api/v1/school/teachers?keyword=teach01')).json().data.list;
    expect(listed[0]).toMatchObject({ username: 'teach01', creator: 'school1' });
    const own = await call('admin', 'PUT', `/gw/admin/api/v1/school/teachers/${first.json().data.id}`, {
      phone: '13500000001',
    });
    expect(own.json().errorCode).toBe('1000');
    const fourth = await call('admin', 'POST', '/gw/admin/api/v1/school/teachers', {
      schoolId,
      username: 'teach04',
      realName: 'Ms Four',
      password: b64('Start2026'),
    });
    const clash = await call('admin', 'PUT', `/gw/admin/api/v1/school/teachers/${fourth.json().data.id}`, {
      phone: '13500000001',
    });
    expect(clash.json().errorCode).toBe('1114');
  });

  it('resets a student password (6–20), forcing a change at the next sign-in', async () => {
    const [kid] = (await call('admin', 'GET', '/gw/admin/api/v1/school/students?keyword=kid01')).json().data.list;
    expect(
      (
        await call('admin', 'PUT', `/gw/admin/api/v1/school/students/${kid.id}/password`, { password: b64('12345') })
      ).json().errorCode,
    ).toBe('1117');
    await call('admin', 'PUT', `/gw/admin/api/v1/school/students/${kid.id}/password`, { password: b64('New2026') });
    const signIn = await login('kid01', 'New2026');
    expect(signIn.mustChangePassword).toBe(true);
  });

  it('switches a student off: sign-in refused until switched on', async () => {
    const [kid] = (await call('admin', 'GET', '/gw/admin/api/v1/school/students?keyword=kid02')).json().data.list;
    await call('admin', 'PUT', `/gw/admin/api/v1/school/students/${kid.id}/status`, { enabled: false });
    const refused = await t.app.inject({
      method: 'POST',
      url: '/gw/api/v1/auth/login',
      payload: { custcode, usernameOrEmailOrPhone: 'kid02', password: b64('Start2026') },
    });
    expect(refused.json().errorCode).toBe('E003');
  });

  it('hides one school’s people from another school’s administrator', async () => {
    expect((await call('other', 'GET', '/gw/admin/api/v1/school/students')).json().data.total).toBe(0);
    const [kid] = (await call('admin', 'GET', '/gw/admin/api/v1/school/students?keyword=kid01')).json().data.list;
    expect(
      (await call('other', 'PUT', `/gw/admin/api/v1/school/students/${kid.id}/status`, { enabled: false })).statusCode,
    ).toBe(404);
    const planted = await call('other', 'POST', '/gw/admin/api/v1/school/students', {
      classId,
      username: 'planted',
      realName: 'P',
      password: b64('Start2026'),
    });
    expect(planted.statusCode).toBe(404);
  });

  it('edits a student’s name and class (only to a current class of the same school) and a teacher’s remark', async () => {
    const [kid] = (await call('admin', 'GET', '/gw/admin/api/v1/school/students?keyword=kid01')).json().data.list;
    const url = `/gw/admin/api/v1/school/students/${kid.id}`;
    expect((await call('admin', 'PUT', url, { realName: 'Kid One', schoolNumber: '2026001' })).json().errorCode).toBe(
      '1000',
    );
    const stranger = '0192f7a0-0000-7000-8000-000000000000';
    expect((await call('admin', 'PUT', url, { classId: stranger })).statusCode).toBe(404);
    const [edited] = (await call('admin', 'GET', '/gw/admin/api/v1/school/students?keyword=kid01')).json().data.list;
    expect(edited).toMatchObject({ realName: 'Kid One', schoolNumber: '2026001', classId });
    const [teacher] = (await call('admin', 'GET', '/gw/admin/api/v1/school/teachers')).json().data.list;
    await call('admin', 'PUT', `/gw/admin/api/v1/school/teachers/${teacher.id}`, { remark: 'Physics', phone: null });
    const [after] = (await call('admin', 'GET', '/gw/admin/api/v1/school/teachers')).json().data.list;
    expect(after).toMatchObject({ remark: 'Physics', phone: null });
  });

  it('exports the matching students to xlsx with headers in the request language', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/gw/admin/api/v1/school/students/export?keyword=kid',
      headers: { 'x-authorization': tokens.admin!, language: 'zh_CHS' },
    });
    expect(res.headers['content-type']).toContain('spreadsheetml');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    expect((sheet.getRow(1).values as unknown[]).slice(1)).toEqual(['用户名', '姓名', '学号', '状态', '创建时间']);
    expect(sheet.getRow(2).getCell(4).value).toMatch(/^(启用|停用)$/);
    expect(sheet.rowCount).toBe(3);
    const other = await t.app.inject({
      method: 'GET',
      url: '/gw/admin/api/v1/school/students/export',
      headers: { 'x-authorization': tokens.other! },
    });
    const empty = new ExcelJS.Workbook();
    await empty.xlsx.load(other.rawPayload as unknown as ArrayBuffer);
    expect(empty.worksheets[0]!.rowCount).toBe(1);
  });
});
