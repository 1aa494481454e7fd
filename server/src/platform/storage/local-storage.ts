import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { API } from '@aiedu/contracts';
import { AppError } from '../errors.js';
import { isValidKey, type FileStorage } from './storage.js';

/** Files under `DATA_DIR/files`, written to a temporary name first and renamed once complete. */
export class LocalDiskStorage implements FileStorage {
  private readonly tmpDir: string;

  constructor(
    private readonly root: string,
    private readonly secret: string,
    private readonly now: () => number = Date.now,
  ) {
    this.tmpDir = path.join(root, '.tmp');
  }

  private pathOf(key: string): string {
    if (!isValidKey(key)) throw new AppError('INVALID_REQUEST');
    return path.join(this.root, ...key.split('/'));
  }

  async put(key: string, body: Readable, { maxBytes }: { maxBytes: number }) {
    const target = this.pathOf(key);
    await mkdir(this.tmpDir, { recursive: true });
    await mkdir(path.dirname(target), { recursive: true });
    const tmp = path.join(this.tmpDir, randomUUID());
    let size = 0;
    const limiter = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        size += chunk.length;
        if (size > maxBytes) callback(new AppError('FILE_TOO_LARGE'));
        else callback(null, chunk);
      },
    });
    try {
      await pipeline(body, limiter, createWriteStream(tmp, { flags: 'wx' }));
      await rename(tmp, target);
    } catch (error) {
      await rm(tmp, { force: true });
      // Stop reading a refused upload: the client is told at once, the rest of the body is not stored.
      body.destroy();
      throw error;
    }
    return { size };
  }

  async get(key: string, range?: { start: number; end: number }) {
    const file = this.pathOf(key);
    const size = await this.size(key);
    return { stream: createReadStream(file, range ?? {}), size };
  }

  async size(key: string) {
    const info = await stat(this.pathOf(key)).catch(() => null);
    if (!info?.isFile()) throw new AppError('NOT_FOUND');
    return info.size;
  }

  async exists(key: string) {
    const info = await stat(this.pathOf(key)).catch(() => null);
    return Boolean(info?.isFile());
  }

  async delete(key: string) {
    await rm(this.pathOf(key), { force: true });
  }

  signedUrl(key: string, { expiresInSeconds, fileName }: { expiresInSeconds: number; fileName?: string }) {
    if (!isValidKey(key)) throw new AppError('INVALID_REQUEST');
    const expires = String(Math.floor(this.now() / 1000) + expiresInSeconds);
    const params = new URLSearchParams({ key, expires });
    if (fileName) params.set('name', fileName);
    params.set('sig', this.sign(key, expires, fileName));
    return `${API.fileDownload}?${params.toString()}`;
  }

  verifySignedUrl({
    key,
    expires,
    sig,
    name,
  }: {
    key: string;
    expires: string;
    sig: string;
    name?: string | undefined;
  }) {
    if (!isValidKey(key) || !/^\d+$/.test(expires)) return null;
    if (Number(expires) < Math.floor(this.now() / 1000)) return null;
    const expected = Buffer.from(this.sign(key, expires, name));
    const given = Buffer.from(sig);
    return expected.length === given.length && timingSafeEqual(expected, given) ? key : null;
  }

  private sign(key: string, expires: string, name: string | undefined) {
    return createHmac('sha256', this.secret)
      .update(`${key}\n${expires}\n${name ?? ''}`)
      .digest('base64url');
  }
}
