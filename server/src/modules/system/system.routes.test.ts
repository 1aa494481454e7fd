import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { customers } from '../../platform/db/schema/index.js';
import { buildCustomer } from '../../test/factories.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

describe('system routes', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ config: { isCustomerSingle: true, isVerifyCode: false } });
  });
  afterAll(() => t.close());

  it('GET /gw/api/v1/sys/setting reports the configuration', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/gw/api/v1/sys/setting' });
    expect(res.json()).toEqual({
      errorCode: '1000',
      errorMsg: '',
      data: { isCustomerSingle: true, isVerifyCode: false, custcode: null, platformName: null, logoUrl: null },
    });
  });

  it('names the one customer the hidden customer-code field stands for: the first enabled top-level one', async () => {
    const setting = async () =>
      (await t.app.inject({ method: 'GET', url: '/gw/api/v1/sys/setting' })).json().data.custcode as string | null;
    const demo = await buildCustomer(t.database.db, { code: 'demo2026' });
    const school = await buildCustomer(t.database.db, { code: 'ourschool1' });
    await buildCustomer(t.database.db, { code: 'ourbranch1', parentId: school.id });
    expect(await setting()).toBe('demo2026');
    await t.database.db.update(customers).set({ enabled: false }).where(eq(customers.id, demo.id));
    expect(await setting()).toBe('ourschool1');
    t.config.isCustomerSingle = false;
    expect(await setting()).toBeNull();
    t.config.isCustomerSingle = true;
  });

  it('GET /gw/api/v1/langList lists the four languages', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/gw/api/v1/langList' });
    expect(res.json().data.map((l: { code: string }) => l.code)).toEqual(['en', 'zh_CHS', 'zh_CHT', 'ja']);
  });

  it('GET /gw/api/v1/apps names the products in the request language', async () => {
    const en = await t.app.inject({ method: 'GET', url: '/gw/api/v1/apps', headers: { language: 'en' } });
    const zh = await t.app.inject({ method: 'GET', url: '/gw/api/v1/apps' });
    expect(en.json().data[0]).toMatchObject({ id: 'pjedu', name: 'AI Learning', path: '/pjedu/home' });
    expect(zh.json().data[0].name).toBe('人工智能学习');
    expect(en.json().data.map((a: { id: string }) => a.id)).toEqual(zh.json().data.map((a: { id: string }) => a.id));
  });

  it('publishes an OpenAPI document built from the schemas, and Swagger UI', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/gw/api/v1/openapi.json' })).json();
    expect(doc.openapi).toMatch(/^3\./);
    const setting = doc.paths['/gw/api/v1/sys/setting'].get.responses['200'].content['application/json'].schema;
    expect(setting.properties.data.properties).toHaveProperty('isCustomerSingle');
    const ui = await t.app.inject({ method: 'GET', url: '/api-docs/' });
    expect(ui.statusCode).toBe(200);
    expect(ui.body).toContain('swagger');
  });
});
