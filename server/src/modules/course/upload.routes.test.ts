import { existsSync, readdirSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { LIMITS } from '@aiedu/contracts';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freeDiskBytes } from '../../platform/disk-space.js';
import { S3Storage } from '../../platform/storage/s3-storage.js';
import { startTestS3, type TestS3 } from '../../test/s3-server.js';
import { sampleFile } from '../../test/media-samples.js';
import { createCourseWorld, type CourseWorld, type Who } from './course-test-world.js';
import { b64, patchHeaders, send } from './upload-test-kit.js';

describe.each(['the local disk', 'an S3 bucket'])(
  'resumable resource uploads (tus) into %s, played with byte ranges',
  (kind) => {
    let w: CourseWorld;
    let base: string;
    let s3: TestS3 | undefined;

    beforeAll(async () => {
      if (kind === 'an S3 bucket') s3 = await startTestS3();
      const storage = s3
        ? new S3Storage(s3.options({ prefix: 'school/' }), 'test-secret-test-secret-test-secret')
        : undefined;
      w = await createCourseWorld({ storage });
      await w.t.app.listen({ port: 0, host: '127.0.0.1' });
      base = `http://127.0.0.1:${(w.t.app.server.address() as AddressInfo).port}`;
    });
    afterAll(async () => {
      await w.t.close();
      await s3?.close();
    });

    const request = (
      who: Who,
      method: string,
      url: string,
      headers: Record<string, string | number> = {},
      body?: Buffer,
    ) => send(base, w.tokens[who], method, url, headers, body);

    const create = (who: Who, sectionId: string, name: string, length: number) =>
      request(who, 'POST', '/api/v1/courses/uploads', {
        'upload-length': length,
        'upload-metadata': `sectionId ${b64(sectionId)},filename ${b64(name)}`,
      });
    const uploadPath = (location: string) => new URL(location, base).pathname;
    const patch = (location: string, offset: number, bytes: Buffer) =>
      request(
        'teacher',
        'PATCH',
        uploadPath(location),
        {
          'upload-offset': offset,
          'content-type': 'application/offset+octet-stream',
        },
        bytes,
      );
    const offsetOf = async (location: string) =>
      Number((await request('teacher', 'HEAD', uploadPath(location))).headers['upload-offset']);

    /** Sends the first part of a PATCH and cuts the connection, as a closed laptop lid would. */
    function cutTransfer(location: string, part: Buffer): Promise<void> {
      return new Promise((resolve) => {
        const req = http.request(`${base}${uploadPath(location)}`, {
          method: 'PATCH',
          headers: { ...patchHeaders(w.tokens.teacher, 0), 'content-length': part.length * 2 },
        });
        req.on('error', () => resolve());
        req.on('close', () => resolve());
        req.write(part, () => setImmediate(() => req.destroy()));
      });
    }

    it('resumes a transfer cut in the middle and stores the file once complete', async () => {
      const course = await w.buildCourse({ publicScope: 'customer' });
      const sectionId = course.sectionIds[0]!;
      const file = sampleFile('mp4', 4 * 1024 * 1024);
      const created = await create('teacher', sectionId, 'lesson.mp4', file.length);
      expect(created.status).toBe(201);
      const location = created.headers.location!;

      await cutTransfer(location, file.subarray(0, file.length / 2));
      let offset = await offsetOf(location);
      for (let i = 0; i < 100 && offset === 0; i++) offset = await offsetOf(location);
      expect(offset).toBeGreaterThan(0);
      expect(offset).toBeLessThan(file.length);

      const resumed = await patch(location, offset, file.subarray(offset));
      expect(resumed.status).toBe(204);
      const resourceId = resumed.headers['x-resource-id'] as string;
      expect(resourceId).toBeTruthy();

      const editor = await w.call('teacher', 'GET', `/api/v1/courses/${course.id}/edit`);
      expect(editor.body.data.chapters[0].sections[0].resources).toEqual([
        { id: resourceId, name: 'lesson.mp4', size: file.length, mime: 'video/mp4' },
      ]);
      // The finished upload's temporary file is gone.
      const tusDir = path.join(w.t.config.dataDir, 'uploads', 'course-resources');
      expect((await readdir(tusDir)).filter((f) => !f.startsWith('.'))).toEqual([]);
      // The file is where the deployment keeps files: in the bucket, under its prefix, and not on this disk.
      if (s3) {
        expect(await s3.keys()).toEqual([expect.stringMatching(/^school\/courses\/resources\/[0-9a-f-]{36}$/)]);
        const onDisk = path.join(w.t.config.dataDir, 'files');
        const localFiles = existsSync(onDisk) ? readdirSync(onDisk, { recursive: true, withFileTypes: true }) : [];
        expect(localFiles.filter((entry) => entry.isFile())).toEqual([]);
      }

      // A learner plays it with range requests.
      await w.call('teacher', 'POST', `/api/v1/courses/${course.id}/publish`);
      await w.call('student', 'POST', `/api/v1/courses/${course.id}/join`);
      // Publishing the first draft keeps its ids: the learner's section is the one written.
      const learned = await w.call('student', 'GET', `/api/v1/courses/sections/${sectionId}/learn`);
      const learnerResource = learned.body.data.resources[0];
      expect(learnerResource.id).toBe(resourceId);
      const signed = await w.call('student', 'GET', `/api/v1/courses/resources/${learnerResource.id}/url`);
      expect(signed.body.data).toMatchObject({ preview: true, mime: 'video/mp4', size: file.length });
      const url = new URL(signed.body.data.url, base);
      const ranged = await request('student', 'GET', `${url.pathname}${url.search}`, { range: 'bytes=1000-1999' });
      expect(ranged.status).toBe(206);
      expect(ranged.headers['content-range']).toBe(`bytes 1000-1999/${file.length}`);
      expect(ranged.headers['content-type']).toBe('video/mp4');
      expect(ranged.body.equals(file.subarray(1000, 2000))).toBe(true);
      const whole = await request('student', 'GET', `${url.pathname}${url.search}`);
      expect(whole.status).toBe(200);
      expect(whole.body.equals(file)).toBe(true);
      expect(
        (await request('student', 'GET', `${url.pathname}${url.search}`, { range: `bytes=${file.length}-` })).status,
      ).toBe(416);
      // The download button's address saves it under its name rather than playing it.
      const save = new URL(signed.body.data.downloadUrl, base);
      const saved = await request('student', 'GET', `${save.pathname}${save.search}`, { range: 'bytes=0-9' });
      expect(saved.headers['content-disposition']).toMatch(/^attachment; filename\*=UTF-8''/);
      expect(ranged.headers['content-disposition']).toMatch(/^inline; /);
    });

    it('refuses a file over 2 GB before storing a byte, an 11th file, and anyone who cannot edit', async () => {
      const course = await w.buildCourse();
      const sectionId = course.sectionIds[0]!;
      const tusDir = path.join(w.t.config.dataDir, 'uploads', 'course-resources');
      const before = await readdir(tusDir);
      const huge = await create('teacher', sectionId, 'huge.mp4', LIMITS.resourceBytes + 1);
      expect(huge.status).toBe(413);
      expect(JSON.parse(huge.body.toString()).errorCode).toBe('2006');
      expect(await readdir(tusDir)).toEqual(before);

      expect((await create('student', sectionId, 'a.txt', 1)).status).toBe(403);
      expect((await create('otherTeacher', sectionId, 'a.txt', 1)).status).toBe(404);
      expect((await create('editor', sectionId, 'a.txt', 1)).status).toBe(404);

      for (let i = 0; i < LIMITS.resourcesPerSection; i++) {
        const made = await create('teacher', sectionId, `n${i}.txt`, 3);
        expect((await patch(made.headers.location!, 0, Buffer.from('abc'))).status).toBe(204);
      }
      const eleventh = await create('teacher', sectionId, 'n10.pdf', 3);
      expect(eleventh.status).toBe(409);
      expect(JSON.parse(eleventh.body.toString()).errorCode).toBe('4104');

      // A published course without a revision takes no new files.
      await w.call('teacher', 'POST', `/api/v1/courses/${course.id}/publish`);
      expect((await create('teacher', sectionId, 'late.pdf', 3)).status).toBe(409);
    });

    it('types a resource by its content: a name shown in place must hold that type, anything else downloads', async () => {
      const course = await w.buildCourse({ publicScope: 'customer' });
      const sectionId = course.sectionIds[0]!;
      const whole = async (name: string, bytes: Buffer) => {
        const created = await create('teacher', sectionId, name, bytes.length);
        return request(
          'teacher',
          'PATCH',
          uploadPath(created.headers.location!),
          { 'upload-offset': 0, 'content-type': 'application/offset+octet-stream', language: 'en' },
          bytes,
        );
      };
      const html = Buffer.from('<!doctype html><script>alert(document.cookie)</script>');
      const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#000' } })
        .png()
        .toBuffer();
      for (const [name, bytes] of [
        ['cat.png', html],
        ['photo.jpg', png],
        ['clip.mp4', sampleFile('mp3', 4096)],
      ] as const) {
        const refused = await whole(name, bytes);
        expect({ name, status: refused.status, body: JSON.parse(refused.body.toString()) }).toEqual({
          name,
          status: 400,
          body: {
            errorCode: '1003',
            errorMsg: 'Invalid request',
            data: { reason: 'content does not match the file name' },
          },
        });
      }
      expect((await whole('page.html', html)).status).toBe(204);
      expect((await whole('cat.png', png)).status).toBe(204);

      const editor = await w.call('teacher', 'GET', `/api/v1/courses/${course.id}/edit`);
      const resources: { id: string; name: string; mime: string }[] =
        editor.body.data.chapters[0].sections[0].resources;
      expect(resources.map(({ name, mime }) => ({ name, mime }))).toEqual([
        { name: 'page.html', mime: 'application/octet-stream' },
        { name: 'cat.png', mime: 'image/png' },
      ]);
      // The page is only ever saved, never shown in place.
      const signed = await w.call('teacher', 'GET', `/api/v1/courses/resources/${resources[0]!.id}/url`);
      const url = new URL(signed.body.data.url, base);
      const page = await request('teacher', 'GET', `${url.pathname}${url.search}`);
      expect(page.headers['content-type']).toBe('application/octet-stream');
      expect(page.headers['content-disposition']).toMatch(/^attachment; /);
    });

    it('refuses, before a byte, a file that would leave the disk below its floor: twice its size without a bucket', async () => {
      const course = await w.buildCourse();
      const sectionId = course.sectionIds[0]!;
      const tusDir = path.join(w.t.config.dataDir, 'uploads', 'course-resources');
      const before = await readdir(tusDir);
      const floor = w.t.config.minFreeDiskMb;
      const GiB = 2 ** 30;
      // Room for the file once (its bytes in a bucket), not twice (in the upload folder, then in the stored files).
      w.t.config.minFreeDiskMb = Math.max(1, Math.floor(((await freeDiskBytes(tusDir)) - 1.5 * GiB) / 2 ** 20));
      try {
        const video = await create('teacher', sectionId, 'lesson.mp4', GiB);
        if (s3) {
          expect(video.status).toBe(201);
          expect((await request('teacher', 'DELETE', uploadPath(video.headers.location!))).status).toBe(204);
        } else {
          expect(video.status).toBe(507);
          expect(JSON.parse(video.body.toString())).toMatchObject({ errorCode: '2003', data: { disk: 'server' } });
        }
        expect(await readdir(tusDir)).toEqual(before);
      } finally {
        w.t.config.minFreeDiskMb = floor;
      }
    });
  },
);

/**
 * Two server processes on one database with their own disks (as on two machines behind a load balancer): the bytes
 * of an upload under way are on the disk of the process that began it, and the other passes its requests on.
 */
