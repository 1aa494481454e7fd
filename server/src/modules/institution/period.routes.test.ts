import { ROLES } from '@aiedu/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCustomer, buildSchool, buildUser, signIn } from '../../test/factories.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

describe('periods', () => {
  let t: TestApp;
  const tokens: Record<string, string> = {};
  let schoolId: string;

  beforeAll(async () => {
    t = await createTestApp();
    const db = t.database.db;
    const customer = await buildCustomer(db);
    schoolId = (await buildSchool(db, customer.id)).id;
    const otherSchool = (await buildSchool(db, customer.id)).id;
    const people = [
      ['admin', ROLES.customerAdmin, null],
      ['school1', ROLES.schoolAdmin, schoolId],
      ['school2', ROLES.schoolAdmin, otherSchool],
    ] as const;
    for (const [username, role, school] of people) {
      const user = await buildUser(db, { customerId: customer.id, schoolId: school, username, roles: [role] });
      tokens[username] = await signIn(t.app, customer.code, username, user.password);
    }
  });
  afterAll(() => t.close());

  const call = (who: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({ method, url, payload, headers: { 'x-authorization': tokens[who]!, language: 'en' } });

  it('creates customer-wide and school periods; each school sees its own and the customer’s', async () => {
    const wide = await call('admin', 'POST', '/api/v1/admin_organize/periods', {
      name: '2026–2027',
      startDate: '2026-09-01',
      endDate: '2027-07-15',
    });
    expect(wide.json().data).toMatchObject({ name: '2026–2027', schoolId: null });
    const own = await call('school1', 'POST', '/api/v1/admin_organize/periods', {
      name: 'Autumn term',
      startDate: '2026-09-01',
      endDate: '2027-01-20',
    });
    expect(own.json().data).toMatchObject({ schoolId });
    const names = (who: string) =>
      call(who, 'GET', '/api/v1/admin_organize/periods').then((r) =>
        (r.json().data as { name: string }[]).map((p) => p.name).sort(),
      );
    expect(await names('school1')).toEqual(['2026–2027', 'Autumn term']);
    expect(await names('school2')).toEqual(['2026–2027']);
    // Another school's administrator cannot change it; a school administrator cannot change the customer's.
    const id = own.json().data.id as string;
    expect((await call('school2', 'DELETE', `/api/v1/admin_organize/periods/${id}`)).statusCode).toBe(404);
    const wideId = wide.json().data.id as string;
    const body = { name: 'Mine', startDate: '2026-09-01', endDate: '2027-07-15' };
    expect((await call('school1', 'PUT', `/api/v1/admin_organize/periods/${wideId}`, body)).statusCode).toBe(404);
    expect((await call('school1', 'PUT', `/api/v1/admin_organize/periods/${id}`, body)).json().data.name).toBe('Mine');
    expect((await call('school1', 'DELETE', `/api/v1/admin_organize/periods/${id}`)).json().errorCode).toBe('1000');
  });

  it('refuses an end before the start', async () => {
    const res = await call('admin', 'POST', '/api/v1/admin_organize/periods', {
      name: 'Backwards',
      startDate: '2027-09-01',
      endDate: '2027-01-01',
    });
    expect(res.statusCode).toBe(400);
  });
});
