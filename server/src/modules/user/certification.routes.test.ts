import { ROLES } from '@aiedu/contracts';
import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outbox, teachers, users } from '../../platform/db/schema/index.js';
import { b64, buildCustomer, buildSchool, buildUser, signIn } from '../../test/factories.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

describe('teacher certification', () => {
  let t: TestApp;
  const tokens: Record<string, string> = {};
  let teacherId: string;

  beforeAll(async () => {
    t = await createTestApp({ config: { trustProxy: true } });
    const db = t.database.db;
    const a = await buildCustomer(db);
    const b = await buildCustomer(db);
    const school = await buildSchool(db, a.id, { name: 'Hangzhou Demo Primary School' });
    const teacher = await buildUser(db, {
      customerId: a.id,
      schoolId: school.id,
      username: 'newteacher',
      roles: [ROLES.teacher],
    });
    teacherId = teacher.id;
    await db.insert(teachers).values({ userId: teacher.id, customerId: a.id, schoolId: school.id });
    const admin = await buildUser(db, { customerId: a.id, username: 'admin', roles: [ROLES.customerAdmin] });
    const otherAdmin = await buildUser(db, { customerId: b.id, username: 'admin', roles: [ROLES.customerAdmin] });
    const learner = await buildUser(db, { username: 'learner1' });
    const root = await buildUser(db, { username: 'root', roles: [ROLES.super] });
    for (const [name, code, user] of [
      ['teacher', a.code, teacher],
      ['admin', a.code, admin],
      ['otherAdmin', b.code, otherAdmin],
      ['learner', '', learner],
      ['super', '', root],
    ] as const) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/gw/api/v1/auth/login',
        payload: { custcode: code, usernameOrEmailOrPhone: user.username, password: b64(user.password) },
      });
      tokens[name] = res.json().data.token;
    }
  });
  afterAll(() => t.close());

  const call = (who: string, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
    t.app.inject({
      method,
      url,
      payload,
      headers: { 'x-authorization': tokens[who]!, 'x-forwarded-for': `10.7.0.${who.length}` },
    });

  it('submits a non-mainland request, shows it masked, and lets only the own customer review it', async () => {
    const sent = await call('teacher', 'POST', '/gw/api/v1/user/teacher', {
      region: 'other',
      schoolName: 'Demo Primary',
      documentType: 'passport',
      documentNumber: 'E12345678',
      contact: 'teacher@school.cn',
    });
    expect(sent.json().data).toMatchObject({ status: 'pending', documentNumber: 'E12**5678' });
    const again = await call('teacher', 'POST', '/gw/api/v1/user/teacher', {
      region: 'other',
      schoolName: 'Demo Primary',
      documentType: 'other',
      documentNumber: 'X999',
      contact: 'x@y.cn',
    });
    expect(again.statusCode).toBe(409);

    expect((await call('otherAdmin', 'GET', '/gw/api/v1/user/teacher/pending')).json().data).toEqual([]);
    const id = sent.json().data.id;
    const foreign = await call('otherAdmin', 'PUT', `/gw/api/v1/user/teacher/${id}/review`, { status: 'certified' });
    expect(foreign.statusCode).toBe(404);
    expect(
      (await call('teacher', 'PUT', `/gw/api/v1/user/teacher/${id}/review`, { status: 'certified' })).statusCode,
    ).toBe(403);

    const pending = (await call('admin', 'GET', '/gw/api/v1/user/teacher/pending')).json().data;
    expect(pending.map((p: { id: string }) => p.id)).toEqual([id]);
    const certified = await call('admin', 'PUT', `/gw/api/v1/user/teacher/${id}/review`, { status: 'certified' });
    expect(certified.json().data.status).toBe('certified');
    const [teacher] = await t.database.db.select().from(teachers).where(eq(teachers.userId, teacherId));
    expect(teacher?.certified).toBe(true);
    expect((await call('teacher', 'GET', '/gw/api/v1/user/teacher')).json().data.status).toBe('certified');
  });

  it('needs a phone code for a mainland request', async () => {
    const body = {
      region: 'mainland',
      schoolName: 'Demo Primary',
      teacherNumber: 'T-2026-01',
      idNumber: '33010620000101123X',
      phone: '13700000001',
      verifyCode: '000000',
    };
    expect((await call('learner', 'POST', '/gw/api/v1/user/teacher', body)).json().errorCode).toBe('1111');
    await call('learner', 'POST', '/gw/api/v1/user/verifyCode/send', { scene: 'BIND', target: '13700000001' });
    const [message] = await t.database.db
      .select()
      .from(outbox)
      .where(eq(outbox.target, '13700000001'))
      .orderBy(desc(outbox.createdAt))
      .limit(1);
    const verifyCode = message!.body.match(/\d{6}/)![0];
    const sent = await call('learner', 'POST', '/gw/api/v1/user/teacher', { ...body, verifyCode });
    expect(sent.json().data).toMatchObject({ status: 'pending', region: 'mainland', idNumber: '330***********123X' });
  });

  const search = async (who: string, partName: string) => {
    const res = await call(who, 'GET', `/gw/api/v1/user/fuzzySearchSchool?partName=${encodeURIComponent(partName)}`);
    return res.json().data.map((s: { name: string }) => s.name);
  };

  it('finds listed, switched-on schools of switched-on customers by part of their name, in the public space', async () => {
    const db = t.database.db;
    const off = await buildCustomer(db, { enabled: false });
    const offParent = await buildCustomer(db, { enabled: false });
    const underOff = await buildCustomer(db, { parentId: offParent.id });
    const on = await buildCustomer(db);
    await buildSchool(db, off.id, { name: 'Demo Prison School', listed: true });
    await buildSchool(db, underOff.id, { name: 'Demo Private School', listed: true });
    await buildSchool(db, on.id, { name: 'Demo Primary Annex', enabled: false, listed: true });
    await buildSchool(db, on.id, { name: 'Demo Print Academy', listed: true });
    await buildSchool(db, on.id, { name: 'Demo Prim Unlisted' });

    expect(await search('learner', 'Demo Pri')).toEqual(['Demo Print Academy']);
    expect(await search('learner', '%')).toEqual([]);
    const anonymous = await t.app.inject({ method: 'GET', url: '/gw/api/v1/user/fuzzySearchSchool?partName=Demo' });
    expect(anonymous.statusCode).toBe(401);
  });

  it("shows a customer's people only the schools of their customer and those below it", async () => {
    const db = t.database.db;
    const [teacher] = await db.select().from(users).where(eq(users.username, 'newteacher'));
    await buildSchool(db, (await buildCustomer(db, { parentId: teacher!.customerId })).id, { name: 'Demo Sub Prim' });
    await buildSchool(db, (await buildCustomer(db)).id, { name: 'Demo Prim Elsewhere', listed: true });
    expect(await search('teacher', 'Prim')).toEqual(['Demo Sub Prim', 'Hangzhou Demo Primary School']);
    expect(await search('otherAdmin', 'Prim')).toEqual([]);
    // A super administrator finds every switched-on school, listed or not, of any customer.
    expect(await search('super', 'Prim')).toEqual([
      'Demo Prim Elsewhere',
      'Demo Prim Unlisted',
      'Demo Sub Prim',
      'Hangzhou Demo Primary School',
    ]);
  });

  it('lists a school in the public search once its administrators say so', async () => {
    const admin = await call('admin', 'GET', '/api/v1/admin_organize/schools?keyword=Hangzhou');
    const school = admin.json().data.list[0];
    expect(school.listed).toBe(false);
    expect(await search('learner', 'Hangzhou')).toEqual([]);
    const listed = await call('admin', 'PUT', `/api/v1/admin_organize/schools/${school.id}`, { listed: true });
    expect(listed.json().data).toMatchObject({ listed: true, notes: school.notes });
    expect(await search('learner', 'Hangzhou')).toEqual(['Hangzhou Demo Primary School']);
    await call('admin', 'PUT', `/api/v1/admin_organize/schools/${school.id}`, { listed: false });
  });

  it('keeps the learner out of review', async () => {
    expect((await call('learner', 'GET', '/gw/api/v1/user/teacher/pending')).statusCode).toBe(403);
    const [learner] = await t.database.db.select().from(users).where(eq(users.username, 'learner1'));
    expect(learner?.roles).not.toContain(ROLES.teacher);
  });
});

