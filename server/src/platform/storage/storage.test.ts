import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { buffer, text } from 'node:stream/consumers';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { presignedSignatureMatches, startTestS3, type TestS3 } from '../../test/s3-server.js';
import { AppError } from '../errors.js';
import { LocalDiskStorage } from './local-storage.js';
import { S3Storage } from './s3-storage.js';
import type { FileStorage } from './storage.js';

/** A readable of `total` bytes in chunks, counting how many bytes were actually pulled from it. */
function chunks(total: number, chunkSize = 64 * 1024) {
  const state = { pulled: 0 };
  const stream = new Readable({
    read() {
      if (state.pulled >= total) return this.push(null);
      const n = Math.min(chunkSize, total - state.pulled);
      // Each chunk's bytes tell where they are, so a wrong range or a lost part shows.
      const chunk = Buffer.alloc(n);
      for (let i = 0; i < n; i += 1) chunk[i] = (state.pulled + i) % 251;
      state.pulled += n;
      this.push(chunk);
    },
  });
  return { stream, state };
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name));
}

interface Subject {
  storage: FileStorage;
  /** What a reader of the storage can see: files on disk, or the objects in the bucket. */
  stored(): Promise<string[]>;
}

const SECRET = 'secret-secret-secret-secret-secret';
let now = 1_800_000_000_000;
let s3: TestS3;
beforeAll(async () => {
  s3 = await startTestS3();
});
afterAll(() => s3.close());

const kinds: [string, () => Promise<Subject & { dispose(): void }>][] = [
  [
    'LocalDiskStorage',
    async () => {
      const root = mkdtempSync(path.join(os.tmpdir(), 'aiedu-storage-'));
      return {
        storage: new LocalDiskStorage(root, SECRET, () => now),
        stored: async () => filesUnder(root),
        dispose: () => rmSync(root, { recursive: true, force: true }),
      };
    },
  ],
  [
    'S3Storage',
    async () => {
      // Each test its own prefix in the one bucket, as deployments sharing a bucket would have.
      const prefix = `t${Math.random().toString(36).slice(2)}/`;
      const storage = new S3Storage(s3.options({ prefix }), SECRET, () => now);
      return {
        storage,
        stored: async () => (await s3.keys()).filter((key) => key.startsWith(prefix)),
        dispose: () => storage.close(),
      };
    },
  ],
];

