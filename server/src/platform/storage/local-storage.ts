import { randomUUID } from 'node:crypto';
import { createReadStream, writeFile } from 'node:fs';
import { mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { AppError } from '../errors.js';
import { SignedLinks } from './signed-links.js';
import {
  ByteLimit,
  isValidKey,
  type FileStorage,
  type PutOptions,
  type SignedQuery,
  type SignedUrlOptions,
} from './storage.js';

/** The callback form: a file's open, write and close without a FileHandle and its promises. */
const writeWhole = promisify(writeFile);

/** Bodies allowed at most this many bytes are gathered in memory and written in one call. */
const SMALL_FILE_BYTES = 256 * 1024;

/**
 * Files under `DATA_DIR/files`, written to a temporary name first and renamed once complete (a fresh key, which
 * nothing reads yet, in place).
 */
export class LocalDiskStorage implements FileStorage {
  private readonly tmpDir: string;
  private readonly madeFolders = new Set<string>();
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

  async put(key: string, body: Readable, { maxBytes, fresh = false }: PutOptions) {
    const target = this.pathOf(key);
    if (maxBytes <= SMALL_FILE_BYTES) return this.writeSmall(target, body, maxBytes, fresh);
    try {
      return await this.writeStreamed(target, body, maxBytes, fresh);
    } catch (error) {
      // A folder this process made was removed meanwhile (by hand, or a restore): made again, once.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || body.readableDidRead) throw error;
      this.madeFolders.clear();
      return this.writeStreamed(target, body, maxBytes, fresh);
    }
  }

  private async writeStreamed(target: string, body: Readable, maxBytes: number, fresh: boolean) {
    if (!fresh) await this.ensureFolder(this.tmpDir);
    await this.ensureFolder(path.dirname(target));
    // A fresh key is written where it goes (nothing reads it yet; `wx` refuses one that exists after all).
    const writing = fresh ? target : path.join(this.tmpDir, randomUUID());
    const limiter = new ByteLimit(maxBytes);
    // Created before the first byte: a stream that opens its file itself may create it after a refused upload's
    // clean-up has run, and leave it behind.
    const file = await open(writing, 'wx');
    try {
      await pipeline(body, limiter, file.createWriteStream());
      if (!fresh) await rename(writing, target);
    } catch (error) {
      await file.close().catch(() => undefined);
      await rm(writing, { force: true });
      // Stop reading a refused upload: the client is told at once, the rest of the body is not stored.
      body.destroy();
      throw error;
    }
    return { size: limiter.bytes };
  }

  /**
   * A small file is gathered, counted as it comes, and written in one call once it is whole: nothing is created for
   * a body that is refused. A write stream, a pipeline and a file handle per file cost more than its bytes (a
   * dataset's thousands of small files).
   */
  private async writeSmall(target: string, body: Readable, maxBytes: number, fresh: boolean) {
    const chunks: Buffer[] = [];
    let size = 0;
    // Leaving the loop early (a refusal) stops reading the body.
    for await (const chunk of body as AsyncIterable<Buffer | string>) {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      size += bytes.length;
      if (size > maxBytes) throw new AppError('FILE_TOO_LARGE');
      chunks.push(bytes);
    }
    const whole = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
    const writing = fresh ? target : path.join(this.tmpDir, randomUUID());
    const place = async () => {
      if (!fresh) await this.ensureFolder(this.tmpDir);
      await this.ensureFolder(path.dirname(target));
      await writeWhole(writing, whole, { flag: 'wx' });
      if (!fresh) await rename(writing, target);
    };
    try {
      await place().catch(async (error: unknown) => {
        // A folder this process made was removed meanwhile (by hand, or a restore): made again, once.
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
        this.madeFolders.clear();
        await place();
      });
    } catch (error) {
      // A fresh key that exists after all is left as it is.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') await rm(writing, { force: true });
      throw error;
    }
    return { size };
  }

  /** Makes a folder once per process: the files of one folder (a dataset's) need not ask the disk each time. */
  private async ensureFolder(folder: string) {
    if (this.madeFolders.has(folder)) return;
    await mkdir(folder, { recursive: true });
    this.madeFolders.add(folder);
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
