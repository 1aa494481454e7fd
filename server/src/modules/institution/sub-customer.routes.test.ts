import { API, ROLES } from '@aiedu/contracts';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customers, users } from '../../platform/db/schema/index.js';
import { b64, buildCustomer, buildUser, signIn } from '../../test/factories.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

const SUBS = '/api/v1/admin/sub-customers';
const SCHOOLS = '/api/v1/admin_organize/schools';
const TEACHERS = '/gw/admin/api/v1/school/teachers';
const STUDENTS = '/gw/admin/api/v1/school/students';
const CLASSES = '/gw/admin/api/v1/school/classes';

/** A school district limited to 2 schools, 2 teachers, 2 students, 5 containers and the BASIC and ADVANCED types. */
const DISTRICT = {
  schoolQuota: 2,
  teacherQuota: 2,
  studentQuota: 2,
  containerConcurrency: 5,
  maxStartsPerPerson: 1,
  studyConcurrency: 30,
  containerTypes: ['BASIC', 'ADVANCED'],
};

describe('sub-customers within their parent’s quotas and container types', () => {
  let t: TestApp;
  let districtId: string;
  let districtCode: string;
  const tokens: Record<string, string> = {};
  let serial = 0;

  beforeAll(async () => {
    t = await createTestApp();
    const db = t.database.db;
    const district = await buildCustomer(db, DISTRICT);
    districtId = district.id;
    districtCode = district.code;
    const admin = await buildUser(db, { customerId: districtId, username: 'admin', roles: [ROLES.customerAdmin] });
    const root = await buildUser(db, { username: 'root', roles: [ROLES.super] });
    tokens.admin = await signIn(t.app, districtCode, 'admin', admin.password);
    tokens.root = await signIn(t.app, '', 'root', root.password);
  });
  afterAll(() => t.close());

  const call = (who: string, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
    t.app.inject({ method, url, payload, headers: { 'x-authorization': tokens[who]!, language: 'en' } });

  /** Creates a sub-customer of the district as its administrator would. */
  function createSub(fields: object = {}) {
    serial += 1;
    return call('admin', 'POST', SUBS, {
      code: `districtsub${serial}`,
      name: `Area ${serial}`,
      adminUsername: `area${serial}`,
      adminName: `Area Admin ${serial}`,
      adminPassword: b64('Start#2026'),
      ...fields,
    });
  }
  const customerCount = async () => (await t.database.db.select({ n: count() }).from(customers))[0]!.n;

  it('leaves course packages to those who keep the course catalogue', async () => {
    const before = await customerCount();
    const res = await createSub({ coursePackages: ['0192f7a0-0000-7000-8000-000000000000'] });
    expect(res.json()).toMatchObject({ errorCode: '1006', data: { field: 'coursePackages' } });
    expect(await customerCount()).toBe(before);
  });

  it('tells the administrator what a sub-customer may be given, and only inside its own subtree', async () => {
    const limits = await call('admin', 'GET', `${SUBS}/limits`);
    expect(limits.json().data).toEqual(DISTRICT);
    const other = await buildCustomer(t.database.db);
    expect((await call('admin', 'GET', `${SUBS}/limits?parentId=${other.id}`)).statusCode).toBe(404);
    const forDistrict = await call('root', 'GET', `${SUBS}/limits?parentId=${districtId}`);
    expect(forDistrict.json().data).toEqual(DISTRICT);
  });

  it('refuses a sub-customer more than its parent has, and creates nothing', async () => {
    const before = await customerCount();
    const students = await createSub({ studentQuota: 3 });
    expect(students.statusCode).toBe(409);
    expect(students.json()).toMatchObject({
      errorCode: '5004',
      errorMsg: 'The institution has used its quota of students',
      data: { field: 'studentQuota', quota: 2 },
    });
    const unlimited = await createSub({ schoolQuota: null });
    expect(unlimited.json()).toMatchObject({ errorCode: '5002', data: { field: 'schoolQuota', quota: 2 } });
    const containers = await createSub({ containerConcurrency: 6 });
    expect(containers.statusCode).toBe(400);
    expect(containers.json()).toMatchObject({ errorCode: '1001', data: { field: 'containerConcurrency', max: 5 } });
    const gpu = await createSub({ containerTypes: ['BASIC', 'GPU'] });
    expect(gpu.statusCode).toBe(403);
    expect(gpu.json()).toMatchObject({ errorCode: '3110', data: { offered: ['BASIC', 'ADVANCED'] } });
    expect(await customerCount()).toBe(before);
  });

  it('gives a new sub-customer its parent’s limits unless it asks for less, and names its creator', async () => {
    const inherited = await createSub();
    expect(inherited.json().data).toMatchObject({ ...DISTRICT, parentId: districtId, creator: 'admin' });
    const listed = (await call('admin', 'GET', SUBS)).json().data as { id: string }[];
    expect(listed.find((c) => c.id === inherited.json().data.id)).toMatchObject({ creator: 'admin' });
    const smaller = await createSub({ studentQuota: 1, containerTypes: ['BASIC'] });
    expect(smaller.json().data).toMatchObject({ studentQuota: 1, teacherQuota: 2, containerTypes: ['BASIC'] });
  });

  it('refuses raising a sub-customer above its parent, from the sub-customer screen and the super console', async () => {
    const sub = (await createSub({ studentQuota: 1 })).json().data;
    const more = await call('admin', 'PUT', `${SUBS}/${sub.id}`, { studentQuota: 50 });
    expect(more.json()).toMatchObject({ errorCode: '5004', data: { quota: 2 } });
    const gpu = await call('admin', 'PUT', `${SUBS}/${sub.id}`, { containerTypes: ['GPU'] });
    expect(gpu.json().errorCode).toBe('3110');
    const unlimited = await call('root', 'PUT', `/api/v1/admin_super/organizes/${sub.id}`, { teacherQuota: null });
    expect(unlimited.json()).toMatchObject({ errorCode: '5003', data: { quota: 2 } });
    const [row] = await t.database.db.select().from(customers).where(eq(customers.id, sub.id));
    expect(row).toMatchObject({ studentQuota: 1, teacherQuota: 2, containerTypes: ['BASIC', 'ADVANCED'] });
    const within = await call('admin', 'PUT', `${SUBS}/${sub.id}`, { studentQuota: 2, containerTypes: ['ADVANCED'] });
    expect(within.json().data).toMatchObject({ studentQuota: 2, containerTypes: ['ADVANCED'] });
  });

  it('narrows every sub-customer when the parent’s offer shrinks, down to what its people may start', async () => {
    const sub = (await createSub()).json().data;
    const nested = (
      await call('admin', 'POST', SUBS, {
        code: 'districtnested',
        name: 'Nested',
        parentId: sub.id,
        adminUsername: 'nested',
        adminName: 'Nested Admin',
        adminPassword: b64('Start#2026'),
      })
    ).json().data;
    expect(nested).toMatchObject({ parentId: sub.id, containerTypes: ['BASIC', 'ADVANCED'] });
    const kid = await buildUser(t.database.db, { customerId: nested.id, username: 'kid', roles: [ROLES.student] });
    tokens.kid = await signIn(t.app, 'districtnested', 'kid', kid.password);
    const offered = async () =>
      ((await call('kid', 'GET', API.computeBalance)).json().data as { runtimeType: string }[]).map(
        (b) => b.runtimeType,
      );
    expect(await offered()).toEqual(['BASIC', 'ADVANCED']);

    const shrunk = await call('root', 'PUT', `/api/v1/admin_super/organizes/${districtId}`, {
      containerTypes: ['ADVANCED', 'GPU'],
      containerConcurrency: 3,
    });
    expect(shrunk.json().errorCode).toBe('1000');
    for (const id of [sub.id, nested.id]) {
      const [row] = await t.database.db.select().from(customers).where(eq(customers.id, id));
      expect(row).toMatchObject({ containerTypes: ['ADVANCED'], containerConcurrency: 3, studentQuota: 2 });
    }
    expect(await offered()).toEqual(['ADVANCED']);
    const limits = await call('admin', 'GET', `${SUBS}/limits?parentId=${sub.id}`);
    expect(limits.json().data).toMatchObject({ containerTypes: ['ADVANCED'], containerConcurrency: 3 });
    await call('root', 'PUT', `/api/v1/admin_super/organizes/${districtId}`, DISTRICT);
  });

  it('counts the schools, teachers and students of sub-customers against the parent’s quotas', async () => {
    const sub = (await createSub()).json().data;
    await t.database.db.update(users).set({ mustChangePassword: false }).where(eq(users.customerId, sub.id));
    tokens.area = await signIn(t.app, sub.code, sub.adminUsername, 'Start#2026');
    const school = async (who: string, name: string) => call(who, 'POST', SCHOOLS, { name, eduStages: ['primary'] });
    const areaSchool = (await school('area', 'Area Primary')).json().data;
    expect(areaSchool.customerId).toBe(sub.id);
    const districtSchool = (await school('admin', 'District Primary')).json().data;
    expect(districtSchool.customerId).toBe(districtId);
    // Two schools in the district's tree: the district's quota of 2 is used, for the district and the area alike.
    expect((await school('admin', 'One Too Many')).json()).toMatchObject({ errorCode: '5002', data: { quota: 2 } });
    expect((await school('area', 'Area Second')).json()).toMatchObject({ errorCode: '5002', data: { used: 2 } });

    for (const n of [1, 2]) {
      const res = await call('area', 'POST', TEACHERS, {
        schoolId: areaSchool.id,
        username: `areateacher${n}`,
        realName: `Teacher ${n}`,
        password: b64('Start2026'),
      });
      expect(res.json().errorCode).toBe('1000');
    }
    const teacher = await call('admin', 'POST', TEACHERS, {
      schoolId: districtSchool.id,
      username: 'districtteacher',
      realName: 'Teacher',
      password: b64('Start2026'),
    });
    expect(teacher.json()).toMatchObject({ errorCode: '5003', data: { quota: 2, used: 2 } });

    const klass = async (who: string, schoolId: string) =>
      (await call(who, 'POST', CLASSES, { schoolId, eduStage: 'primary', grade: 1, className: '1-1' })).json().data
        .id as string;
    const areaClass = await klass('area', areaSchool.id);
    const districtClass = await klass('admin', districtSchool.id);
    const student = (who: string, classId: string, username: string) =>
      call(who, 'POST', STUDENTS, { classId, username, realName: username, password: b64('Start2026') });
    // The nested customer's pupil who signed in above is on no school's roster, and still takes one of the places.
    expect((await student('area', areaClass, 'areakid1')).json().errorCode).toBe('1000');
    const refused = await student('admin', districtClass, 'districtkid');
    expect(refused.json()).toMatchObject({ errorCode: '5004', data: { quota: 2, used: 2 } });
  });
});
