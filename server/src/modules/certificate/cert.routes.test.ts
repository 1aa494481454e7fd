import { CERT_API, ROLES, type TCertDesign } from '@aiedu/contracts';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { certificateIssuances, userCertificates } from '../../platform/db/schema/index.js';
import { buildCustomer, buildSchool, buildUser, signIn, testClock } from '../../test/factories.js';
import { multipartFile } from '../../test/multipart.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { allocateNumbers } from './numbering.js';
import { sampleDesign } from './render-samples.js';

describe('certificate templates', () => {
  let t: TestApp;
  const tokens: Record<string, string> = {};
  const ids: Record<string, string> = {};
  const design = (over: Partial<TCertDesign> = {}) => sampleDesign({ backgroundKey: null, sealKey: null, ...over });
  const template = (over: Record<string, unknown> = {}) => ({
    name: '编程大赛证书',
    type: 'activity',
    remark: '',
    numberRule: { prefix: 'ai', digits: 4 },
    design: design(),
    ...over,
  });

  type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
  const call = (who: string | null, method: Method, url: string, payload?: object) =>
    t.app.inject({
      method,
      url,
      payload,
      headers: { ...(who ? { 'x-authorization': tokens[who]! } : {}), language: 'en' },
    });
  const data = async (res: Awaited<ReturnType<typeof call>>) => {
    expect({ status: res.statusCode, code: res.json().errorCode, msg: res.json().errorMsg }).toMatchObject({
      status: 200,
      code: '1000',
    });
    return res.json().data;
  };
  const code = (res: Awaited<ReturnType<typeof call>>) => res.json().errorCode as string;
  const upload = (who: string, bytes: Buffer, name: string, originUrl?: string) => {
    const body = multipartFile(name, bytes);
    const query = originUrl ? `?originUrl=${encodeURIComponent(originUrl)}` : '';
    return t.app.inject({
      method: 'PUT',
      url: `${CERT_API.uploadCertPic}${query}`,
      payload: body.payload,
      headers: { 'content-type': body.type, 'x-authorization': tokens[who]!, language: 'en' },
    });
  };
  const png = (width: number, height: number) =>
    sharp({ create: { width, height, channels: 3, background: '#f5e6c8' } })
      .png()
      .toBuffer();

  beforeAll(async () => {
    t = await createTestApp({ now: testClock().now });
    const db = t.database.db;
    const a = await buildCustomer(db, { name: '示范学校' });
    const b = await buildCustomer(db);
    ids.a = a.id;
    const schoolA = await buildSchool(db, a.id);
    const schoolB = await buildSchool(db, b.id);
    const people: [string, string, string | null, string | null][] = [
      ['adminA', ROLES.customerAdmin, null, a.id],
      ['teachA', ROLES.teacher, schoolA.id, a.id],
      ['kidA', ROLES.student, schoolA.id, a.id],
      ['adminB', ROLES.customerAdmin, null, b.id],
      ['teachB', ROLES.teacher, schoolB.id, b.id],
      ['super', ROLES.super, null, null],
    ];
    for (const [username, role, schoolId, customerId] of people) {
      const user = await buildUser(db, { customerId, schoolId, username, realName: `${username} 王芳`, roles: [role] });
      ids[username] = user.id;
      const custcode = customerId === a.id ? a.code : customerId === b.id ? b.code : '';
      tokens[username] = await signIn(t.app, custcode, username, user.password);
    }
  });
  afterAll(() => t.close());

  it('creates, lists, reads, edits and deletes a template of the caller’s customer', async () => {
    const created = await data(await call('adminA', 'POST', CERT_API.cert, template()));
    ids.cert = created.id;
    expect(created).toMatchObject({
      name: '编程大赛证书',
      type: 'activity',
      layout: 'portrait',
      creatorId: ids.adminA,
      numberRule: { prefix: 'AI', digits: 4 },
      issuedCount: 0,
      backgroundUrl: null,
      sealUrl: null,
    });
    expect(created.design.elements.number.label).toBe('证书编号：');
    await data(await call('adminA', 'POST', CERT_API.cert, template({ name: 'Teaching award', type: 'teaching' })));

    const all = await data(await call('adminA', 'GET', `${CERT_API.cert}?page=1&size=10`));
    expect(all.total).toBe(2);
    const byKeyword = await data(await call('adminA', 'GET', `${CERT_API.cert}?keyword=${encodeURIComponent('大赛')}`));
    expect(byKeyword.list.map((c: { id: string }) => c.id)).toEqual([ids.cert]);
    const byType = await data(await call('adminA', 'GET', `${CERT_API.cert}?type=teaching`));
    expect(byType.list.map((c: { name: string }) => c.name)).toEqual(['Teaching award']);

    // Certificates issued from the template count; one waiting for review (no number yet) does not.
    const db = t.database.db;
    const [iss] = await db
      .insert(certificateIssuances)
      .values({
        customerId: ids.a!,
        certificateId: ids.cert!,
        issuerId: ids.adminA!,
        awardFor: 'AI',
        issueDate: '2026-11-22',
        source: 'manual',
        state: 'issued',
      })
      .returning();
    const holder = {
      issuanceId: iss!.id,
      certificateId: ids.cert!,
      customerId: ids.a!,
      userId: ids.kidA!,
      holderName: 'K',
      awardFor: 'AI',
    };
    await db.insert(userCertificates).values([{ ...holder, number: 'AI202611220001', design: created.design }, holder]);
    const detail = await data(await call('adminA', 'GET', `${CERT_API.certDetail}?certId=${ids.cert}`));
    expect(detail.issuedCount).toBe(1);

    const edited = await data(
      await call('adminA', 'PUT', CERT_API.cert, {
        ...template({ name: 'Renamed', design: design({ layout: 'landscape' }) }),
        id: ids.cert,
      }),
    );
    expect(edited).toMatchObject({ name: 'Renamed', layout: 'landscape', design: { layout: 'landscape' } });

    await data(await call('adminA', 'DELETE', `${CERT_API.cert}?certId=${ids.cert}`));
    expect(code(await call('adminA', 'GET', `${CERT_API.certDetail}?certId=${ids.cert}`))).toBe('4005');
    expect((await data(await call('adminA', 'GET', CERT_API.cert))).total).toBe(1);
    // The issued certificate keeps its frozen design.
    const kept = await db.select().from(userCertificates);
    expect(kept.find((c) => c.number)?.design?.layout).toBe('portrait');
  });

  it('refuses invalid templates with the validation envelope', async () => {
    const refused = async (body: object, text?: RegExp) => {
      const res = await call('adminA', 'POST', CERT_API.cert, body);
      expect({ status: res.statusCode, code: code(res) }).toEqual({ status: 400, code: '1001' });
      if (text) expect(JSON.stringify(res.json().data.issues)).toMatch(text);
    };
    await refused(template({ name: '   ' }));
    await refused(template({ name: 'x'.repeat(51) }));
    await refused(template({ numberRule: { prefix: 'AB1', digits: 4 } }), /body\.numberRule\.prefix.*letters only/);
    await refused(template({ numberRule: { prefix: 'ABCDEFGHIJK', digits: 4 } }), /letters only/);
    await refused(template({ numberRule: { prefix: 'AB', digits: 2 } }));
    await refused(template({ numberRule: { prefix: 'AB', digits: 7 } }));
    const base = design();
    await refused(
      template({ design: { ...base, elements: { ...base.elements, name: { ...base.elements.name, color: 'red' } } } }),
    );
    await refused(template({ design: design({ content: 'x'.repeat(301) }) }), /body\.design\.content/);
    await refused(template({ type: 'diploma' }));
    // An image key of another customer's cannot be saved into a design.
    const res = await call(
      'adminA',
      'POST',
      CERT_API.cert,
      template({ design: design({ backgroundKey: 'certificates/other/x.png' }) }),
    );
    expect(code(res)).toBe('1001');
  });

  it('answers 4005 for another customer’s template, lets teachers choose but not design', async () => {
    const mine = await data(await call('adminA', 'POST', CERT_API.cert, template({ name: 'Mine' })));
    for (const res of [
      await call('adminB', 'GET', `${CERT_API.certDetail}?certId=${mine.id}`),
      await call('adminB', 'PUT', CERT_API.cert, { ...template(), id: mine.id }),
      await call('adminB', 'DELETE', `${CERT_API.cert}?certId=${mine.id}`),
    ]) {
      expect({ status: res.statusCode, code: code(res) }).toEqual({ status: 404, code: '4005' });
    }
    expect((await data(await call('adminB', 'GET', CERT_API.cert))).total).toBe(0);
    expect(await data(await call('teachB', 'GET', CERT_API.certOptions))).toEqual([]);

    const options = await data(await call('teachA', 'GET', CERT_API.certOptions));
    expect(options.map((o: { name: string }) => o.name)).toContain('Mine');
    // Teachers read and preview the templates they give, and design none.
    expect((await data(await call('teachA', 'GET', `${CERT_API.certDetail}?certId=${mine.id}`))).name).toBe('Mine');
    expect(code(await call('teachB', 'GET', `${CERT_API.certDetail}?certId=${mine.id}`))).toBe('4005');
    const preview = await call('teachA', 'POST', CERT_API.preview, { design: template().design });
    expect(preview.headers['content-type']).toContain('application/pdf');
    expect(code(await call('kidA', 'POST', CERT_API.preview, { design: template().design }))).toBe('1006');
    expect(code(await call('teachA', 'POST', CERT_API.cert, template()))).toBe('1006');
    expect(code(await call('teachA', 'GET', CERT_API.cert))).toBe('1006');
    expect(code(await call('kidA', 'GET', CERT_API.certOptions))).toBe('1006');

    // Super administrators read every customer's templates and create none.
    const seen = await data(await call('super', 'GET', `${CERT_API.cert}?size=100`));
    expect(seen.list.map((c: { id: string }) => c.id)).toContain(mine.id);
    expect((await data(await call('super', 'GET', `${CERT_API.certDetail}?certId=${mine.id}`))).name).toBe('Mine');
    expect(code(await call('super', 'POST', CERT_API.cert, template()))).toBe('1006');
  });

  it('uploads images, serves them to their customer, refuses wrong ones and replaces the old', async () => {
    const first = await data(await upload('adminA', await png(650, 930), 'bg.png'));
    expect(first).toMatchObject({ width: 650, height: 930 });
    expect(first.key).toMatch(new RegExp(`^certificates/${ids.a}/[0-9a-f-]{36}\\.png$`));
    const shown = await t.app.inject({ method: 'GET', url: first.url });
    expect({ status: shown.statusCode, type: shown.headers['content-type'] }).toEqual({
      status: 200,
      type: 'image/png',
    });
    expect((await sharp(shown.rawPayload).metadata()).width).toBe(650);
    const byKey = `${CERT_API.certPic}?key=${encodeURIComponent(first.key)}`;
    expect((await call('adminA', 'GET', byKey)).statusCode).toBe(200);
    expect(code(await call('adminB', 'GET', byKey))).toBe('4005');
    expect(code(await call(null, 'GET', byKey))).toBe('4005');
    const forged = first.url.replace(/sig=[^&]+/, 'sig=AAAA');
    expect(code(await call(null, 'GET', forged))).toBe('4005');

    const big = await sharp({ create: { width: 2000, height: 2000, channels: 3, background: '#000' } })
      .jpeg()
      .toBuffer();
    expect(code(await upload('adminA', Buffer.concat([big, Buffer.alloc(5 * 1024 * 1024)]), 'huge.jpg'))).toBe('2006');
    const gif = Buffer.from('R0lGODlhAQABAIAAAAAAAP///ywAAAAAAQABAAACAUwAOw==', 'base64');
    expect(code(await upload('adminA', gif, 'seal.png'))).toBe('1001');
    expect(code(await upload('teachA', await png(10, 10), 'x.png'))).toBe('1006');

    // Replacing an image nothing draws deletes it; one a template draws stays.
    const second = await data(await upload('adminA', await png(200, 200), 'seal.png', first.url));
    expect(await t.storage.exists(first.key)).toBe(false);
    expect(second).toMatchObject({ width: 200, height: 200 });
    await data(
      await call(
        'adminA',
        'POST',
        CERT_API.cert,
        template({ name: 'Sealed', design: design({ sealKey: second.key }) }),
      ),
    );
    const third = await data(await upload('adminA', await png(100, 100), 'seal2.png', second.key));
    expect(await t.storage.exists(second.key)).toBe(true);
    // Another customer's key as originUrl is never deleted.
    await data(await upload('adminB', await png(100, 100), 'b.png', third.key));
    expect(await t.storage.exists(third.key)).toBe(true);
  });

  it('previews a design as a PDF and peeks at the next number', async () => {
    const bg = await data(await upload('adminA', await png(650, 930), 'bg.png'));
    const res = await t.app.inject({
      method: 'POST',
      url: CERT_API.preview,
      payload: {
        design: design({ backgroundKey: bg.key, sealKey: 'certificates/other/seal.png' }),
        numberRule: { prefix: 'ai', digits: 4 },
      },
      headers: { 'x-authorization': tokens.adminA!, language: 'en' },
    });
    expect({ status: res.statusCode, type: res.headers['content-type'] }).toEqual({
      status: 200,
      type: 'application/pdf',
    });
    expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    expect(code(await call('adminA', 'POST', CERT_API.preview, { design: { layout: 'portrait' } }))).toBe('1001');

    // The test clock reads 2026-11-22 in the customer's time zone (Asia/Shanghai).
    const next = async () =>
      (await data(await call('adminA', 'GET', `${CERT_API.nextNumber}?prefix=ab&digits=5`))).number;
    expect(await next()).toBe('AB2026112200001');
    expect(await next()).toBe('AB2026112200001');
    await allocateNumbers(t.database.db, { prefix: 'AB', digits: 5 }, '2026-11-22', 3);
    expect(await next()).toBe('AB2026112200004');
    expect(code(await call('adminA', 'GET', `${CERT_API.nextNumber}?prefix=A1`))).toBe('1001');
  });
});
