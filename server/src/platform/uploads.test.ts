import { LIMITS, ROLES } from '@aiedu/contracts';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCourse } from '../test/course-factories.js';
import { buildCustomer, buildSchool, buildUser, signIn } from '../test/factories.js';
import { keepAliveClient } from '../test/keep-alive-client.js';
import { createTestApp, type TestApp } from '../test/test-app.js';

const MB = 1024 * 1024;
const TIMES = 3;

/** A real image followed by zeros up to `bytes`: whatever the server stored of it would decode. */
async function imageOf(bytes: number) {
  const png = await sharp({ create: { width: 400, height: 200, channels: 3, background: '#3a7' } })
    .png()
    .toBuffer();
  return Buffer.concat([png, Buffer.alloc(bytes - png.length)]);
}

describe('upload limits on one kept-alive connection', () => {
  let t: TestApp;
  let client: Awaited<ReturnType<typeof keepAliveClient>>;
  let custcode: string;
  const tokens: Record<string, string> = {};
  let courseId: string;
  let schoolId: string;

  beforeAll(async () => {
    t = await createTestApp();
    const customer = await buildCustomer(t.database.db);
    custcode = customer.code;
    schoolId = (await buildSchool(t.database.db, customer.id)).id;
    const people = {
      kid: [ROLES.student],
      admin: [ROLES.customerAdmin],
      teach: [ROLES.teacher],
    } as const;
    for (const [username, roles] of Object.entries(people)) {
      const user = await buildUser(t.database.db, { customerId: customer.id, username, roles: [...roles] });
      tokens[username] = await signIn(t.app, custcode, username, user.password);
      if (username === 'teach') {
        ({ courseId } = await buildCourse(t.database.db, { customerId: customer.id, ownerId: user.id }));
      }
    }
    const root = await buildUser(t.database.db, { username: 'root', roles: [ROLES.super] });
    tokens.root = await signIn(t.app, '', 'root', root.password);
    client = await keepAliveClient(t.app);
  });
  afterAll(async () => {
    client.close();
    await t.close();
  });

  const headers = (who: string) => ({ 'x-authorization': tokens[who]!, language: 'en' });
  const get = async (who: string, url: string) =>
    (await t.app.inject({ method: 'GET', url, headers: headers(who) })).json().data;

  async function refusesEveryTime(who: string, url: string, sizes: number[], fields = {}) {
    const answers = [];
    for (let i = 0; i < TIMES; i++) {
      for (const size of sizes) {
        const answer = await client.upload(url, headers(who), 'big.png', await imageOf(size), fields);
        answers.push({ size, status: answer.status, body: JSON.parse(answer.body) });
      }
    }
    expect(answers).toEqual(
      answers.map(({ size }) => ({
        size,
        status: 413,
        body: { errorCode: '2006', errorMsg: 'File too large', data: null },
      })),
    );
  }

  it('refuses 6 MB and 50 MB avatars every time, and stores none', async () => {
    await refusesEveryTime('kid', '/gw/api/v1/edu_user/avatar', [6 * MB, 50 * MB]);
    expect((await get('kid', '/gw/api/v1/user/userInfo')).avatarUrl).toBeNull();
    expect(client.socketCount).toBe(1);
  });

  it('refuses banners and logos over 3 MB every time, and stores none', async () => {
    await refusesEveryTime('admin', '/api/v1/admin/institution-home/banners/0', [4 * MB], { link: 'https://a.test' });
    const home = await get('admin', `/gw/api/v1/school/home?custcode=${custcode}`);
    expect(home.banners).toEqual([]);
    await refusesEveryTime('root', '/api/v1/admin_super/system-config/logo', [4 * MB]);
    expect((await get('root', '/api/v1/admin_super/system-config')).logoUrl).toBeNull();
  });

  it('refuses course covers over 2 MB and imports over 20 MB every time', async () => {
    await refusesEveryTime('teach', `PUT /api/v1/courses/${courseId}/cover`, [3 * MB]);
    expect((await get('teach', `/api/v1/courses/${courseId}/edit`)).coverUrl).toBeNull();
    await refusesEveryTime('admin', `/gw/admin/api/v1/school/students/import?schoolId=${schoolId}&dryRun=true`, [
      21 * MB,
    ]);
  });

  it('takes a file of exactly the limit, sent the same way', async () => {
    const answer = await client.upload(
      '/gw/api/v1/edu_user/avatar',
      headers('kid'),
      'edge.png',
      await imageOf(LIMITS.avatarBytes),
    );
    expect(JSON.parse(answer.body).errorCode).toBe('1000');
  });
});