describe.each(kinds)('%s', (name, make) => {
  let subject: Subject & { dispose(): void };
  let storage: FileStorage;

  beforeEach(async () => {
    subject = await make();
    storage = subject.storage;
  });
  afterEach(() => subject.dispose());

  it('stores, reads and deletes a file', async () => {
    const { size } = await storage.put('avatars/u1/a.txt', Readable.from(['hello ', 'world']), { maxBytes: 100 });
    expect(size).toBe(11);
    const file = await storage.get('avatars/u1/a.txt');
    expect(file.size).toBe(11);
    expect(await text(file.stream)).toBe('hello world');
    await storage.delete('avatars/u1/a.txt');
    expect(await storage.exists('avatars/u1/a.txt')).toBe(false);
    await expect(storage.get('avatars/u1/a.txt')).rejects.toMatchObject({ code: '1004' });
  });

  it('refuses a stream over the limit with 413, leaves no partial file and stops reading', async () => {
    const { stream, state } = chunks(10 * 1024 * 1024);
    const error = await storage.put('big/file.bin', stream, { maxBytes: 1024 * 1024 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).status).toBe(413);
    expect(await subject.stored()).toEqual([]);
    expect(state.pulled).toBeLessThan(3 * 1024 * 1024);
  });

  it('refuses a small file over its small limit the same way', async () => {
    const { stream, state } = chunks(1024 * 1024, 16 * 1024);
    const error = await storage.put('small/file.bin', stream, { maxBytes: 100 * 1024 }).catch((e: unknown) => e);
    expect((error as AppError).status).toBe(413);
    expect(await subject.stored()).toEqual([]);
    expect(state.pulled).toBeLessThan(512 * 1024);
    const { size } = await storage.put('small/ok.bin', chunks(100 * 1024, 16 * 1024).stream, { maxBytes: 100 * 1024 });
    expect(size).toBe(100 * 1024);
    expect((await buffer((await storage.get('small/ok.bin')).stream)).length).toBe(100 * 1024);
  });

  it('lists every stored file with its size, and nothing refused or deleted', async () => {
    await storage.put('avatars/u1/a.png', Readable.from(['12345']), { maxBytes: 10 });
    await storage.put('course-covers/c1.png', Readable.from(['1234567']), { maxBytes: 10 });
    await storage.put('gone.txt', Readable.from(['x']), { maxBytes: 10 });
    await storage.delete('gone.txt');
    await expect(storage.put('refused.bin', chunks(100).stream, { maxBytes: 10 })).rejects.toBeInstanceOf(AppError);
    const listed = [];
    for await (const file of storage.list()) listed.push(file);
    expect(listed.sort((a, b) => a.key.localeCompare(b.key))).toEqual([
      { key: 'avatars/u1/a.png', size: 5 },
      { key: 'course-covers/c1.png', size: 7 },
    ]);
  });

  it('keeps the previous file when a replacement is refused', async () => {
    await storage.put('doc.txt', Readable.from(['v1']), { maxBytes: 10 });
    await expect(storage.put('doc.txt', chunks(100).stream, { maxBytes: 10 })).rejects.toBeInstanceOf(AppError);
    expect(await text((await storage.get('doc.txt')).stream)).toBe('v1');
  });

  it.each(['../escape.txt', 'a/../../b', '/abs', 'a//b', '.hidden', 'a\\b', ''])('refuses the key %j', async (key) => {
    await expect(storage.put(key, Readable.from(['x']), { maxBytes: 10 })).rejects.toMatchObject({ code: '1003' });
  });

  it('signs download URLs that expire and cannot be altered', () => {
    const url = new URL(storage.signedUrl('reports/r.pdf', { expiresInSeconds: 60, fileName: 'r.pdf' }), 'http://x');
    const query = Object.fromEntries(url.searchParams) as { key: string; expires: string; sig: string; name: string };
    expect(url.pathname).toBe('/gw/api/v1/files/download');
    expect(storage.verifySignedUrl(query)).toBe('reports/r.pdf');
    expect(storage.verifySignedUrl({ ...query, key: 'reports/other.pdf' })).toBeNull();
    expect(storage.verifySignedUrl({ ...query, name: 'evil.exe' })).toBeNull();
    expect(storage.verifySignedUrl({ ...query, expires: String(Number(query.expires) + 1000) })).toBeNull();
    // Whether it is saved rather than shown is signed too: it can be neither added nor taken away.
    expect(storage.verifySignedUrl({ ...query, dl: '1' })).toBeNull();
    const saved = new URL(storage.signedUrl('reports/r.pdf', { expiresInSeconds: 60, attachment: true }), 'http://x');
    const savedQuery = Object.fromEntries(saved.searchParams) as { key: string; expires: string; sig: string };
    expect(saved.searchParams.get('dl')).toBe('1');
    expect(storage.verifySignedUrl(savedQuery)).toBe('reports/r.pdf');
    expect(storage.verifySignedUrl({ ...savedQuery, dl: undefined })).toBeNull();
    now += 61_000;
    expect(storage.verifySignedUrl(query)).toBeNull();
  });

  it('has no direct URLs unless a bucket is set to serve downloads itself', async () => {
    await storage.put('media/a.png', Readable.from(['x']), { maxBytes: 10 });
    const options = { expiresAt: now / 1000 + 60, contentType: 'image/png', contentDisposition: 'inline' };
    expect(await storage.directUrl('media/a.png', options)).toBeNull();
    expect(await storage.directOrigin()).toBeNull();
  });

  it('names the folder of this machine that holds the files, and none for a bucket', async () => {
    await storage.put('media/a.png', Readable.from(['x']), { maxBytes: 10 });
    const held = await subject.stored();
    if (name === 'S3Storage') expect(storage.localDir).toBeNull();
    else expect(held).toEqual([path.join(storage.localDir!, 'media', 'a.png')]);
  });

  it('reads byte ranges and reports the whole size', async () => {
    await storage.put('media/clip.bin', chunks(300_000).stream, { maxBytes: 1_000_000 });
    const whole = await buffer((await storage.get('media/clip.bin')).stream);
    const part = await storage.get('media/clip.bin', { start: 70_000, end: 70_099 });
    expect(part.size).toBe(300_000);
    expect(await buffer(part.stream)).toEqual(whole.subarray(70_000, 70_100));
    expect(await storage.size('media/clip.bin')).toBe(300_000);
    await expect(storage.size('media/none.bin')).rejects.toMatchObject({ code: '1004' });
    expect(await storage.exists('media/none.bin')).toBe(false);
    await storage.delete('media/none.bin');
  });

  it('stores a file larger than one upload part whole', async () => {
    const total = 17 * 1024 * 1024 + 5;
    const { size } = await storage.put('big/ok.bin', chunks(total).stream, { maxBytes: 20 * 1024 * 1024 });
    expect(size).toBe(total);
    expect(await storage.size('big/ok.bin')).toBe(total);
    const tail = await storage.get('big/ok.bin', { start: total - 10, end: total - 1 });
    expect([...(await buffer(tail.stream))]).toEqual(Array.from({ length: 10 }, (_, i) => (total - 10 + i) % 251));
  });

  it('refuses a stream that passes the limit after several parts, and stores nothing', async () => {
    const { stream } = chunks(30 * 1024 * 1024);
    const error = await storage.put('big/over.bin', stream, { maxBytes: 18 * 1024 * 1024 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).status).toBe(413);
    expect(await storage.exists('big/over.bin')).toBe(false);
    expect(await subject.stored()).toEqual([]);
  });
});

