import { readdirSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok } from '../../platform/envelope.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

describe('file downloads and streamed uploads', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
    // A streamed upload route as feature modules write them: the body goes straight to storage.
    t.app.register(async (scope) => {
      scope.addContentTypeParser('application/octet-stream', (_request, payload, done) => done(null, payload));
      scope.put('/gw/api/v1/test/upload/:name', async (request) => {
        const { name } = request.params as { name: string };
        return ok(await t.storage.put(`uploads/${name}`, request.body as Readable, { maxBytes: 1000 }));
      });
    });
    await t.app.ready();
  });
  afterAll(() => t.close());

  it('streams an upload within the limit into storage', async () => {
    const res = await t.app.inject({
      method: 'PUT',
      url: '/gw/api/v1/test/upload/ok.bin',
      headers: { 'content-type': 'application/octet-stream' },
      payload: Buffer.alloc(600, 1),
    });
    expect(res.json()).toEqual({ errorCode: '1000', errorMsg: '', data: { size: 600 } });
  });

  it('refuses an upload over the limit with 413 and keeps no partial file', async () => {
    const res = await t.app.inject({
      method: 'PUT',
      url: '/gw/api/v1/test/upload/big.bin',
      headers: { 'content-type': 'application/octet-stream', language: 'en' },
      payload: Buffer.alloc(5000, 1),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ errorCode: '2006', errorMsg: 'File too large' });
    const files = readdirSync(path.join(t.dataDir, 'files'), { recursive: true }).map(String);
    expect(files.filter((f) => f.includes('big.bin'))).toEqual([]);
    expect(readdirSync(path.join(t.dataDir, 'files', '.tmp'))).toEqual([]);
  });

  it('downloads through a signed URL and refuses a tampered one', async () => {
    await t.storage.put('exports/list.csv', Readable.from(['a,b\n1,2\n']), { maxBytes: 100 });
    const url = t.storage.signedUrl('exports/list.csv', { expiresInSeconds: 60, fileName: '名单.csv' });
    const res = await t.app.inject({ method: 'GET', url });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('a,b\n1,2\n');
    expect(res.headers['content-disposition']).toContain(encodeURIComponent('名单.csv'));
    const tampered = await t.app.inject({ method: 'GET', url: url.replace('list.csv', 'other.csv') });
    expect(tampered.statusCode).toBe(410);
    expect(tampered.json().errorCode).toBe('1005');
    const missing = await t.app.inject({ method: 'GET', url: '/gw/api/v1/files/download?key=x' });
    expect(missing.statusCode).toBe(400);
  });
});
