import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCourseWorld, type CourseWorld } from './course-test-world.js';

/** A small built web app whose course page has a filled frame (web/vite.config.ts, FRAMED_PAGES). */
const INDEX_HTML = '<!doctype html><html lang="en"><div id="root"><div class="boot-shell__bar"></div></div></html>';
const TEMPLATE =
  '<!doctype html><html lang="en"><div id="root"><h1>{{title}}</h1><p>By {{name}}<span> · Version {{version}}</span>' +
  '</p><p>{{description}}</p>{{data}}</div><p>{{unknown}}</p></html>';
const FIRST_PAINT = {
  entry: ['/assets/app.js'],
  languages: {},
  pages: [{ paths: ['/pjedu/courses/:courseId'], files: ['/assets/course-page.js'], languages: {} }],
  frames: [{ path: '/pjedu/courses/:courseId', files: { en: 'frames/course.en.html' }, fill: 'course' }],
};

/** The page-data block of a page, parsed. */
function pageData(html: string) {
  const match = /<script type="application\/json" id="page-data">([\s\S]*?)<\/script>/.exec(html);
  return match ? (JSON.parse(match[1]!) as { api: string; body: Record<string, unknown> }) : null;
}

describe("a course's page with its frame filled for a visitor", () => {
  let w: CourseWorld;
  let webDist: string;
  const publish = async (info: Record<string, unknown>) => {
    const course = await w.buildCourse(info);
    await w.call('teacher', 'POST', `/api/v1/courses/${course.id}/publish`);
    return course.id;
  };
  const open = (url: string, headers: Record<string, string> = {}) =>
    w.t.app.inject({ method: 'GET', url, headers: { 'accept-language': 'en', ...headers } });

  beforeAll(async () => {
    webDist = mkdtempSync(path.join(os.tmpdir(), 'aiedu-web-'));
    mkdirSync(path.join(webDist, 'frames'));
    mkdirSync(path.join(webDist, '.vite'));
    writeFileSync(path.join(webDist, 'index.html'), INDEX_HTML);
    writeFileSync(path.join(webDist, 'frames', 'course.en.html'), TEMPLATE);
    writeFileSync(path.join(webDist, '.vite', 'first-paint.json'), JSON.stringify(FIRST_PAINT));
    w = await createCourseWorld({ config: { webDist } });
  });
  afterAll(async () => {
    await w.t.close();
    rmSync(webDist, { recursive: true, force: true });
  });

  it("shows a public course's name, by-line and description, escaped, with the course as a visitor reads it", async () => {
    const id = await publish({
      name: 'Vision <b>& "friends"',
      description: 'Pixels </script><script>alert(1)</script> & edges',
      publicScope: 'public',
    });
    const res = await open(`/pjedu/courses/${id}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers.vary).toContain('cookie');
    expect(res.headers.link).toContain('</assets/course-page.js>');
    expect(res.body).toContain('<h1>Vision &lt;b&gt;&amp; &quot;friends&quot;</h1>');
    expect(res.body).toContain('<p>By teacher<span> · Version 1</span></p>');
    expect(res.body).toContain('<p>Pixels &lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt; &amp; edges</p>');
    // A mark the filler does not know stays as it is.
    expect(res.body).toContain('<p>{{unknown}}</p>');

    // The data block cannot be closed by what it holds, and equals the API's answer to a visitor.
    expect(res.body.match(/<\/script>/g)).toHaveLength(1);
    const visitor = await w.call(null, 'GET', `/api/v1/courses/${id}`);
    expect(pageData(res.body)).toEqual({ api: `/api/v1/courses/${id}`, body: visitor.body.data });
  });

  it('sends the filled page compressed as the browser accepts', async () => {
    const id = await publish({ name: 'Compressed', description: 'Small', publicScope: 'public' });
    const res = await open(`/pjedu/courses/${id}/`, { 'accept-encoding': 'gzip, deflate, br' });
    expect(res.headers['content-encoding']).toBe('br');
    const html = brotliDecompressSync(res.rawPayload).toString('utf8');
    expect(html).toContain('<h1>Compressed</h1>');
    expect(pageData(html)?.api).toBe(`/api/v1/courses/${id}`);
  });

  it('leaves to the app every page it may not show everyone: index.html, with nothing of the course', async () => {
    const customer = await publish({ name: 'Only our school', description: 'Ours', publicScope: 'customer' });
    const draft = (await w.buildCourse({ name: 'A draft', description: 'Not yet', publicScope: 'public' })).id;
    const shown = await publish({ name: 'Shown', description: 'Open', publicScope: 'public' });
    for (const [url, headers] of [
      [`/pjedu/courses/${customer}`, {}],
      [`/pjedu/courses/${draft}`, {}],
      ['/pjedu/courses/00000000-0000-4000-8000-000000000000', {}],
      ['/pjedu/courses/not-a-course', {}],
      // A signed-in user's page shows their own progress: the app reads it.
      [`/pjedu/courses/${shown}`, { cookie: 'token=abc; language=en' }],
      [`/pjedu/courses/${shown}`, { cookie: 'refreshToken=abc' }],
    ] as const) {
      const res = await open(url, headers);
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).toBe(INDEX_HTML);
    }
  });
});
