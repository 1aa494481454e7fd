import { Transform, type Readable } from 'node:stream';
import { AppError } from '../errors.js';

export interface PutOptions {
  maxBytes: number;
  fresh?: boolean;
}

/** Where uploaded and generated files live. The local disk is the default; S3 can implement the same. */
export interface FileStorage {
  /**
   * Streams `body` into `key`. Refuses with FILE_TOO_LARGE as soon as more than `maxBytes` arrive, and
   * then leaves nothing behind: the file appears only once it is complete. With `fresh`, the caller vouches that
   * the key is new and that nothing reads it before the caller makes it known (a dataset version's files before
   * the version is ready): the local disk then writes it in place, without a temporary name to rename.
   */
  put(key: string, body: Readable, options: PutOptions): Promise<{ size: number }>;
  /** A stream of the file (or of the bytes start..end inclusive), and the whole file's size; or NOT_FOUND. */
  get(key: string, range?: { start: number; end: number }): Promise<{ stream: Readable; size: number }>;
  /** The whole file's size, or NOT_FOUND. */
  size(key: string): Promise<number>;
  exists(key: string): Promise<boolean>;
  delete(key: string): Promise<void>;
  /** Every stored file with its size, in no particular order (backups read them all). */
  list(): AsyncIterable<{ key: string; size: number }>;
  /** A time-limited URL anyone holding it may download from. */
  signedUrl(key: string, options: SignedUrlOptions): string;
  /** Checks a signed URL's query; answers the key when valid and unexpired. */
  verifySignedUrl(query: SignedQuery): string | null;
  /**
   * Where a browser may fetch the file from the storage itself, until `expiresAt` (seconds, the signed link's own
   * end), answered with the given type and disposition; null when the server sends the bytes (the local disk, or
   * a bucket without direct downloads).
   */
  directUrl(key: string, options: DirectUrlOptions): Promise<string | null>;
  /** The origin of every direct URL, which the Content-Security-Policy must allow; null without direct URLs. */
  directOrigin(): Promise<string | null>;
  /** The folder of this machine's disk the files are kept in; null for a bucket (uploads count their disk space). */
  readonly localDir: string | null;
}

export interface SignedUrlOptions {
  expiresInSeconds: number;
  /** The name the browser gives the file (the key's last part otherwise). */
  fileName?: string;
  /** Saved under its name rather than shown in place, whatever its type (a "Download" button). */
  attachment?: boolean;
}

/** The query of a signed URL; `dl=1` asks for an attachment, and is signed like the rest. */
export interface SignedQuery {
  key: string;
  expires: string;
  sig: string;
  name?: string | undefined;
  dl?: '1' | undefined;
}

export interface DirectUrlOptions {
  expiresAt: number;
  contentType: string;
  contentDisposition: string;
}

/** Keys are relative paths of safe segments: no empty, '.', '..' or hidden segments, no backslashes. */
export function isValidKey(key: string): boolean {
  if (key.length === 0 || key.length > 512 || key.includes('\\') || key.includes('\0')) return false;
  return key.split('/').every((segment) => /^[\w-][\w.-]*$/.test(segment) && segment !== '..');
}

/** Passes bytes through, counting them; fails with FILE_TOO_LARGE as soon as more than `maxBytes` have come. */
export class ByteLimit extends Transform {
  bytes = 0;

  constructor(private readonly maxBytes: number) {
    super();
  }

  get exceeded() {
    return this.bytes > this.maxBytes;
  }

  override _transform(
    chunk: Buffer,
    _encoding: BufferEncoding,
    callback: (error?: Error | null, data?: Buffer) => void,
  ) {
    this.bytes += chunk.length;
    if (this.exceeded) callback(new AppError('FILE_TOO_LARGE'));
    else callback(null, chunk);
  }
}