describe("teacher certification review within the reviewer's scope", () => {
  let t: TestApp;
  const tokens: Record<string, string> = {};
  const requests: Record<string, string> = {};

  beforeAll(async () => {
    t = await createTestApp({ config: { trustProxy: true } });
    const db = t.database.db;
    const parent = await buildCustomer(db);
    const sub = await buildCustomer(db, { parentId: parent.id });
    const north = await buildSchool(db, parent.id, { name: 'North School' });
    const south = await buildSchool(db, parent.id, { name: 'South School' });
    const subSchool = await buildSchool(db, sub.id, { name: 'Sub School' });
    const people: [string, typeof parent, { schoolId?: string; roles: string[] }][] = [
      ['northStudent', parent, { schoolId: north.id, roles: [ROLES.student] }],
      ['southStudent', parent, { schoolId: south.id, roles: [ROLES.student] }],
      ['subStudent', sub, { schoolId: subSchool.id, roles: [ROLES.student] }],
      ['northAdmin', parent, { schoolId: north.id, roles: [ROLES.schoolAdmin] }],
      ['parentAdmin', parent, { roles: [ROLES.customerAdmin] }],
      ['subAdmin', sub, { roles: [ROLES.subCustomerAdmin] }],
    ];
    for (const [name, customer, options] of people) {
      const user = await buildUser(db, { customerId: customer.id, username: name, ...options });
      tokens[name] = await signIn(t.app, customer.code, name, user.password);
    }
    for (const name of ['northStudent', 'southStudent', 'subStudent']) {
      const sent = await call(name, 'POST', '/gw/api/v1/user/teacher', {
        region: 'other',
        schoolName: name,
        documentType: 'passport',
        documentNumber: 'E12345678',
        contact: `${name}@school.cn`,
      });
      requests[name] = sent.json().data.id;
    }
  });
  afterAll(() => t.close());

  const call = (who: string, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
    t.app.inject({ method, url, payload, headers: { 'x-authorization': tokens[who]! } });
  const pending = async (who: string) =>
    ((await call(who, 'GET', '/gw/api/v1/user/teacher/pending')).json().data as { schoolName: string }[])
      .map((request) => request.schoolName)
      .sort();
  const review = (who: string, requester: string) =>
    call(who, 'PUT', `/gw/api/v1/user/teacher/${requests[requester]}/review`, { status: 'certified' });

  it("shows a school administrator only their school's requests, and lets them certify only those", async () => {
    expect(await pending('northAdmin')).toEqual(['northStudent']);
    expect((await review('northAdmin', 'southStudent')).statusCode).toBe(404);
    expect((await review('northAdmin', 'subStudent')).statusCode).toBe(404);
    const [south] = await t.database.db.select().from(users).where(eq(users.username, 'southStudent'));
    expect(south?.roles).toEqual([ROLES.student]);
    expect((await review('northAdmin', 'northStudent')).json().data.status).toBe('certified');
  });

  it("shows a customer administrator the requests of its sub-customers too, and a sub-customer's only its own", async () => {
    expect(await pending('subAdmin')).toEqual(['subStudent']);
    expect((await review('subAdmin', 'southStudent')).statusCode).toBe(404);
    expect(await pending('parentAdmin')).toEqual(['southStudent', 'subStudent']);
    expect((await review('parentAdmin', 'subStudent')).json().data.status).toBe('certified');
    expect((await review('parentAdmin', 'southStudent')).json().data.status).toBe('certified');
  });
});
