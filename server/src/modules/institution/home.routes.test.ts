import { ROLES } from '@aiedu/contracts';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCustomer, buildUser, signIn } from '../../test/factories.js';
import { multipartFile } from '../../test/multipart.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

describe('institution home and modules', () => {
  let t: TestApp;
  let custcode: string;
  let customerId: string;
  const tokens: Record<string, string> = {};

  beforeAll(async () => {
    t = await createTestApp();
    const customer = await buildCustomer(t.database.db);
    custcode = customer.code;
    const admin = await buildUser(t.database.db, {
      customerId: customer.id,
      username: 'admin',
      roles: [ROLES.customerAdmin],
    });
    const kid = await buildUser(t.database.db, { customerId: customer.id, username: 'kid', roles: [ROLES.student] });
    const teacher = await buildUser(t.database.db, {
      customerId: customer.id,
      username: 'teach',
      roles: [ROLES.teacher],
    });
    const root = await buildUser(t.database.db, { username: 'root', roles: [ROLES.super] });
    customerId = customer.id;
    tokens.teach = await signIn(t.app, custcode, 'teach', teacher.password);
    tokens.root = await signIn(t.app, '', 'root', root.password);
    tokens.admin = await signIn(t.app, custcode, 'admin', admin.password);
    tokens.kid = await signIn(t.app, custcode, 'kid', kid.password);
  });
  afterAll(() => t.close());

  const call = (who: string, method: 'GET' | 'PUT', url: string, payload?: object) =>
    t.app.inject({ method, url, payload, headers: { 'x-authorization': tokens[who]! } });

  it('shows a banner the administrator uploaded, with its link, on the public home call', async () => {
    const image = await sharp({ create: { width: 2400, height: 600, channels: 3, background: '#2a6' } })
      .jpeg()
      .toBuffer();
    const { payload: body, type } = multipartFile('spring.jpg', image, { link: 'https://school.test/spring' });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/admin/institution-home/banners/0',
      payload: body,
      headers: { 'content-type': type, 'x-authorization': tokens.admin! },
    });
    expect(res.json().errorCode).toBe('1000');
    const home = (await t.app.inject({ method: 'GET', url: `/gw/api/v1/school/home?custcode=${custcode}` })).json()
      .data;
    expect(home.banners).toHaveLength(1);
    expect(home.banners[0].link).toBe('https://school.test/spring');
    const stored = await t.app.inject({ method: 'GET', url: home.banners[0].imageUrl });
    expect(await sharp(stored.rawPayload).metadata()).toMatchObject({ width: 1920, height: 300, format: 'png' });
  });

  it('stores only http(s) links, and refuses a body that changes nothing', async () => {
    const put = (payload: object) => call('admin', 'PUT', '/api/v1/admin/institution-home', payload);
    for (const payload of [
      { bannerLinks: ['javascript:alert(1)'] },
      { bannerLinks: ['data:text/html,<b>x</b>'] },
      { footerSites: [{ name: 'Bad', url: 'JavaScript:alert(1)' }] },
      {},
    ]) {
      const res = await put(payload);
      expect({ payload, status: res.statusCode, code: res.json().errorCode }).toEqual({
        payload,
        status: 400,
        code: '1001',
      });
    }
    const image = await sharp({ create: { width: 40, height: 10, channels: 3, background: '#2a6' } })
      .png()
      .toBuffer();
    const { payload: body, type } = multipartFile('b.png', image, { link: 'javascript:alert(1)' });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/admin/institution-home/banners/1',
      payload: body,
      headers: { 'content-type': type, 'x-authorization': tokens.admin! },
    });
    expect(res.json()).toMatchObject({ errorCode: '1001', data: { issues: [{ path: 'body.link' }] } });
  });

  it('saves up to six distinct project types and the footer, refusing a seventh or a duplicate', async () => {
    const types = ['Python', 'Vision', 'Speech', 'Robots', 'Data', 'Games'];
    expect(
      (await call('admin', 'PUT', '/api/v1/admin/institution-home', { projectTypes: types })).json().errorCode,
    ).toBe('1000');
    expect(
      (await call('admin', 'PUT', '/api/v1/admin/institution-home', { projectTypes: [...types, 'More'] })).statusCode,
    ).toBe(400);
    expect(
      (await call('admin', 'PUT', '/api/v1/admin/institution-home', { projectTypes: ['A', 'A'] })).statusCode,
    ).toBe(400);
    await call('admin', 'PUT', '/api/v1/admin/institution-home', {
      footerSites: [{ name: 'Bureau', url: 'https://edu.test' }],
    });
    const home = (await t.app.inject({ method: 'GET', url: `/gw/api/v1/school/home?custcode=${custcode}` })).json()
      .data;
    expect(home).toMatchObject({ projectTypes: types, footerSites: [{ name: 'Bureau', url: 'https://edu.test' }] });
  });

  it('answers a home it keeps with every change at once: an edit, a rename, a customer switched off and on', async () => {
    // A customer of its own: switching one off signs its people out.
    const school = await buildCustomer(t.database.db);
    const head = await buildUser(t.database.db, {
      customerId: school.id,
      username: 'head',
      roles: [ROLES.customerAdmin],
    });
    tokens.head = await signIn(t.app, school.code, 'head', head.password);
    const home = async () => t.app.inject({ method: 'GET', url: `/gw/api/v1/school/home?custcode=${school.code}` });
    const before = (await home()).json().data;
    expect((await home()).body).toBe(JSON.stringify({ errorCode: '1000', errorMsg: '', data: before }));
    await call('head', 'PUT', '/api/v1/admin/institution-home', { projectTypes: ['Kept', 'Changed'] });
    expect((await home()).json().data.projectTypes).toEqual(['Kept', 'Changed']);
    await call('root', 'PUT', `/api/v1/admin_super/organizes/${school.id}`, { name: 'Renamed Bureau' });
    expect((await home()).json().data.name).toBe('Renamed Bureau');
    await call('root', 'PUT', `/api/v1/admin_super/organizes/${school.id}/status`, { enabled: false });
    expect((await home()).statusCode).toBe(404);
    await call('root', 'PUT', `/api/v1/admin_super/organizes/${school.id}/status`, { enabled: true });
    expect((await home()).json().data).toMatchObject({ name: 'Renamed Bureau', projectTypes: ['Kept', 'Changed'] });
  });

  it('hides from a side the modules a super administrator turned off, which the institution cannot turn on', async () => {
    const ids = async (who: string) =>
      ((await call(who, 'GET', '/gw/api/v1/school/modules')).json().data as { id: string }[]).map((m) => m.id);
    expect(await ids('kid')).toContain('mall');
    await call('root', 'PUT', `/api/v1/admin_super/organizes/${customerId}/modules`, {
      teacher: ['courses', 'projects', 'mall'],
      student: ['courses', 'projects'],
    });
    expect(await ids('kid')).toEqual(['courses', 'projects']);
    const all = { teacher: ['courses', 'projects', 'mall', 'ai'], student: ['courses', 'projects', 'mall', 'ai'] };
    const refused = await call('admin', 'PUT', '/api/v1/admin/institution-home', { modules: all });
    expect(refused.json()).toMatchObject({ errorCode: '1001' });
    expect(await ids('kid')).toEqual(['courses', 'projects']);
    expect(await ids('teach')).toEqual(['courses', 'projects', 'mall']);
    expect((await call('kid', 'PUT', '/api/v1/admin/institution-home', { projectTypes: [] })).statusCode).toBe(403);
  });

  it('gives a sub-customer only the modules its parent has, whatever is set for it', async () => {
    const sub = await buildCustomer(t.database.db, { parentId: customerId });
    const kid = await buildUser(t.database.db, { customerId: sub.id, username: 'subkid', roles: [ROLES.student] });
    tokens.subkid = await signIn(t.app, sub.code, 'subkid', kid.password);
    const ids = async () =>
      ((await call('subkid', 'GET', '/gw/api/v1/school/modules')).json().data as { id: string }[]).map((m) => m.id);
    await call('root', 'PUT', `/api/v1/admin_super/organizes/${customerId}/modules`, {
      teacher: ['courses'],
      student: ['courses', 'ai'],
    });
    expect(await ids()).toEqual(['courses', 'ai']);
    const url = `/api/v1/admin_super/organizes/${sub.id}/modules`;
    const set = await call('root', 'PUT', url, { teacher: ['courses', 'mall'], student: ['ai', 'mall'] });
    expect(set.json().data).toEqual({ teacher: ['courses'], student: ['ai'] });
    expect((await call('root', 'GET', url)).json().data).toEqual({ teacher: ['courses'], student: ['ai'] });
    expect(await ids()).toEqual(['ai']);
    const home = (await t.app.inject({ method: 'GET', url: `/gw/api/v1/school/home?custcode=${sub.code}` })).json()
      .data;
    expect(home.modules).toEqual({ teacher: ['courses'], student: ['ai'] });
  });

  it('lets a super administrator set each side’s modules of a customer, which its people then see', async () => {
    const url = `/api/v1/admin_super/organizes/${customerId}/modules`;
    const ids = async (who: string) =>
      ((await call(who, 'GET', '/gw/api/v1/school/modules')).json().data as { id: string }[]).map((m) => m.id);
    const set = await call('root', 'PUT', url, { teacher: ['courses', 'events'], student: ['projects'] });
    expect(set.json().data).toEqual({ teacher: ['courses', 'events'], student: ['projects'] });
    expect((await call('root', 'GET', url)).json().data).toEqual({
      teacher: ['courses', 'events'],
      student: ['projects'],
    });
    expect(await ids('teach')).toEqual(['courses', 'events']);
    expect(await ids('kid')).toEqual(['projects']);
    expect((await call('root', 'PUT', url, { teacher: ['teleport'], student: [] })).statusCode).toBe(400);
    expect((await call('admin', 'GET', url)).statusCode).toBe(403);
    const unknown = '/api/v1/admin_super/organizes/0192f7a0-0000-7000-8000-000000000000/modules';
    expect((await call('root', 'PUT', unknown, { teacher: [], student: [] })).statusCode).toBe(404);
  });
});
