import { ROLES } from '@aiedu/contracts';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCustomer, buildUser, signIn } from '../../test/factories.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

function multipart(fileName: string, content: Buffer, link: string) {
  const boundary = '----banner-boundary';
  return {
    body: Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="link"\r\n\r\n${link}\r\n`),
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\n\r\n`),
      content,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]),
    type: `multipart/form-data; boundary=${boundary}`,
  };
}

describe('institution home and modules', () => {
  let t: TestApp;
  let custcode: string;
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
    const { body, type } = multipart('spring.jpg', image, 'https://school.test/spring');
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

  it('hides from a side the modules its institution turned off', async () => {
    const all = (await call('kid', 'GET', '/gw/api/v1/school/modules')).json().data.map((m: { id: string }) => m.id);
    expect(all).toContain('mall');
    await call('admin', 'PUT', '/api/v1/admin/institution-home', {
      modules: { teacher: ['courses', 'projects', 'mall'], student: ['courses', 'projects'] },
    });
    const limited = (await call('kid', 'GET', '/gw/api/v1/school/modules'))
      .json()
      .data.map((m: { id: string }) => m.id);
    expect(limited).toEqual(['courses', 'projects']);
    expect((await call('kid', 'PUT', '/api/v1/admin/institution-home', { projectTypes: [] })).statusCode).toBe(403);
  });
});
