import { GROUP_API, ROLES, groupApi } from '@aiedu/contracts';
import { and, eq, inArray } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customers, groupMembers, students, teachers, users } from '../../platform/db/schema/index.js';
import { b64, buildCustomer, buildSchool, buildUser, signIn } from '../../test/factories.js';
import { multipartFile } from '../../test/multipart.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

const row = (username: string, phone: string, password = 'Start2026') => ({ username, phone, password: b64(password) });

describe('group batch registration', () => {
  let t: TestApp;
  let customerId: string;
  let schoolId: string;
  let groupId: string;
  const tokens: Record<string, string> = {};

  const call = (who: string, method: 'GET' | 'POST', url: string, payload?: object) =>
    t.app.inject({ method, url, payload, headers: { 'x-authorization': tokens[who]!, language: 'en' } });

  beforeAll(async () => {
    t = await createTestApp();
    const db = t.database.db;
    const customer = await buildCustomer(db, { studentQuota: 6 });
    customerId = customer.id;
    schoolId = (await buildSchool(db, customerId)).id;
    const teacher = await buildUser(db, { customerId, schoolId, username: 'teach', roles: [ROLES.teacher] });
    await db.insert(teachers).values({ userId: teacher.id, customerId, schoolId });
    tokens.teach = await signIn(t.app, customer.code, 'teach', teacher.password);
    const taken = await buildUser(db, { customerId, schoolId, username: 'taken1', phone: '13900000001' });
    await db.insert(students).values({ userId: taken.id, customerId, schoolId });
    const walker = await buildUser(db, { username: 'walker', roles: [ROLES.student] });
    tokens.walker = await signIn(t.app, '', 'walker', walker.password);
    groupId = (await call('teach', 'POST', GROUP_API.base, { name: 'Chess' })).json().data.id;
  });
  afterAll(() => t.close());

  const accounts = (usernames: string[]) =>
    t.database.db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.customerId, customerId), inArray(users.username, usernames)));

  it('answers every bad row of a dry run with its number, field and reason, creating nothing', async () => {
    const rows = [
      row('ok1', '13800000001'),
      row('ab', '13800000002'),
      row('dup1', '13800000003'),
      row('dup1', '13800000004'),
      row('taken1', '13900000001'),
      row('ok2', '1380000000'),
      row('ok3', '13800000005', 'lettersonly'),
    ];
    const res = await call('teach', 'POST', groupApi(groupId).batchRegister, { rows, dryRun: true });
    expect(res.json().errorCode).toBe('1000');
    expect(res.json().data).toMatchObject({ dryRun: true, total: 7, created: 0 });
    expect(res.json().data.errors).toEqual([
      { row: 2, username: 'ab', field: 'username', reason: 'usernameInvalid' },
      { row: 3, username: 'dup1', field: 'username', reason: 'usernameDuplicate' },
      { row: 4, username: 'dup1', field: 'username', reason: 'usernameDuplicate' },
      { row: 5, username: 'taken1', field: 'username', reason: 'usernameTaken' },
      { row: 5, username: 'taken1', field: 'phone', reason: 'phoneTaken' },
      { row: 6, username: 'ok2', field: 'phone', reason: 'phoneInvalid' },
      { row: 7, username: 'ok3', field: 'password', reason: 'passwordInvalid' },
    ]);
    expect(await accounts(['ok1', 'ok2', 'ok3'])).toEqual([]);
  });

  it('creates nothing when one row of a real run is bad, answering 6007 with the rows', async () => {
    const rows = [row('good1', '13800000011'), row('good2', '13800000011')];
    const res = await call('teach', 'POST', groupApi(groupId).batchRegister, { rows });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      errorCode: '6007',
      data: {
        errors: [
          { row: 1, reason: 'phoneDuplicate' },
          { row: 2, reason: 'phoneDuplicate' },
        ],
      },
    });
    expect(await accounts(['good1', 'good2'])).toEqual([]);
  });

  it('refuses more than 200 rows with 6008', async () => {
    const rows = Array.from({ length: 201 }, (_, i) => row(`many${i}`, `137${String(i).padStart(8, '0')}`));
    const res = await call('teach', 'POST', groupApi(groupId).batchRegister, { rows, dryRun: true });
    expect(res.json().errorCode).toBe('6008');
  });

  it('creates students of the owner’s school in the group, who sign in and must change the password', async () => {
    const rows = [row('new1', '13800000021'), row('new2', '13800000022', 'Other2026')];
    const res = await call('teach', 'POST', groupApi(groupId).batchRegister, { rows });
    expect(res.json()).toMatchObject({ errorCode: '1000', data: { dryRun: false, total: 2, created: 2, errors: [] } });
    const created = await accounts(['new1', 'new2']);
    expect(created).toHaveLength(2);
    const enrolled = await t.database.db
      .select()
      .from(students)
      .where(
        inArray(
          students.userId,
          created.map((c) => c.id),
        ),
      );
    expect(enrolled.every((s) => s.schoolId === schoolId && s.customerId === customerId)).toBe(true);
    const members = await t.database.db
      .select({ joinedVia: groupMembers.joinedVia })
      .from(groupMembers)
      .where(eq(groupMembers.groupId, groupId));
    expect(members.filter((m) => m.joinedVia === 'batch')).toHaveLength(2);
    const code = (await t.database.db.select().from(customers).where(eq(customers.id, customerId)))[0]!.code;
    const login = await t.app.inject({
      method: 'POST',
      url: '/gw/api/v1/auth/login',
      payload: { custcode: code, usernameOrEmailOrPhone: 'new2', password: b64('Other2026') },
    });
    expect(login.json().errorCode).toBe('1000');
    const [stored] = await t.database.db.select().from(users).where(eq(users.id, created[0]!.id));
    expect(stored).toMatchObject({ mustChangePassword: true, roles: [ROLES.student] });
    expect((await call('teach', 'GET', groupApi(groupId).members)).json().data.total).toBe(3);
  });

  it('keeps to the customer’s student quota: over it, 5004 and nothing created', async () => {
    // The quota is 6: "taken1" and the two registered take 3.
    const rows = ['quota1', 'quota2', 'quota3', 'quota4'].map((name, i) => row(name, `1360000000${i}`));
    const res = await call('teach', 'POST', groupApi(groupId).batchRegister, { rows });
    expect(res.json().errorCode).toBe('5004');
    expect(await accounts(['quota1', 'quota2', 'quota3', 'quota4'])).toEqual([]);
  });

  it('reads the xlsx template, numbering rows as the sheet does', async () => {
    const template = await call('teach', 'GET', GROUP_API.batchTemplate);
    expect(template.headers['content-type']).toContain('spreadsheetml');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(template.rawPayload as unknown as ExcelJS.Buffer);
    const sheet = workbook.worksheets[0]!;
    expect(sheet.getRow(1).values).toEqual([undefined, 'Username', 'Phone', 'Initial password']);
    sheet.spliceRows(2, 1);
    sheet.addRow(['xls1', '13500000001', 'Sheet2026']);
    sheet.addRow(['x', '13500000002', 'Sheet2026']);
    const file = multipartFile('members.xlsx', Buffer.from(await workbook.xlsx.writeBuffer()));
    const res = await t.app.inject({
      method: 'POST',
      url: `${groupApi(groupId).batchRegisterXlsx}?dryRun=true`,
      payload: file.payload,
      headers: { 'content-type': file.type, 'x-authorization': tokens.teach! },
    });
    expect(res.json()).toMatchObject({ errorCode: '1000', data: { dryRun: true, total: 2, created: 0 } });
    expect(res.json().data.errors).toEqual([{ row: 3, username: 'x', field: 'username', reason: 'usernameInvalid' }]);
  });

  it('refuses batch registration to an owner who is not a teacher of a customer', async () => {
    const own = (await call('walker', 'POST', GROUP_API.base, { name: 'Walkers' })).json().data.id;
    const refused = await call('walker', 'POST', groupApi(own).batchRegister, { rows: [row('w1', '13800000031')] });
    expect(refused.json().errorCode).toBe('1007');
    expect((await call('walker', 'GET', groupApi(own).base)).json().data.canBatchRegister).toBe(false);
  });
});
