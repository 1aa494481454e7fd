import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '../errors.js';
import { LocalDiskStorage } from './local-storage.js';

/** A readable of `total` bytes in chunks, counting how many bytes were actually pulled from it. */
function chunks(total: number, chunkSize = 64 * 1024) {
  const state = { pulled: 0 };
  const stream = new Readable({
    read() {
      if (state.pulled >= total) return this.push(null);
      const n = Math.min(chunkSize, total - state.pulled);
      state.pulled += n;
      this.push(Buffer.alloc(n, 97));
    },
  });
  return { stream, state };
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name));
}

describe('LocalDiskStorage', () => {
  let root: string;
  let now = 1_800_000_000_000;
  let storage: LocalDiskStorage;

  beforeEach(() => {
    root = mkdtempSync(path.join(os.tmpdir(), 'aiedu-storage-'));
    storage = new LocalDiskStorage(root, 'secret-secret-secret-secret-secret', () => now);
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

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
    expect(filesUnder(root)).toEqual([]);
    expect(state.pulled).toBeLessThan(3 * 1024 * 1024);
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
    now += 61_000;
    expect(storage.verifySignedUrl(query)).toBeNull();
  });
});
