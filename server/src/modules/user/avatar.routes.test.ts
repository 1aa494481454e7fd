import { encode as encodeBmp } from 'bmp-ts';
import sharp, { type Metadata } from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCustomer, buildUser, signIn } from '../../test/factories.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

function multipart(fileName: string, content: Buffer) {
  const boundary = '----avatar-test-boundary';
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    ),
    content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { body, contentType: `multipart/form-data; boundary=${boundary}` };
}

const solid = (format: 'png' | 'jpeg' | 'gif', size = 400) =>
  sharp({ create: { width: size, height: size / 2, channels: 3, background: '#3a7' } })
    .toFormat(format)
    .toBuffer();

describe('avatar upload', () => {
  let t: TestApp;
  let token: string;

  beforeAll(async () => {
    t = await createTestApp();
    const customer = await buildCustomer(t.database.db);
    const user = await buildUser(t.database.db, { customerId: customer.id, username: 'face' });
    token = await signIn(t.app, customer.code, 'face', user.password);
  });
  afterAll(() => t.close());

  const upload = (fileName: string, content: Buffer) => {
    const { body, contentType } = multipart(fileName, content);
    return t.app.inject({
      method: 'POST',
      url: '/gw/api/v1/edu_user/avatar',
      payload: body,
      headers: { 'content-type': contentType, 'x-authorization': token, language: 'en' },
    });
  };

  async function storedAvatar(): Promise<Metadata> {
    const info = await t.app.inject({
      method: 'GET',
      url: '/gw/api/v1/user/userInfo',
      headers: { 'x-authorization': token },
    });
    const download = await t.app.inject({ method: 'GET', url: info.json().data.avatarUrl });
    return sharp(download.rawPayload).metadata();
  }

  it.each([
    ['photo.png', () => solid('png')],
    ['photo.JPG', () => solid('jpeg')],
    ['scan.bmp', async () => encodeBmp({ data: Buffer.alloc(64 * 32 * 4, 0x80), width: 64, height: 32 }).data],
  ])('accepts %s and stores a 256×256 PNG', async (fileName, make) => {
    const res = await upload(fileName, await make());
    expect(res.json().errorCode).toBe('1000');
    const meta = await storedAvatar();
    expect(meta).toMatchObject({ format: 'png', width: 256, height: 256 });
  });

  it('judges by content, not by name: a text file called .png and a GIF are refused', async () => {
    expect((await upload('evil.png', Buffer.from('<script>alert(1)</script>'))).statusCode).toBe(400);
    expect((await upload('anim.gif', await solid('gif'))).statusCode).toBe(400);
    expect((await upload('photo.gif', await solid('png'))).statusCode).toBe(400);
  });

  it('refuses a small BMP whose header claims more pixels than any image may have', async () => {
    // A run-length encoded header for 10000 × 6000 pixels, two palette entries, and nothing but "end of image".
    const header = Buffer.alloc(62);
    header.write('BM', 0, 'latin1');
    header.writeUInt32LE(64, 2);
    header.writeUInt32LE(62, 10);
    header.writeUInt32LE(40, 14);
    header.writeUInt32LE(10_000, 18);
    header.writeInt32LE(6_000, 22);
    header.writeUInt16LE(1, 26);
    header.writeUInt16LE(8, 28);
    header.writeUInt32LE(1, 30);
    header.writeUInt32LE(2, 46);
    const res = await upload('huge.bmp', Buffer.concat([header, Buffer.from([0, 1])]));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ errorCode: '1001', data: { reason: 'unreadable image' } });
  });

  it('refuses a file over 5 MB with 413', async () => {
    const big = Buffer.concat([await solid('png'), Buffer.alloc(5 * 1024 * 1024 + 1)]);
    const res = await upload('big.png', big);
    expect(res.statusCode).toBe(413);
    expect(res.json().errorCode).toBe('2006');
  });

  it('goes back to the default avatar', async () => {
    const res = await t.app.inject({
      method: 'PUT',
      url: '/gw/api/v1/user/avatar',
      payload: { avatar: null },
      headers: { 'x-authorization': token },
    });
    expect(res.json().errorCode).toBe('1000');
    const info = await t.app.inject({
      method: 'GET',
      url: '/gw/api/v1/user/userInfo',
      headers: { 'x-authorization': token },
    });
    expect(info.json().data.avatarUrl).toBeNull();
  });
});
