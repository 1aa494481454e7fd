import { ROLES } from '@aiedu/contracts';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computeAllowances, operationLogs } from '../../platform/db/schema/index.js';
import { b64, buildCustomer, buildUser, signIn } from '../../test/factories.js';
import { multipartFile } from '../../test/multipart.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

describe('the super administrators’ console: system configuration and container types', () => {
  let t: TestApp;
  const tokens: Record<string, string> = {};
  let custcode: string;
  let customerId: string;

  beforeAll(async () => {
    t = await createTestApp({ config: { isCustomerSingle: false, isVerifyCode: false } });
    const db = t.database.db;
    const customer = await buildCustomer(db, { containerTypes: ['BASIC', 'GPU'] });
    await buildCustomer(db, { containerTypes: ['BASIC'] });
    custcode = customer.code;
    customerId = customer.id;
    const root = await buildUser(db, { username: 'root', roles: [ROLES.super] });
    const admin = await buildUser(db, { customerId, username: 'admin', roles: [ROLES.customerAdmin] });
    const kid = await buildUser(db, { customerId, username: 'kid', roles: [ROLES.student] });
    tokens.root = await signIn(t.app, '', 'root', root.password);
    tokens.admin = await signIn(t.app, custcode, 'admin', admin.password);
    tokens.kid = await signIn(t.app, custcode, 'kid', kid.password);
  });
  afterAll(() => t.close());

  const call = (who: string, method: 'GET' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({ method, url, payload, headers: { 'x-authorization': tokens[who]!, language: 'en' } });
  const setting = async () => (await t.app.inject({ method: 'GET', url: '/gw/api/v1/sys/setting' })).json().data;
  const uploadLogo = (fileName: string, content: Buffer, who = 'root') => {
    const { payload, type } = multipartFile(fileName, content);
    return t.app.inject({
      method: 'POST',
      url: '/api/v1/admin_super/system-config/logo',
      payload,
      headers: { 'content-type': type, 'x-authorization': tokens[who]! },
    });
  };

  it('answers the deployment’s switches and the product’s own name and logo until they are changed', async () => {
    expect(await setting()).toEqual({
      isCustomerSingle: false,
      isVerifyCode: false,
      custcode: null,
      platformName: null,
      logoUrl: null,
    });
    expect((await call('root', 'GET', '/api/v1/admin_super/system-config')).json().data).toEqual({
      platformName: null,
      logoUrl: null,
      isCustomerSingle: null,
      isVerifyCode: null,
      deployment: { isCustomerSingle: false, isVerifyCode: false },
    });
  });

  it('renames the platform for every page, with an operation log, and refuses anyone else', async () => {
    const res = await call('root', 'PUT', '/api/v1/admin_super/system-config', { platformName: '  Bright Schools  ' });
    expect(res.json().data.platformName).toBe('Bright Schools');
    expect((await setting()).platformName).toBe('Bright Schools');
    expect(
      (await call('root', 'PUT', '/api/v1/admin_super/system-config', { platformName: 'x'.repeat(31) })).statusCode,
    ).toBe(400);
    const logs = await t.database.db.select().from(operationLogs).where(eq(operationLogs.module, 'system'));
    expect(logs.map((l) => l.params)).toContainEqual({ platformName: 'Bright Schools' });
    const refused = await call('admin', 'PUT', '/api/v1/admin_super/system-config', { platformName: 'Mine' });
    expect(refused.statusCode).toBe(403);
    expect((await call('admin', 'GET', '/api/v1/admin_super/system-config')).statusCode).toBe(403);
    expect((await setting()).platformName).toBe('Bright Schools');
  });

  it('takes a logo by the banners’ rules, shows it shrunk to fit, and goes back to the product logo', async () => {
    const jpeg = await sharp({ create: { width: 2000, height: 500, channels: 3, background: '#36c' } })
      .jpeg()
      .toBuffer();
    const res = await uploadLogo('logo.jpg', jpeg);
    expect(res.json().errorCode).toBe('1000');
    const { logoUrl } = await setting();
    const stored = await t.app.inject({ method: 'GET', url: logoUrl });
    expect(await sharp(stored.rawPayload).metadata()).toMatchObject({ width: 512, height: 128, format: 'png' });

    const gif = await sharp({ create: { width: 10, height: 10, channels: 3, background: '#000' } })
      .gif()
      .toBuffer();
    expect((await uploadLogo('logo.gif', gif)).json().errorCode).toBe('1001');
    expect((await uploadLogo('logo.png', Buffer.from('not an image at all, only text'))).json().errorCode).toBe('1001');
    expect((await uploadLogo('logo.png', Buffer.alloc(3 * 1024 * 1024 + 10, 1))).statusCode).toBe(413);
    expect((await uploadLogo('logo.png', jpeg, 'admin')).statusCode).toBe(403);
    // Refused uploads keep the stored logo (the signed URL's expiry moves with the clock; the key is what stays).
    const storedKey = (url: string) => new URL(url, 'http://localhost').searchParams.get('key');
    expect(storedKey((await setting()).logoUrl)).toBe(storedKey(logoUrl));

    expect((await call('root', 'DELETE', '/api/v1/admin_super/system-config/logo')).json().data.logoUrl).toBeNull();
    expect((await setting()).logoUrl).toBeNull();
    expect((await t.app.inject({ method: 'GET', url: logoUrl })).statusCode).toBe(404);
  });

  it('requires the slider for every sign-in once switched on, and follows the deployment again after null', async () => {
    const enabled = () =>
      t.app.inject({ method: 'GET', url: `/gw/api/v1/auth/verifycode/enabled?custcode=${custcode}&username=kid` });
    expect((await enabled()).json().data).toBe(false);
    await call('root', 'PUT', '/api/v1/admin_super/system-config', { isVerifyCode: true, isCustomerSingle: true });
    expect(await setting()).toMatchObject({ isVerifyCode: true, isCustomerSingle: true });
    expect((await enabled()).json().data).toBe(true);
    const login = await t.app.inject({
      method: 'POST',
      url: '/gw/api/v1/auth/login',
      payload: { custcode, usernameOrEmailOrPhone: 'kid', password: b64('Pass@2026word') },
    });
    expect(login.json().errorCode).toBe('1104');
    await call('root', 'PUT', '/api/v1/admin_super/system-config', { isVerifyCode: null, isCustomerSingle: null });
    expect(await setting()).toMatchObject({ isVerifyCode: false, isCustomerSingle: false });
    expect((await enabled()).json().data).toBe(false);
  });

  it('lists the container types with this server’s limits and the customers offered each', async () => {
    const types = (await call('root', 'GET', '/api/v1/admin_super/container-types/config')).json().data;
    expect(types).toEqual([
      expect.objectContaining({ runtimeType: 'BASIC', cpu: 1, memoryMb: 1024, weeklyMinutes: 600, customers: 2 }),
      expect.objectContaining({ runtimeType: 'ADVANCED', cpu: 2, memoryMb: 2048, weeklyMinutes: 300, customers: 0 }),
      expect.objectContaining({ runtimeType: 'GPU', cpu: 4, memoryMb: 4096, weeklyMinutes: 60, customers: 1 }),
    ]);
    expect(types.every((type: { customized: boolean }) => !type.customized)).toBe(true);
    expect((await call('admin', 'GET', '/api/v1/admin_super/container-types/config')).statusCode).toBe(403);
  });

  it('sets a platform default of weekly minutes that customers without their own allowance get', async () => {
    const basicBalance = async () =>
      ((await call('kid', 'GET', '/gw/api/v1/runtime/balance')).json().data as { runtimeType: string }[]).find(
        (b) => b.runtimeType === 'BASIC',
      );
    const put = (weeklyMinutes: number | null) =>
      call('root', 'PUT', '/api/v1/admin_super/container-types/config', { runtimeType: 'BASIC', weeklyMinutes });
    expect((await put(120)).json().errorCode).toBe('1000');
    expect(await basicBalance()).toMatchObject({ weeklyMinutes: 120, remainingMinutes: 120 });
    const types = (await call('root', 'GET', '/api/v1/admin_super/container-types/config')).json().data;
    expect(types[0]).toMatchObject({ weeklyMinutes: 120, deploymentWeeklyMinutes: 600, customized: true });
    expect(types[1]).toMatchObject({ weeklyMinutes: 300, customized: false });
    // A customer's own allowance still comes first.
    await t.database.db.insert(computeAllowances).values({ customerId, runtimeType: 'BASIC', weeklyMinutes: 45 });
    expect(await basicBalance()).toMatchObject({ weeklyMinutes: 45 });
    await t.database.db.delete(computeAllowances).where(eq(computeAllowances.customerId, customerId));
    expect((await put(null)).json().errorCode).toBe('1000');
    expect(await basicBalance()).toMatchObject({ weeklyMinutes: 600 });
    expect((await put(10_081)).statusCode).toBe(400);
  });
});
