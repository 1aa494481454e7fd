import { ROLES } from '@aiedu/contracts';
import { eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseQueue } from '../../platform/archive/worker.js';
import { operationLogs, students, teachers, users } from '../../platform/db/schema/index.js';
import { b64, buildCustomer, buildSchool, buildUser, signIn } from '../../test/factories.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { deflatedPart, repeatedSheet, sheetRow, sheetXml, xlsxAround } from '../../test/zip-builder.js';

async function xlsx(rows: (string | number)[][]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('S');
  rows.forEach((r) => sheet.addRow(r));
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

function multipart(fileName: string, content: Buffer) {
  const boundary = '----import-boundary';
  return {
    body: Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\n\r\n`),
      content,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]),
    type: `multipart/form-data; boundary=${boundary}`,
  };
}

/** A test app with a customer, its school and the customer's administrator signed in; `upload` posts an import. */
async function customerAdminWorld(overrides: Parameters<typeof buildCustomer>[1] = {}) {
  const t = await createTestApp();
  const customer = await buildCustomer(t.database.db, overrides);
  const schoolId = (await buildSchool(t.database.db, customer.id)).id;
  const admin = await buildUser(t.database.db, {
    customerId: customer.id,
    username: 'admin',
    roles: [ROLES.customerAdmin],
  });
  const token = await signIn(t.app, customer.code, 'admin', admin.password);
  const upload = (kind: 'teacher' | 'student', content: Buffer, dryRun: boolean, language: string) => {
    const { body, type } = multipart(`${kind}s.xlsx`, content);
    return t.app.inject({
      method: 'POST',
      url: `/gw/admin/api/v1/school/${kind}s/import?schoolId=${schoolId}&dryRun=${dryRun}`,
      payload: body,
      headers: { 'content-type': type, 'x-authorization': token, language },
    });
  };
  return { t, customerId: customer.id, token, upload };
}

describe('student import from xlsx and CSV', () => {
  let t: TestApp;
  let token: string;
  let schoolId: string;
  let customerId: string;
  let custcode: string;

  beforeAll(async () => {
    t = await createTestApp();
    const db = t.database.db;
    const customer = await buildCustomer(db, { studentQuota: 5 });
    customerId = customer.id;
    custcode = customer.code;
    schoolId = (await buildSchool(db, customer.id)).id;
    const admin = await buildUser(db, { customerId, schoolId, username: 'school1', roles: [ROLES.schoolAdmin] });
    await buildUser(db, { customerId, username: 'taken01' });
    token = await signIn(t.app, customer.code, 'school1', admin.password);
    await t.app.inject({
      method: 'POST',
      url: '/gw/admin/api/v1/school/classes',
      headers: { 'x-authorization': token },
      payload: { schoolId, eduStage: 'primary', grade: 4, className: 'Grade 4 Class 1' },
    });
  });
  afterAll(() => t.close());

  const upload = (fileName: string, content: Buffer, dryRun: boolean, language = 'en') => {
    const { body, type } = multipart(fileName, content);
    return t.app.inject({
      method: 'POST',
      url: `/gw/admin/api/v1/school/students/import?schoolId=${schoolId}&dryRun=${dryRun}`,
      payload: body,
      headers: { 'content-type': type, 'x-authorization': token, language },
    });
  };

  it('serves a template in the administrator’s language that imports as it is', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/gw/admin/api/v1/school/students/template',
      headers: { 'x-authorization': token, language: 'zh_CHS' },
    });
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    expect(workbook.worksheets[0]!.getRow(1).values).toEqual([undefined, '用户名', '姓名', '班级', '学号', '初始密码']);
    const dry = await upload('template.xlsx', res.rawPayload, true, 'zh_CHS');
    expect(dry.json().data).toEqual({ total: 1, imported: 0, problems: [] });
  });

  it('reports every bad row with its number and reason in a dry run, and imports nothing', async () => {
    const file = await xlsx([
      ['Username', 'Name', 'Class', 'School number', 'Initial password'],
      ['good01', 'Good One', 'Grade 4 Class 1', '1', 'Start2026'],
      ['bad name!', 'X', 'Grade 4 Class 1', '2', 'Start2026'],
      ['dup01', 'Dup A', 'Grade 4 Class 1', '3', 'Start2026'],
      ['dup01', 'Dup B', 'Grade 4 Class 1', '4', 'Start2026'],
      ['taken01', 'Taken', 'Grade 4 Class 1', '5', 'Start2026'],
      ['lost01', 'Lost', 'Grade 9 Class 9', '6', 'Start2026'],
      ['short01', 'Short', 'Grade 4 Class 1', '7', '123'],
    ]);
    const res = await upload('students.xlsx', file, true);
    expect(res.json().data.problems.map((p: { row: number; reason: string }) => [p.row, p.reason])).toEqual([
      [3, 'badUsername'],
      [4, 'duplicateInFile'],
      [5, 'duplicateInFile'],
      [6, 'usernameTaken'],
      [7, 'unknownClass'],
      [8, 'badPassword'],
    ]);
    expect(res.json().data.problems[3].message).toBe('This username is already registered');
    const real = await upload('students.xlsx', file, false);
    expect(real.json().data.imported).toBe(0);
    expect(await t.database.db.select().from(users).where(eq(users.username, 'good01'))).toEqual([]);
  });

  it('refuses rows past the student quota', async () => {
    const rows = [['Username', 'Name', 'Class', 'Initial password']];
    for (let i = 1; i <= 6; i++) rows.push([`quota0${i}`, `Kid ${i}`, 'Grade 4 Class 1', 'Start2026']);
    const res = await upload('many.xlsx', await xlsx(rows), true);
    expect(res.json().data.problems).toEqual([
      { row: 7, reason: 'quotaExceeded', message: 'The institution’s quota would be exceeded' },
    ]);
  });

  it('imports a clean CSV file all at once, each student in the class and made to change the password', async () => {
    const csv = Buffer.from(
      'Username,Name,Class,School number,Initial password\nnew01,New One,Grade 4 Class 1,2023001,Start2026\nnew02,新二,Grade 4 Class 1,2023002,Start2026\n',
    );
    const res = await upload('students.csv', csv, false);
    expect(res.json().data).toEqual({ total: 2, imported: 2, problems: [] });
    const rows = await t.database.db
      .select({
        username: users.username,
        realName: users.realName,
        must: users.mustChangePassword,
        number: students.schoolNumber,
      })
      .from(students)
      .innerJoin(users, eq(users.id, students.userId))
      .where(eq(students.customerId, customerId))
      .orderBy(users.username);
    expect(rows).toEqual([
      { username: 'new01', realName: 'New One', must: true, number: '2023001' },
      { username: 'new02', realName: '新二', must: true, number: '2023002' },
    ]);
    const login = await t.app.inject({
      method: 'POST',
      url: '/gw/api/v1/auth/login',
      payload: { custcode, usernameOrEmailOrPhone: 'new01', password: b64('Start2026') },
    });
    expect(login.json().data.mustChangePassword).toBe(true);
  });

  it('says which columns are missing', async () => {
    const res = await upload(
      'odd.xlsx',
      await xlsx([
        ['Foo', 'Bar'],
        ['a', 'b'],
      ]),
      true,
    );
    expect(res.json().data.problems[0]).toMatchObject({ row: 1, reason: 'missingColumns' });
  });
});

describe('teacher import', () => {
  let world: Awaited<ReturnType<typeof customerAdminWorld>>;

  beforeAll(async () => {
    world = await customerAdminWorld({ teacherQuota: 3 });
  });
  afterAll(() => world.t.close());

  const upload = (content: Buffer, dryRun: boolean) => world.upload('teacher', content, dryRun, 'en');

  it('serves its own template with phone and remark columns', async () => {
    const res = await world.t.app.inject({
      method: 'GET',
      url: '/gw/admin/api/v1/school/teachers/template',
      headers: { 'x-authorization': world.token, language: 'ja' },
    });
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    expect(workbook.worksheets[0]!.getRow(1).values).toEqual([
      undefined,
      'ユーザー名',
      '氏名',
      '電話番号',
      '備考',
      '初期パスワード',
    ]);
  });

  it('reports bad phones, long remarks and the quota, then imports a clean file all at once', async () => {
    const header = ['Username', 'Name', 'Phone', 'Remark', 'Initial password'];
    const bad = await xlsx([
      header,
      ['t01', 'One', '12345', '', 'Start2026'],
      ['t02', 'Two', '13800000000', 'x'.repeat(101), 'Start2026'],
      ['t03', 'Three', '', '', 'Start2026'],
      ['t04', 'Four', '', '', 'Start2026'],
      ['t05', 'Five', '', '', 'Start2026'],
      ['t06', 'Six', '', '', 'Start2026'],
    ]);
    const dry = await upload(bad, true);
    expect(dry.json().data.problems.map((p: { row: number; reason: string }) => [p.row, p.reason])).toEqual([
      [2, 'badPhone'],
      [3, 'badRemark'],
      [7, 'quotaExceeded'],
    ]);
    const good = await xlsx([
      header,
      ['t11', 'Eleven', '13800000011', 'Maths', 'Start2026'],
      ['t12', 'Twelve', '', '', 'Start2026'],
    ]);
    expect((await upload(good, false)).json().data).toEqual({ total: 2, imported: 2, problems: [] });
    const rows = await world.t.database.db
      .select({ username: users.username, phone: users.phone, remark: teachers.remark, roles: users.roles })
      .from(teachers)
      .innerJoin(users, eq(users.id, teachers.userId))
      .where(eq(teachers.customerId, world.customerId))
      .orderBy(users.username);
    expect(rows).toEqual([
      { username: 't11', phone: '13800000011', remark: 'Maths', roles: [ROLES.teacher] },
      { username: 't12', phone: null, remark: '', roles: [ROLES.teacher] },
    ]);
  });
});

describe('import files that would hold the server', () => {
  let world: Awaited<ReturnType<typeof customerAdminWorld>>;

  beforeAll(async () => {
    world = await customerAdminWorld();
  });
  afterAll(() => world.t.close());

  const upload = (content: Buffer, language: string) => world.upload('student', content, false, language);
  const header = sheetRow(1, ['Username', 'Name', 'Class', 'Initial password']);
  const nothingWritten = async () => {
    const { db } = world.t.database;
    expect(await db.select().from(users).where(eq(users.customerId, world.customerId))).toHaveLength(1);
    expect(await db.select().from(operationLogs).where(eq(operationLogs.customerId, world.customerId))).toEqual([]);
  };

  it('refuses a 1 MB file whose sheet inflates to 400 MB before inflating it, in the caller’s language', async () => {
    const unit = sheetRow(2, ['kid01', 'Kid', 'Grade 4 Class 1', 'Start2026']).repeat(4096);
    const bomb = xlsxAround(repeatedSheet(unit, Math.ceil((400 * 1024 * 1024) / unit.length)));
    expect(bomb.length).toBeLessThan(2 * 1024 * 1024);
    const res = await upload(bomb, 'zh_CHS');
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ errorCode: '2006', errorMsg: '文件过大', data: { reason: 'bytes' } });
    await nothingWritten();
  });

  it('refuses an archive of too many files', async () => {
    const extra = Array.from({ length: 500 }, (_, i) => deflatedPart(`xl/media/image${i}.png`, 'x'));
    const res = await upload(xlsxAround(deflatedPart('xl/worksheets/sheet1.xml', sheetXml(header)), extra), 'en');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      errorCode: '3014',
      errorMsg: 'The archive contains too many files',
      data: { reason: 'entries', max: 500 },
    });
    await nothingWritten();
  });

  it('refuses a sheet that inflates past the size its header declares, and an entry named to climb out', async () => {
    const unit = sheetRow(2, ['kid01', 'Kid', 'Grade 4 Class 1', 'Start2026']).repeat(64);
    const lying = { ...repeatedSheet(unit, 10_000), size: 4096 };
    const res = await upload(xlsxAround(lying), 'ja');
    expect(res.json()).toMatchObject({
      errorCode: '1001',
      errorMsg: 'リクエストパラメータが正しくありません',
      data: { reason: 'declared' },
    });
    const slip = deflatedPart('../../../../tmp/evil.sh', 'echo owned');
    const named = await upload(xlsxAround(deflatedPart('xl/worksheets/sheet1.xml', sheetXml(header)), [slip]), 'en');
    expect(named.json()).toMatchObject({ errorCode: '1001', data: { reason: 'name' } });
    await nothingWritten();
  });

  it('refuses more than 10,000 rows at the first one past them, answering others meanwhile', async () => {
    const rows = Array.from({ length: 30_000 }, (_, i) =>
      sheetRow(i + 2, [`kid${i}`, `Kid ${i}`, 'Grade 4 Class 1', 'Start2026']),
    );
    const file = xlsxAround(deflatedPart('xl/worksheets/sheet1.xml', sheetXml(header + rows.join(''))));
    let answered = false;
    const importing = upload(file, 'en').finally(() => {
      answered = true;
    });
    while (parseQueue().running === 0) await new Promise((resolve) => setImmediate(resolve));
    const health = await world.t.app.inject({ method: 'GET', url: '/healthz' });
    expect(health.json()).toEqual({ status: 'ok' });
    expect(answered).toBe(false);
    const res = await importing;
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ errorCode: '2006', data: { reason: 'rows', max: 10_001 } });
    await nothingWritten();
  });
});
