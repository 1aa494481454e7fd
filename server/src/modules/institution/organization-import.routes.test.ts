import { ROLES } from '@aiedu/contracts';
import { eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customers, schools, users } from '../../platform/db/schema/index.js';
import { buildCustomer, buildUser, signIn } from '../../test/factories.js';
import { multipartFile } from '../../test/multipart.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

describe('super administrators’ import of customers and schools', () => {
  let t: TestApp;
  let superToken: string;
  let adminToken: string;

  beforeAll(async () => {
    t = await createTestApp();
    const db = t.database.db;
    const root = await buildUser(db, { username: 'root', roles: [ROLES.super] });
    superToken = await signIn(t.app, '', 'root', root.password);
    const existing = await buildCustomer(db, { code: 'Taken2026', schoolQuota: 1 });
    const admin = await buildUser(db, { customerId: existing.id, username: 'boss', roles: [ROLES.customerAdmin] });
    adminToken = await signIn(t.app, existing.code, 'boss', admin.password);
  });
  afterAll(() => t.close());

  const upload = (kind: string, fileName: string, content: Buffer, dryRun: boolean, token = superToken) => {
    const { payload, type } = multipartFile(fileName, content);
    return t.app.inject({
      method: 'POST',
      url: `/api/v1/admin_super/import?kind=${kind}&dryRun=${dryRun}`,
      payload,
      headers: { 'x-authorization': token, 'content-type': type, language: 'en' },
    });
  };
  const csv = (lines: string[]) => Buffer.from(lines.join('\n'), 'utf8');

  it('offers templates with headers in the request language', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/v1/admin_super/import/template?kind=schools',
      headers: { 'x-authorization': superToken, language: 'ja' },
    });
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    expect((book.worksheets[0]!.getRow(1).values as unknown[]).slice(1)).toEqual([
      '顧客コード',
      '学校名',
      '学段',
      'メモ',
    ]);
  });

  it('lists every bad customer row in a dry run, then imports a clean file whole, administrators included', async () => {
    const bad = await upload(
      'customers',
      'customers.csv',
      csv([
        'Customer code,Customer name,Administrator username,Administrator name,Initial password',
        'taken2026,Clash,admin,A,Start2026',
        'bad-code,Bad,admin,A,Start2026',
        'north2026,North,admin,Ms North,x',
      ]),
      true,
    );
    expect(bad.json().data.problems.map((p: { row: number; reason: string }) => [p.row, p.reason])).toEqual([
      [2, 'customerCodeTaken'],
      [3, 'badCustomerCode'],
      [4, 'badPassword'],
    ]);
    const good = csv([
      '客户编码,客户名称,管理员用户名,管理员姓名,初始密码,备注',
      'north2026,North District,admin,Ms North,Start2026,first',
      'south2026,South District,admin,Mr South,Start2026,',
    ]);
    expect((await upload('customers', 'customers.csv', good, true)).json().data).toEqual({
      total: 2,
      imported: 0,
      problems: [],
    });
    expect((await upload('customers', 'customers.csv', good, false)).json().data.imported).toBe(2);
    const [north] = await t.database.db.select().from(customers).where(eq(customers.code, 'north2026'));
    expect(north).toMatchObject({ name: 'North District', remark: 'first' });
    const [admin] = await t.database.db.select().from(users).where(eq(users.customerId, north!.id));
    expect(admin).toMatchObject({ username: 'admin', roles: [ROLES.customerAdmin], mustChangePassword: true });
  });

  it('imports schools into the customers their codes name, all or none within each quota', async () => {
    const bad = await upload(
      'schools',
      'schools.csv',
      csv(['Customer code,School name,Education stages', 'nobody01,A,primary', 'NORTH2026,B,kindergarten']),
      true,
    );
    expect(bad.json().data.problems.map((p: { reason: string }) => p.reason)).toEqual(['unknownCustomer', 'badStages']);
    const good = csv([
      'Customer code,School name,Education stages,Notes',
      'NORTH2026,North Primary,"primary, junior",by import',
      'south2026,South Senior,senior,',
    ]);
    expect((await upload('schools', 'schools.csv', good, false)).json().data.imported).toBe(2);
    const [school] = await t.database.db.select().from(schools).where(eq(schools.name, 'North Primary'));
    expect(school).toMatchObject({ eduStages: ['primary', 'junior'], notes: 'by import' });
    const over = csv(['Customer code,School name,Education stages', 'taken2026,One,primary', 'taken2026,Two,primary']);
    expect((await upload('schools', 'schools.csv', over, false)).json().errorCode).toBe('5002');
    expect(await t.database.db.select().from(schools).where(eq(schools.name, 'One'))).toEqual([]);
  });

  it('is the super administrators’ only', async () => {
    const res = await upload(
      'schools',
      'schools.csv',
      csv(['Customer code,School name,Education stages']),
      true,
      adminToken,
    );
    expect(res.statusCode).toBe(403);
  });
});
