import { ROLES } from '@aiedu/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classes } from '../../platform/db/schema/index.js';
import { buildCustomer, buildSchool, buildUser, signIn } from '../../test/factories.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

describe('grades for organisation administrators', () => {
  let t: TestApp;
  const tokens: Record<string, string> = {};

  beforeAll(async () => {
    t = await createTestApp();
    const db = t.database.db;
    const customer = await buildCustomer(db);
    const other = await buildCustomer(db);
    const a = await buildSchool(db, customer.id, { eduStages: ['primary'] });
    const b = await buildSchool(db, customer.id, { eduStages: ['primary', 'junior'] });
    const c = await buildSchool(db, other.id, { eduStages: ['senior'] });
    const klass = (
      schoolId: string,
      customerId: string,
      grade: number,
      className: string,
      classStatus = 'current' as const,
    ) => ({
      customerId,
      schoolId,
      eduStage: 'primary',
      grade,
      className,
      startYear: 2027 - grade,
      classStatus,
    });
    await db
      .insert(classes)
      .values([
        klass(a.id, customer.id, 4, '4-1'),
        klass(a.id, customer.id, 4, '4-2'),
        klass(a.id, customer.id, 5, '5-1'),
        klass(a.id, customer.id, 6, '6-1', 'graduated' as never),
        klass(b.id, customer.id, 1, '1-1'),
        klass(c.id, other.id, 3, '3-1'),
      ]);
    const org = await buildUser(db, {
      customerId: customer.id,
      schoolId: a.id,
      username: 'org',
      roles: [ROLES.organizeAdmin],
    });
    const admin = await buildUser(db, { customerId: customer.id, username: 'admin', roles: [ROLES.customerAdmin] });
    const teacher = await buildUser(db, { customerId: customer.id, schoolId: a.id, roles: [ROLES.teacher] });
    for (const [name, user] of [
      ['org', org],
      ['admin', admin],
      ['teacher', teacher],
    ] as const) {
      tokens[name] = await signIn(t.app, customer.code, user.username, user.password);
    }
  });
  afterAll(() => t.close());

  const grades = async (who: string) =>
    (
      await t.app.inject({
        method: 'GET',
        url: '/api/v1/admin_organize/grades',
        headers: { 'x-authorization': tokens[who]! },
      })
    ).json().data;

  it('answers the current grades of the organisation administrator’s own school only', async () => {
    expect(await grades('org')).toEqual([
      { eduStage: 'primary', grade: 4, classCount: 2 },
      { eduStage: 'primary', grade: 5, classCount: 1 },
    ]);
  });

  it('answers a customer administrator the grades of every school of the customer, and of no other customer', async () => {
    expect(await grades('admin')).toEqual([
      { eduStage: 'primary', grade: 1, classCount: 1 },
      { eduStage: 'primary', grade: 4, classCount: 2 },
      { eduStage: 'primary', grade: 5, classCount: 1 },
    ]);
  });

  it('lists the schools each caller administers: the own school for school staff, every school for the customer', async () => {
    const schools = async (who: string) =>
      (
        await t.app.inject({
          method: 'GET',
          url: '/api/v1/admin_organize/school_info',
          headers: { 'x-authorization': tokens[who]! },
        })
      ).json().data as { customerId: string }[];
    expect(await schools('org')).toHaveLength(1);
    const all = await schools('admin');
    expect(all).toHaveLength(2);
    expect(new Set(all.map((s) => s.customerId)).size).toBe(1);
  });

  const stages = (who: string, language = 'en') =>
    t.app.inject({
      method: 'GET',
      url: '/api/v1/school_stage',
      headers: { 'x-authorization': tokens[who]!, language },
    });

  it('lists the fixed education stages with their years, named in the caller’s language, and the schools teaching each', async () => {
    const own = (await stages('org')).json().data as { key: string; name: string; years: number; schools: number }[];
    expect(own).toEqual([
      { key: 'primary', name: 'Primary', years: 6, schools: 1 },
      { key: 'junior', name: 'Junior secondary', years: 3, schools: 0 },
      { key: 'senior', name: 'Senior secondary', years: 3, schools: 0 },
      { key: 'vocational', name: 'Vocational', years: 3, schools: 0 },
      { key: 'university', name: 'University', years: 4, schools: 0 },
    ]);
    const customer = (await stages('admin', 'ja')).json().data as { key: string; name: string; schools: number }[];
    expect(customer.map((s) => [s.key, s.name, s.schools])).toEqual([
      ['primary', '小学校', 2],
      ['junior', '中学校', 1],
      ['senior', '高等学校', 0],
      ['vocational', '職業学校', 0],
      ['university', '大学', 0],
    ]);
  });

  it('is for administrators: a teacher is refused with 1006', async () => {
    const res = await stages('teacher');
    expect({ status: res.statusCode, code: res.json().errorCode }).toEqual({ status: 403, code: '1006' });
  });
});
