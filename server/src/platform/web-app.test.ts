import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/test-app.js';

const INDEX_HTML = '<!doctype html><title>app</title><div id="root"></div>';
const ASSET = `console.log(${JSON.stringify('x'.repeat(2000))})`;

/** A file of the built app and the compressed copies the build writes beside it. */
function writeBuilt(file: string, text: string, { compressed = true } = {}) {
  writeFileSync(file, text);
  if (!compressed) return;
  writeFileSync(`${file}.br`, brotliCompressSync(text));
  writeFileSync(`${file}.gz`, gzipSync(text));
}

describe('serving the web app', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    await t.app.close();
    // A second app over a small built web app in the same data directory.
    const webDist = path.join(t.dataDir, 'web');
    mkdirSync(path.join(webDist, 'assets'), { recursive: true });
    writeBuilt(path.join(webDist, 'index.html'), INDEX_HTML);
    writeBuilt(path.join(webDist, 'assets', 'index-abc123.js'), ASSET);
    writeBuilt(path.join(webDist, 'assets', 'tiny-def456.js'), 'console.log(1)', { compressed: false });
    writeBuilt(path.join(webDist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>', { compressed: false });
    t = { ...(await createTestApp({ config: { webDist } })) };
  });
  afterAll(() => t.close());

  it.each(['/home', '/', '/pjedu/home', '/admin/school?page=2', '/some/unknown/page'])(
    'answers the page %s with index.html for the browser router',
    async (url) => {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toContain('text/html');
      expect(res.body).toContain('<div id="root">');
      expect(res.headers['cache-control']).toBe('no-cache');
    },
  );

  it('serves hashed assets with a long cache, and a missing asset as 404', async () => {
    const asset = await t.app.inject({ method: 'GET', url: '/assets/index-abc123.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await t.app.inject({ method: 'GET', url: '/assets/gone.js' })).statusCode).toBe(404);
  });

  it('sends the Brotli copy of an asset to a browser that accepts it, then gzip, then the file itself', async () => {
    const get = (acceptEncoding?: string) =>
      t.app.inject({
        method: 'GET',
        url: '/assets/index-abc123.js',
        headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {},
      });

    const br = await get('gzip, deflate, br, zstd');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toContain('javascript');
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(br.headers.vary).toContain('accept-encoding');
    expect(br.rawPayload.length).toBeLessThan(ASSET.length / 10);
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(ASSET);

    const gzip = await get('gzip, deflate');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gzip.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(ASSET);

    const plain = await get();
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toContain('accept-encoding');
    expect(plain.body).toBe(ASSET);
  });

  it('sends a file the build did not compress as it is, and no compressed copy at an address of its own', async () => {
    const tiny = await t.app.inject({
      method: 'GET',
      url: '/assets/tiny-def456.js',
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(tiny.statusCode).toBe(200);
    expect(tiny.headers['content-encoding']).toBeUndefined();
    expect(tiny.body).toBe('console.log(1)');
    expect((await t.app.inject({ method: 'GET', url: '/assets/index-abc123.js.br' })).statusCode).toBe(404);
    const favicon = await t.app.inject({ method: 'GET', url: '/favicon.svg' });
    expect(favicon.headers['cache-control']).toBe('no-cache');
  });

  it('sends index.html compressed and never cached without a check, for every page', async () => {
    for (const url of ['/home', '/portal/sign/login']) {
      const br = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip, deflate, br' } });
      expect(br.statusCode).toBe(200);
      expect(br.headers['content-type']).toContain('text/html');
      expect(br.headers['content-encoding']).toBe('br');
      expect(br.headers['cache-control']).toBe('no-cache');
      expect(brotliDecompressSync(br.rawPayload).toString()).toBe(INDEX_HTML);
    }
    const gzip = await t.app.inject({ method: 'GET', url: '/home', headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gzip.headers['cache-control']).toBe('no-cache');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(INDEX_HTML);
  });

  it('never answers an API path with the web app', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/gw/api/v1/unknown' });
    expect(res.statusCode).toBe(404);
    expect(res.json().errorCode).toBe('1004');
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/unknown' })).headers['content-type']).toContain('json');
  });

  it('sends security headers with a strict script policy', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/home' });
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(csp).toContain("object-src 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(res.headers['x-request-id']).toBeTruthy();
  });
});
