import { randomBytes, randomUUID } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import { serverInstances } from '../../platform/db/schema/index.js';
import { FORWARDED_HEADER } from '../../platform/forwarding.js';
import { waitFor } from '../../test/jupyter-kit.js';
import { sampleFile } from '../../test/media-samples.js';
import { createCourseWorld, type CourseWorld, type Who } from './course-test-world.js';

import { b64, patchHeaders, readyOn, send } from './upload-test-kit.js';

describe('resumable uploads under way, held by one of two server processes', () => {
  let w: CourseWorld;
  let other: FastifyInstance;
  let otherDir: string;
  const base = { a: '', b: '' };

  beforeAll(async () => {
    w = await createCourseWorld();
    otherDir = mkdtempSync(path.join(os.tmpdir(), 'aiedu-other-'));
    // The deployment's secrets are the same everywhere (JWT_SECRET and FILE_URL_SECRET in production).
    cpSync(path.join(w.t.dataDir, 'secrets'), path.join(otherDir, 'secrets'), { recursive: true });
    other = await buildApp({
      config: { ...w.t.config, dataDir: otherDir },
      database: w.t.database,
      storage: w.t.storage,
      logger: false,
      now: w.clock.now,
    });
    base.a = await w.t.app.listen({ port: 0, host: '127.0.0.1' });
    base.b = await other.listen({ port: 0, host: '127.0.0.1' });
    // listen() resolves before the onListen hooks record each process's address; wait for them, as the others do.
    await waitFor(async () => (await other.runtimes.instance.addressOf(w.t.app.runtimes.instance.id)) === base.a);
  });
  afterAll(async () => {
    await other.close();
    await w.t.close();
    rmSync(otherDir, { recursive: true, force: true });
  });

  const to = (which: 'a' | 'b', who: Who, method: string, url: string, headers = {}, body?: Buffer) =>
    send(base[which], w.tokens[who], method, url, headers, body);
  const patchVia = (which: 'a' | 'b', url: string, offset: number, bytes: Buffer, who: Who = 'teacher') =>
    to(which, who, 'PATCH', url, { 'upload-offset': offset, 'content-type': 'application/offset+octet-stream' }, bytes);

  it('names the process in the upload, and the other process carries it to the end', async () => {
    const course = await w.buildCourse();
    const sectionId = course.sectionIds[0]!;
    const file = sampleFile('mp3', 3 * 1024 * 1024 + 17);
    const created = await to('a', 'teacher', 'POST', '/api/v1/courses/uploads', {
      'upload-length': file.length,
      'upload-metadata': `sectionId ${b64(sectionId)},filename ${b64('talk.mp3')}`,
    });
    expect(created.status).toBe(201);
    const url = new URL(created.headers.location!, base.a).pathname;
    expect(url.split('/').pop()).toMatch(new RegExp(`^${w.t.app.runtimes.instance.id}_[0-9a-f]{32}$`));

    // Every part through the other process, as a load balancer may send them.
    const half = 1024 * 1024;
    const first = await patchVia('b', url, 0, file.subarray(0, half));
    expect(first.status).toBe(204);
    expect(first.headers['upload-offset']).toBe(String(half));
    const head = await to('b', 'teacher', 'HEAD', url);
    expect(head.headers['upload-offset']).toBe(String(half));
    // Someone who cannot edit the section is refused by the holder, through the other process too.
    expect((await patchVia('b', url, half, file.subarray(half), 'otherTeacher')).status).toBe(404);
    const last = await patchVia('b', url, half, file.subarray(half));
    expect(last.status).toBe(204);
    const resourceId = last.headers['x-resource-id'] as string;
    expect(resourceId).toBeTruthy();

    const editor = await w.call('teacher', 'GET', `/api/v1/courses/${course.id}/edit`);
    expect(editor.body.data.chapters[0].sections[0].resources).toEqual([
      { id: resourceId, name: 'talk.mp3', size: file.length, mime: 'audio/mpeg' },
    ]);
    const signed = await w.call('teacher', 'GET', `/api/v1/courses/resources/${resourceId}/url`);
    const download = new URL(signed.body.data.url, base.b);
    const whole = await send(base.b, w.tokens.teacher, 'GET', `${download.pathname}${download.search}`);
    expect(whole.body.equals(file)).toBe(true);
    // Nothing of it ever reached the other process's disk.
    const otherUploads = path.join(otherDir, 'uploads', 'course-resources');
    expect(existsSync(otherUploads) ? readdirSync(otherUploads).filter((f) => !f.startsWith('.')) : []).toEqual([]);
  });

  it('answers 404 for an upload whose process has gone, and never passes a request on twice', async () => {
    const course = await w.buildCourse();
    const created = await to('a', 'teacher', 'POST', '/api/v1/courses/uploads', {
      'upload-length': 3,
      'upload-metadata': `sectionId ${b64(course.sectionIds[0]!)},filename ${b64('a.txt')}`,
    });
    const url = new URL(created.headers.location!, base.a).pathname;
    const gone = url.replace(/[0-9a-f-]{36}_/, `${randomUUID()}_`);
    expect((await to('b', 'teacher', 'HEAD', gone)).status).toBe(404);
    expect((await to('a', 'teacher', 'HEAD', gone)).status).toBe(404);
    // A request another process already passed on is answered where it lands, or not at all.
    const passed = await to('b', 'teacher', 'HEAD', url, { [FORWARDED_HEADER]: randomUUID() });
    expect(passed.status).toBe(404);
    expect((await to('b', 'teacher', 'HEAD', url)).headers['upload-offset']).toBe('0');
    // Without a sign-in the other process refuses before passing anything on.
    expect((await send(base.b, '', 'HEAD', url)).status).toBe(401);
  });

  it('answers 504 when the holding process cannot be reached, and the connection carries the next request', async () => {
    // A process recorded at an address where nothing listens (it died a moment ago, say).
    const closed = await new Promise<number>((resolve) => {
      const probe = http.createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as AddressInfo;
        probe.close(() => resolve(port));
      });
    });
    const holder = randomUUID();
    const now = w.clock.now();
    await w.t.database.db
      .insert(serverInstances)
      .values({ id: holder, url: `http://127.0.0.1:${closed}`, startedAt: now, heartbeatAt: now });
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const upload = `/api/v1/courses/uploads/${holder}_${randomBytes(16).toString('hex')}`;
    const part = await new Promise<number>((resolve, reject) => {
      const req = http.request(`${base.b}${upload}`, {
        agent,
        method: 'PATCH',
        headers: patchHeaders(w.tokens.teacher, 0),
      });
      req.on('response', (res) => res.resume().on('end', () => resolve(res.statusCode!)));
      req.on('error', reject);
      req.end(randomBytes(1024 * 1024));
    });
    expect(part).toBe(504);
    // The part's bytes went nowhere; the same client's next request is answered, not stuck behind them.
    expect(await readyOn(base.b, agent)).toBe(200);
    agent.destroy();
    await w.t.database.db.delete(serverInstances).where(eq(serverInstances.id, holder));
  }, 20_000);

  it('closes the connection after a refusal the holder gave before the body’s end, so the next request is answered', async () => {
    const course = await w.buildCourse();
    const created = await to('a', 'teacher', 'POST', '/api/v1/courses/uploads', {
      'upload-length': 8 * 1024 * 1024,
      'upload-metadata': `sectionId ${b64(course.sectionIds[0]!)},filename ${b64('big.mp4')}`,
    });
    const url = new URL(created.headers.location!, base.a).pathname;
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const refused = await new Promise<number>((resolve) => {
      const req = http.request(`${base.b}${url}`, {
        agent,
        method: 'PATCH',
        headers: patchHeaders(w.tokens.otherTeacher, 0),
      });
      req.on('response', (res) => res.resume().on('end', () => resolve(res.statusCode!)));
      // The rest of the body may meet a closed connection: that is the point.
      req.on('error', () => undefined);
      req.end(randomBytes(8 * 1024 * 1024));
    });
    expect(refused).toBe(404);
    expect(await readyOn(base.b, agent)).toBe(200);
    // The upload itself is untouched and goes on for its teacher.
    expect((await to('b', 'teacher', 'HEAD', url)).headers['upload-offset']).toBe('0');
    agent.destroy();
  }, 20_000);

  // Last: process a is gone afterwards.
  it('goes on from the disk after a restart, and sweeps away uploads a week old', async () => {
    const course = await w.buildCourse();
    const begin = async (name: string, length: number) => {
      const created = await to('a', 'teacher', 'POST', '/api/v1/courses/uploads', {
        'upload-length': length,
        'upload-metadata': `sectionId ${b64(course.sectionIds[0]!)},filename ${b64(name)}`,
      });
      return new URL(created.headers.location!, base.a).pathname;
    };
    const file = sampleFile('pdf', 64 * 1024);
    const kept = await begin('kept.pdf', file.length);
    expect((await patchVia('a', kept, 0, file.subarray(0, 1000))).status).toBe(204);
    const stale = await begin('stale.pdf', 10);
    // `stale` began eight days ago (tus keeps the start beside the bytes).
    const tusDir = path.join(w.t.config.dataDir, 'uploads', 'course-resources');
    const info = path.join(tusDir, `${stale.split('/').pop()!}.json`);
    const record = JSON.parse(readFileSync(info, 'utf8')) as { creation_date: string };
    record.creation_date = new Date(Date.now() - 8 * 86_400_000).toISOString();
    writeFileSync(info, JSON.stringify(record));

    // Process a stops for good, and a new one starts on its disk (a restart).
    w.t.app.runtimes.instance.stopBeating();
    await w.t.database.db.delete(serverInstances).where(eq(serverInstances.id, w.t.app.runtimes.instance.id));
    const restarted = await buildApp({
      config: w.t.config,
      database: w.t.database,
      storage: w.t.storage,
      logger: false,
      now: w.clock.now,
    });
    try {
      const base2 = await restarted.listen({ port: 0, host: '127.0.0.1' });
      await waitFor(() => !existsSync(info));
      expect((await send(base2, w.tokens.teacher, 'HEAD', stale)).status).toBe(404);
      expect((await send(base2, w.tokens.teacher, 'HEAD', kept)).headers['upload-offset']).toBe('1000');
      const rest = await send(
        base2,
        w.tokens.teacher,
        'PATCH',
        kept,
        { 'upload-offset': 1000, 'content-type': 'application/offset+octet-stream' },
        file.subarray(1000),
      );
      expect(rest.status).toBe(204);
      expect(rest.headers['x-resource-id']).toBeTruthy();
    } finally {
      await restarted.close();
    }
  });
});
