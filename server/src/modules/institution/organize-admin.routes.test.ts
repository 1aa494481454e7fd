import { ROLES } from '@aiedu/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { b64, buildCustomer, buildSchool, buildUser, signIn } from '../../test/factories.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

/** The organisation administrators' family (`/api/v1/admin_organize/…`) as each administrator meets it. */
describe('the organisation administrators’ schools and teachers', () => {
  let t: TestApp;
  const tokens: Record<string, string> = {};
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    t = await createTestApp();
    const db = t.database.db;
    const parent = await buildCustomer(db, { name: 'City District' });
    const sub = await buildCustomer(db, { name: 'East Branch', parentId: parent.id });
    ids.own = (await buildSchool(db, parent.id, { name: 'Own School', notes: 'n' })).id;
    ids.other = (await buildSchool(db, parent.id, { name: 'Other School' })).id;
    ids.subSchool = (await buildSchool(db, sub.id, { name: 'Branch School' })).id;
    const organizer = await buildUser(db, {
      customerId: parent.id,
      schoolId: ids.own,
      username: 'organizer',
      roles: [ROLES.organizeAdmin],
    });
    const admin = await buildUser(db, { customerId: parent.id, username: 'boss', roles: [ROLES.customerAdmin] });
    tokens.organizer = await signIn(t.app, parent.code, 'organizer', organizer.password);
    tokens.admin = await signIn(t.app, parent.code, 'boss', admin.password);
  });
  afterAll(() => t.close());

  const call = (who: string, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
    t.app.inject({ method, url, payload, headers: { 'x-authorization': tokens[who]!, language: 'en' } });

  it('lets an organisation administrator see and edit their own school, and no other', async () => {
    const list = (await call('organizer', 'GET', '/api/v1/admin_organize/schools')).json();
    expect(list.errorCode).toBe('1000');
    expect(list.data.list.map((s: { id: string }) => s.id)).toEqual([ids.own]);
    const edited = await call('organizer', 'PUT', `/api/v1/admin_organize/schools/${ids.own}`, { notes: 'ours' });
    expect(edited.json().data).toMatchObject({ name: 'Own School', notes: 'ours' });
    expect(
      (await call('organizer', 'PUT', `/api/v1/admin_organize/schools/${ids.other}`, { notes: 'x' })).statusCode,
    ).toBe(404);
    const created = await call('organizer', 'POST', '/api/v1/admin_organize/schools', {
      name: 'Planted',
      eduStages: ['primary'],
    });
    expect(created.statusCode).toBe(403);
    expect(
      (await call('organizer', 'PUT', `/api/v1/admin_organize/schools/${ids.own}/status`, { enabled: false }))
        .statusCode,
    ).toBe(403);
  });

  it('names the customer each school belongs to, so a sub-customer’s schools can be told apart', async () => {
    const list = (await call('admin', 'GET', '/api/v1/admin_organize/schools?sort=name,asc')).json().data.list;
    expect(list.map((s: { name: string; customerName: string }) => [s.name, s.customerName])).toEqual([
      ['Branch School', 'East Branch'],
      ['Other School', 'City District'],
      ['Own School', 'City District'],
    ]);
  });

  it('answers the teacher calls under admin_organize/teachers too, within the caller’s school', async () => {
    const created = await call('organizer', 'POST', '/api/v1/admin_organize/teachers', {
      schoolId: ids.own,
      username: 'orgteach',
      realName: 'Ms Org',
      password: b64('Start2026'),
    });
    expect(created.json().data).toMatchObject({ username: 'orgteach', schoolId: ids.own, creator: 'organizer' });
    const elsewhere = await call('organizer', 'POST', '/api/v1/admin_organize/teachers', {
      schoolId: ids.other,
      username: 'sneaky',
      realName: 'Mr Sneaky',
      password: b64('Start2026'),
    });
    expect(elsewhere.statusCode).toBe(404);
    const listed = (await call('admin', 'GET', '/api/v1/admin_organize/teachers')).json().data.list;
    expect(listed.map((p: { username: string }) => p.username)).toEqual(['orgteach']);
    const same = (await call('admin', 'GET', '/gw/admin/api/v1/school/teachers')).json().data;
    expect(same.list).toEqual(listed);
  });
});
