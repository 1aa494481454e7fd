import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/test-app.js';

const INDEX_HTML = '<!doctype html><title>app</title><div id="root"></div>';
const ASSET = `console.log(${JSON.stringify('x'.repeat(2000))})`;

/** What the web build writes for the server's Link headers (web/vite.config.ts), for a small app. */
const FIRST_PAINT = {
  entry: ['/assets/index-abc123.js', '/assets/index-abc123.css'],
  languages: { en: ['/assets/common-en.js'], ja: ['/assets/common-ja.js'] },
  pages: [
    {
      paths: ['/home', '/pjedu/home'],
      files: ['/assets/home-page.js', '/assets/home-page.css'],
      languages: { en: ['/assets/home-en.js'], ja: ['/assets/home-ja.js'] },
    },
    { paths: ['/pjedu/courses/:courseId'], files: ['/assets/course-page.js'], languages: {} },
  ],
  // The sign-in page is framed in English and Japanese; the Chinese file is missing from the build.
  frames: [
    {
      path: '/portal/sign/login',
      files: { en: 'frames/sign-in.en.html', ja: 'frames/sign-in.ja.html', zh_CHS: 'frames/sign-in.zh_CHS.html' },
    },
  ],
};
const FRAMED = (lang: string, title: string) =>
  `<!doctype html><html lang="${lang}"><div id="root"><h1>${title}</h1></div></html>`;

/** The URLs a Link header names, in its order. */
const linked = (header: unknown) => [...String(header).matchAll(/<([^>]+)>/g)].map((match) => match[1]);

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
    mkdirSync(path.join(webDist, 'frames'));
    writeBuilt(path.join(webDist, 'frames', 'sign-in.en.html'), FRAMED('en', 'Sign in'));
    writeBuilt(path.join(webDist, 'frames', 'sign-in.ja.html'), FRAMED('ja', 'ログイン'));
    mkdirSync(path.join(webDist, '.vite'));
    writeFileSync(path.join(webDist, '.vite', 'first-paint.json'), JSON.stringify(FIRST_PAINT));
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
    for (const url of ['/home', '/pjedu/course']) {
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

  it("sends a framed page its own index.html in the visitor's language, compressed, and index.html without one", async () => {
    const page = (url: string, headers: Record<string, string>) =>
      t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'br', ...headers } });
    const japanese = await page('/portal/sign/login?redirect=%2Fhome', { 'accept-language': 'ja-JP,ja;q=0.9' });
    expect(japanese.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(japanese.rawPayload).toString()).toBe(FRAMED('ja', 'ログイン'));
    expect(japanese.headers['cache-control']).toBe('no-cache');
    expect(String(japanese.headers.vary)).toMatch(/accept-language/);
    expect(String(japanese.headers.vary)).toMatch(/cookie/);
    // The language chosen in the app wins; a trailing slash is the same page.
    const chosen = await page('/portal/sign/login/', { 'accept-language': 'ja-JP', cookie: 'language=en' });
    expect(brotliDecompressSync(chosen.rawPayload).toString()).toBe(FRAMED('en', 'Sign in'));
    // A language whose frame the build did not write, and another page, get index.html.
    const chinese = await page('/portal/sign/login', { 'accept-language': 'zh-CN' });
    expect(brotliDecompressSync(chinese.rawPayload).toString()).toBe(INDEX_HTML);
    const other = await page('/portal/sign/register', { 'accept-language': 'ja-JP' });
    expect(brotliDecompressSync(other.rawPayload).toString()).toBe(INDEX_HTML);
  });

  it("names a landing page's first files in the visitor's language, the app's entry first", async () => {
    const japanese = await t.app.inject({
      method: 'GET',
      url: '/home?from=ad',
      headers: { 'accept-language': 'ja-JP,ja;q=0.9,en;q=0.8' },
    });
    expect(linked(japanese.headers.link)).toEqual([
      '/assets/index-abc123.js',
      '/assets/index-abc123.css',
      '/assets/common-ja.js',
      '/assets/home-page.js',
      '/assets/home-page.css',
      '/assets/home-ja.js',
    ]);
    expect(japanese.headers.link).toContain('</assets/index-abc123.js>; rel=modulepreload');
    expect(japanese.headers.link).toContain('</assets/home-page.css>; rel=preload; as=style; crossorigin');

    // The language the visitor chose in the app wins over the browser's.
    const chosen = await t.app.inject({
      method: 'GET',
      url: '/pjedu/home',
      headers: { 'accept-language': 'ja-JP', cookie: 'language=en' },
    });
    expect(linked(chosen.headers.link)).toContain('/assets/home-en.js');
    expect(linked(chosen.headers.link)).not.toContain('/assets/common-ja.js');
  });

  it('names only the entry and the start texts for other pages, and a parameterised page by its pattern', async () => {
    const course = await t.app.inject({ method: 'GET', url: '/pjedu/courses/01a2b3' });
    expect(linked(course.headers.link)).toEqual([
      '/assets/index-abc123.js',
      '/assets/index-abc123.css',
      '/assets/common-en.js',
      '/assets/course-page.js',
    ]);
    const editor = await t.app.inject({ method: 'GET', url: '/pjedu/courses/01a2b3/edit' });
    expect(linked(editor.headers.link)).toEqual([
      '/assets/index-abc123.js',
      '/assets/index-abc123.css',
      '/assets/common-en.js',
    ]);
    const asset = await t.app.inject({ method: 'GET', url: '/assets/index-abc123.js' });
    expect(asset.headers.link).toBeUndefined();
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