describe('LocalDiskStorage on its own', () => {
  it('makes a folder again when it was removed after a first file was stored in it', async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'aiedu-storage-'));
    try {
      const storage = new LocalDiskStorage(root, SECRET);
      await storage.put('datasets/a/one.txt', Readable.from(['one']), { maxBytes: 10 });
      rmSync(path.join(root, 'datasets'), { recursive: true });
      rmSync(path.join(root, '.tmp'), { recursive: true });
      await storage.put('datasets/a/two.txt', Readable.from(['two']), { maxBytes: 10 });
      expect(await text((await storage.get('datasets/a/two.txt')).stream)).toBe('two');
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('writes a fresh key in place, refuses one that exists, and leaves nothing of a refused one', async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'aiedu-storage-'));
    try {
      const storage = new LocalDiskStorage(root, SECRET);
      await storage.put('datasets/v/a.csv', Readable.from(['x,y']), { maxBytes: 10, fresh: true });
      expect(await text((await storage.get('datasets/v/a.csv')).stream)).toBe('x,y');
      // No temporary name was used, so no temporary folder was made.
      expect(existsSync(path.join(root, '.tmp'))).toBe(false);
      await expect(
        storage.put('datasets/v/a.csv', Readable.from(['other']), { maxBytes: 10, fresh: true }),
      ).rejects.toMatchObject({ code: 'EEXIST' });
      expect(await text((await storage.get('datasets/v/a.csv')).stream)).toBe('x,y');
      const refused = storage.put('datasets/v/b.bin', chunks(100).stream, { maxBytes: 10, fresh: true });
      await expect(refused).rejects.toBeInstanceOf(AppError);
      expect(await storage.exists('datasets/v/b.bin')).toBe(false);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('S3Storage on its own', () => {
  it('keeps each prefix to itself', async () => {
    const a = new S3Storage(s3.options({ prefix: 'school-a/' }), SECRET);
    const b = new S3Storage(s3.options({ prefix: 'school-b/' }), SECRET);
    await a.put('logo.png', Readable.from(['a']), { maxBytes: 10 });
    expect(await b.exists('logo.png')).toBe(false);
    expect(await s3.keys()).toContain('school-a/logo.png');
    const listed = [];
    for await (const file of b.list()) listed.push(file);
    expect(listed).toEqual([]);
    await a.delete('logo.png');
    a.close();
    b.close();
  });

  it('checks the bucket at start, naming it and where it was sought but not the secret', async () => {
    await expect(new S3Storage(s3.options(), SECRET).check()).resolves.toBeUndefined();
    const missing = new S3Storage(s3.options({ bucket: 'no-such-bucket' }), SECRET);
    const error = (await missing.check().catch((e: unknown) => e)) as Error;
    expect(error.message).toMatch(/^S3 bucket "no-such-bucket" at http:\/\/127\.0\.0\.1:\d+ cannot be used: /);
    const closed = new S3Storage(
      s3.options({ endpoint: 'http://127.0.0.1:9', credentials: { accessKeyId: 'k', secretAccessKey: 'hush-hush' } }),
      SECRET,
    );
    const refused = (await closed.check().catch((e: unknown) => e)) as Error;
    expect(refused.message).toContain('http://127.0.0.1:9');
    expect(refused.message).not.toContain('hush-hush');
  });
});

describe('S3Storage with direct downloads', () => {
  let storage: S3Storage;
  let publicEndpoint: string;
  beforeEach(async () => {
    // The service as browsers reach it under another name than the server's: an address signed for one host is
    // refused at any other, so this shows which one each address is signed for.
    publicEndpoint = s3.options().endpoint!.replace('127.0.0.1', 'localhost');
    const options = s3.options({ prefix: `d${Math.random().toString(36).slice(2)}/`, directDownloads: true });
    storage = new S3Storage({ ...options, publicEndpoint }, SECRET);
    await storage.put('media/clip.bin', chunks(300_000).stream, { maxBytes: 1_000_000 });
  });
  afterEach(() => storage.close());

  const asked = (expiresAt: number) => ({
    expiresAt,
    contentType: 'video/mp4',
    contentDisposition: `inline; filename*=UTF-8''${encodeURIComponent('第一课.mp4')}`,
  });

  it('signs addresses at the public endpoint that the bucket answers with the type, name and ranges asked', async () => {
    expect(await storage.directOrigin()).toBe(publicEndpoint);
    const url = (await storage.directUrl('media/clip.bin', asked(Math.floor(Date.now() / 1000) + 600)))!;
    expect(new URL(url).origin).toBe(publicEndpoint);
    const whole = await fetch(url);
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-type')).toBe('video/mp4');
    expect(whole.headers.get('content-disposition')).toBe(asked(0).contentDisposition);
    const bytes = Buffer.from(await whole.arrayBuffer());
    expect(bytes.length).toBe(300_000);
    const part = await fetch(url, { headers: { range: 'bytes=70000-70099' } });
    expect(part.status).toBe(206);
    expect(Buffer.from(await part.arrayBuffer())).toEqual(bytes.subarray(70_000, 70_100));
    // Signed for the public name, this object, this type and name, which are all the signature covers.
    expect(presignedSignatureMatches(url)).toBe(true);
    expect(presignedSignatureMatches(url.replace('localhost', '127.0.0.1'))).toBe(false);
    expect(presignedSignatureMatches(url.replace('clip.bin', 'clap.bin'))).toBe(false);
    expect(presignedSignatureMatches(url.replace('video%2Fmp4', 'text%2Fhtml'))).toBe(false);
  });

  it('gives one link the same address all hour, so browsers can cache the file', async () => {
    let clock = Date.parse('2026-11-25T10:00:05Z');
    const timed = new S3Storage({ ...s3.options(), directDownloads: true, publicEndpoint }, SECRET, () => clock);
    const expiresAt = clock / 1000 + 7 * 86_400;
    const first = (await timed.directUrl('media/clip.bin', asked(expiresAt)))!;
    clock = Date.parse('2026-11-25T10:59:58Z');
    expect(await timed.directUrl('media/clip.bin', asked(expiresAt))).toBe(first);
    const signed = new URL(first).searchParams;
    expect(signed.get('X-Amz-Date')).toBe('20261125T100000Z');
    // At most the week an S3 presigned address may live, counted from the hour it is signed as of.
    expect(Number(signed.get('X-Amz-Expires'))).toBe(7 * 86_400);
    clock = Date.parse('2026-11-25T11:00:01Z');
    const next = new URL((await timed.directUrl('media/clip.bin', asked(expiresAt)))!).searchParams;
    expect(next.get('X-Amz-Date')).toBe('20261125T110000Z');
    // Within the week, the address ends exactly when the link does.
    expect(Date.parse('2026-11-25T11:00:00Z') / 1000 + Number(next.get('X-Amz-Expires'))).toBe(expiresAt);
    timed.close();
  });

  it('ends an address when its link ends', async () => {
    const url = (await storage.directUrl('media/clip.bin', asked(Math.floor(Date.now() / 1000) + 1)))!;
    await vi.waitFor(async () => expect((await fetch(url)).status).toBe(403), { timeout: 10_000, interval: 250 });
  });
});
