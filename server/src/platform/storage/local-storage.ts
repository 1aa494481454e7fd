import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { AppError } from '../errors.js';
import { SignedLinks } from './signed-links.js';
import { ByteLimit, isValidKey, type FileStorage, type SignedQuery, type SignedUrlOptions } from './storage.js';

/** Files under `DATA_DIR/files`, written to a temporary name first and renamed once complete. */
export class LocalDiskStorage implements FileStorage {
  private readonly tmpDir: string;
  private readonly links: SignedLinks;

  constructor(
    private readonly root: string,
    secret: string,
    now: () => number = Date.now,
  ) {
    this.tmpDir = path.join(root, '.tmp');
    this.links = new SignedLinks(secret, now);
  }

  get localDir(): string {
    return this.root;
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
    const limiter = new ByteLimit(maxBytes);
    // Created before the first byte: a stream that opens its file itself may create it after a refused upload's
    // clean-up has run, and leave it behind.
    const file = await open(tmp, 'wx');
    try {
      await pipeline(body, limiter, file.createWriteStream());
      await rename(tmp, target);
    } catch (error) {
      await rm(tmp, { force: true });
      // Stop reading a refused upload: the client is told at once, the rest of the body is not stored.
      body.destroy();
      throw error;
    }
    return { size: limiter.bytes };
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

  async *list() {
    // Unfinished uploads (`.tmp`) and anything else that is no valid key are not files of the product.
    const entries = await readdir(this.root, { recursive: true, withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      if (!entry.isFile()) continue;
      const key = path.relative(this.root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/');
      if (!isValidKey(key)) continue;
      const size = await this.size(key).catch(() => null);
      if (size !== null) yield { key, size };
    }
  }

  signedUrl(key: string, options: SignedUrlOptions) {
    return this.links.url(key, options);
  }

  verifySignedUrl(query: SignedQuery) {
    return this.links.verify(query);
  }

  /** The server sends a file on its disk itself. */
  async directUrl() {
    return null;
  }

  async directOrigin() {
    return null;
  }
}
