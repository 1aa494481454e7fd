import { readdirSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ok } from '../../platform/envelope.js';
import { S3Storage } from '../../platform/storage/s3-storage.js';
import { presignedSignatureMatches, startTestS3, type TestS3 } from '../../test/s3-server.js';
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
    // A PDF shows in place, unless its link asks for it to be saved.
    await t.storage.put('reports/r.pdf', Readable.from(['%PDF']), { maxBytes: 100 });
    const shown = await t.app.inject({
      method: 'GET',
      url: t.storage.signedUrl('reports/r.pdf', { expiresInSeconds: 60 }),
    });
    expect(shown.headers['content-disposition']).toBe("inline; filename*=UTF-8''r.pdf");
    const saveUrl = t.storage.signedUrl('reports/r.pdf', { expiresInSeconds: 60, attachment: true });
    const saved = await t.app.inject({ method: 'GET', url: saveUrl });
    expect(saved.headers['content-disposition']).toBe("attachment; filename*=UTF-8''r.pdf");
    const tampered = await t.app.inject({ method: 'GET', url: url.replace('list.csv', 'other.csv') });
    expect(tampered.statusCode).toBe(410);
    expect(tampered.json().errorCode).toBe('1005');
    const missing = await t.app.inject({ method: 'GET', url: '/gw/api/v1/files/download?key=x' });
    expect(missing.statusCode).toBe(400);
  });

  it('answers 1010 (loading failed) when storage cannot be read, and 1004 for a file that is gone', async () => {
    await t.storage.put('exports/unreadable.csv', Readable.from(['a\n']), { maxBytes: 100 });
    const url = t.storage.signedUrl('exports/unreadable.csv', { expiresInSeconds: 60 });
    // The disk fails under the file (as an EIO would).
    vi.spyOn(t.storage, 'get').mockRejectedValueOnce(Object.assign(new Error('EIO: i/o error, read'), { code: 'EIO' }));
    const failed = await t.app.inject({ method: 'GET', url, headers: { language: 'en' } });
    expect(failed.statusCode).toBe(500);
    expect(failed.json()).toEqual({ errorCode: '1010', errorMsg: 'Loading failed', data: null });
    const gone = t.storage.signedUrl('exports/never-stored.csv', { expiresInSeconds: 60 });
    expect((await t.app.inject({ method: 'GET', url: gone })).json().errorCode).toBe('1004');
  });
});

describe('downloads from a bucket that serves them itself', () => {
  let s3: TestS3;
  let bucket: S3Storage;
  let t: TestApp;
  let publicEndpoint: string;

  beforeAll(async () => {
    s3 = await startTestS3();
    publicEndpoint = s3.options().endpoint!.replace('127.0.0.1', 'localhost');
    bucket = new S3Storage(
      { ...s3.options({ prefix: 'routes/' }), directDownloads: true, publicEndpoint },
      'test-secret-test-secret-test-secret',
    );
    t = await createTestApp({ storage: bucket });
  });
  afterAll(async () => {
    await t.close();
    bucket.close();
    await s3.close();
  });

  it('answers a signed link with a redirect to the bucket, which sends the file as the link names it', async () => {
    await bucket.put('resources/r1.pdf', Readable.from(['%PDF-1.4 …']), { maxBytes: 100 });
    const url = bucket.signedUrl('resources/r1.pdf', { expiresInSeconds: 3600, fileName: '第一课.pdf' });
    const res = await t.app.inject({ method: 'GET', url });
    expect(res.statusCode).toBe(302);
    const location = res.headers.location!;
    expect(new URL(location).origin).toBe(publicEndpoint);
    expect(presignedSignatureMatches(location)).toBe(true);
    const file = await fetch(location);
    expect(file.status).toBe(200);
    expect(await file.text()).toBe('%PDF-1.4 …');
    expect(file.headers.get('content-type')).toBe('application/pdf');
    expect(file.headers.get('content-disposition')).toBe(
      `inline; filename*=UTF-8''${encodeURIComponent('第一课.pdf')}`,
    );
    // A link to save it: the bucket is told to send it as an attachment, since a browser keeps an anchor's download
    // name only for its own origin.
    const saveUrl = bucket.signedUrl('resources/r1.pdf', {
      expiresInSeconds: 3600,
      fileName: '第一课.pdf',
      attachment: true,
    });
    const saved = await fetch((await t.app.inject({ method: 'GET', url: saveUrl })).headers.location!);
    expect(saved.headers.get('content-disposition')).toBe(
      `attachment; filename*=UTF-8''${encodeURIComponent('第一课.pdf')}`,
    );
    // It ends when the link does: what the link says, at most a week, counted from the hour it is signed as of.
    const signed = new URL(location).searchParams;
    // X-Amz-Date is ISO 8601 without separators: 20261125T000000Z.
    const signedAt = Date.parse(
      signed.get('X-Amz-Date')!.replace(/^(\d{4})(\d\d)(\d\d)T(\d\d)(\d\d)/, '$1-$2-$3T$4:$5:'),
    );
    const expires = Number(new URL(url, 'http://x').searchParams.get('expires'));
    expect(signedAt / 1000 + Number(signed.get('X-Amz-Expires'))).toBe(expires);
  });

  it('answers a link to a deleted file or an altered link itself, without sending anyone to the bucket', async () => {
    await bucket.put('resources/gone.pdf', Readable.from(['x']), { maxBytes: 10 });
    const url = bucket.signedUrl('resources/gone.pdf', { expiresInSeconds: 60 });
    await bucket.delete('resources/gone.pdf');
    const gone = await t.app.inject({ method: 'GET', url, headers: { language: 'en' } });
    expect(gone.statusCode).toBe(404);
    expect(gone.json().errorCode).toBe('1004');
    const altered = await t.app.inject({ method: 'GET', url: url.replace('gone.pdf', 'other.pdf') });
    expect(altered.statusCode).toBe(410);
    expect(altered.headers.location).toBeUndefined();
  });

  it("allows the bucket's origin for files in the Content-Security-Policy, and nothing more", async () => {
    const policy = (await t.app.inject({ method: 'GET', url: '/readyz' })).headers['content-security-policy'] as string;
    const directives = Object.fromEntries(policy.split(';').map((d) => [d.split(' ')[0], d.split(' ').slice(1)]));
    for (const name of ['img-src', 'media-src', 'frame-src', 'connect-src'])
      expect(directives[name]).toContain(publicEndpoint);
    for (const name of ['script-src', 'style-src', 'default-src'])
      expect(directives[name]).not.toContain(publicEndpoint);
    const local = await createTestApp();
    const localPolicy = (await local.app.inject({ method: 'GET', url: '/readyz' })).headers['content-security-policy'];
    await local.close();
    expect(localPolicy).not.toContain('localhost');
  });
});
