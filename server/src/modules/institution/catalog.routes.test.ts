import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser, signIn } from '../../test/factories.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

describe('area children, container types and modules', () => {
  let t: TestApp;
  let token: string;

  beforeAll(async () => {
    t = await createTestApp();
    const user = await buildUser(t.database.db, { username: 'learner' });
    token = await signIn(t.app, '', 'learner', user.password);
  });
  afterAll(() => t.close());

  const get = (url: string) => t.app.inject({ method: 'GET', url, headers: { 'x-authorization': token } });

  it('walks the administrative divisions from the country to the districts', async () => {
    expect((await get('/api/v1/area/children')).json().data).toEqual([{ code: 'CN', name: '中国', leaf: false }]);
    const provinces = (await get('/api/v1/area/children?parentCode=CN')).json().data as {
      code: string;
      name: string;
    }[];
    expect(provinces.length).toBeGreaterThanOrEqual(31);
    expect(provinces).toContainEqual({ code: '11', name: '北京市', leaf: false });
    const cities = (await get('/api/v1/area/children?parentCode=44')).json().data as { name: string }[];
    expect(cities.map((c) => c.name)).toContain('广州市');
    const districts = (await get('/api/v1/area/children?parentCode=4401')).json().data as {
      name: string;
      leaf: boolean;
    }[];
    expect(districts.map((d) => d.name)).toContain('天河区');
    expect(districts.every((d) => d.leaf)).toBe(true);
    expect((await get('/api/v1/area/children?parentCode=99')).json().data).toEqual([]);
  });

  it('names the country and provinces in the request language; cities and districts stay in Chinese', async () => {
    const named = async (language: string, parentCode = 'CN') =>
      (
        await t.app.inject({
          method: 'GET',
          url: `/api/v1/area/children?parentCode=${parentCode}`,
          headers: { 'x-authorization': token, language },
        })
      ).json().data as { code: string; name: string }[];
    const en = await named('en');
    expect(en).toContainEqual({ code: '61', name: 'Shaanxi', leaf: false });
    expect(en).toContainEqual({ code: '15', name: 'Inner Mongolia', leaf: false });
    expect(en.every((p) => /^[A-Za-z ]+$/.test(p.name))).toBe(true);
    expect(await named('ja')).toContainEqual({ code: '44', name: '広東省', leaf: false });
    expect(await named('zh_CHT')).toContainEqual({ code: '23', name: '黑龍江省', leaf: false });
    expect(await named('en', '11')).toEqual([{ code: '1101', name: 'City districts', leaf: false }]);
    const country = await t.app.inject({
      method: 'GET',
      url: '/api/v1/area/children',
      headers: { 'x-authorization': token, language: 'en' },
    });
    expect(country.json().data).toEqual([{ code: 'CN', name: 'China', leaf: false }]);
  });

  it('lists the container types and modules a customer can be given', async () => {
    expect((await get('/api/v1/admin_super/container-types')).json().data).toEqual(['BASIC', 'ADVANCED', 'GPU']);
    expect((await get('/api/v1/admin_super/modules')).json().data).toContain('courses');
  });
});
