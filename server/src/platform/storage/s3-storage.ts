import { pipeline, type Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { AppError } from '../errors.js';
import { SignedLinks } from './signed-links.js';
import {
  ByteLimit,
  isValidKey,
  type DirectUrlOptions,
  type FileStorage,
  type PutOptions,
  type SignedQuery,
  type SignedUrlOptions,
} from './storage.js';

export interface S3Options {
  bucket: string;
  /** Prepended to every key, so several deployments can share a bucket (`school-a/`). */
  prefix: string;
  /** An S3-compatible service (MinIO, Ceph, a cloud's object storage); unset: AWS itself. */
  endpoint: string | undefined;
  region: string;
  /** `bucket` in the path rather than the host name (MinIO and most self-hosted services need it). */
  forcePathStyle: boolean;
  /** Unset: the SDK's own chain (AWS_* variables, a shared profile, the machine's or the pod's role). */
  credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
  /** Downloads are redirected to addresses in the bucket signed for the browser, instead of passing the server. */
  directDownloads: boolean;
  /** Where browsers reach the service, when it is not `endpoint` (an address inside the cluster, say). */
  publicEndpoint: string | undefined;
}

/** The longest a SigV4 presigned address may live: a week. */
const PRESIGN_MAX_SECONDS = 7 * 86_400;

/** Multipart uploads send parts of this size; two are in flight at once, so an upload holds at most ~16 MiB. */
const PART_BYTES = 8 * 1024 * 1024;

function isMissing(error: unknown) {
  return (
    error instanceof S3ServiceException &&
    (error.$metadata.httpStatusCode === 404 || error.name === 'NoSuchKey' || error.name === 'NotFound')
  );
}

/**
 * Files in an S3 bucket, for deployments whose server processes run on several machines. An object appears only
 * once its upload has completed (S3 writes are atomic), so a refused or broken upload never replaces a good file;
 * the multipart parts of a refused one are aborted. Downloads go through the server's signed links, which read the
 * object (or a byte range of it) from the bucket, so the bucket itself can stay private; with direct downloads the
 * link instead answers with a redirect to an address in the bucket presigned for the browser, and the bytes do not
 * pass the server.
 */
export class S3Storage implements FileStorage {
  readonly localDir = null;
  private readonly client: S3Client;
  /** Signs the addresses browsers fetch from directly: for the service's public address where it has one. */
  private readonly browserClient: S3Client | null;
  private readonly links: SignedLinks;

  constructor(
    private readonly options: S3Options,
    secret: string,
    private readonly now: () => number = Date.now,
  ) {
    const client = (endpoint: string | undefined) =>
      new S3Client({
        region: options.region,
        endpoint,
        forcePathStyle: options.forcePathStyle,
        credentials: options.credentials,
        // Checksums only where S3 requires them: many S3-compatible services refuse the newer chunked checksums.
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
      });
    this.client = client(options.endpoint);
    this.browserClient = options.directDownloads ? client(options.publicEndpoint ?? options.endpoint) : null;
    this.links = new SignedLinks(secret, now);
  }

  /** Resolves once the bucket answers; otherwise throws a message naming the bucket and where it was sought. */
  async check(): Promise<void> {
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.options.bucket }));
    } catch (error) {
      const where = this.options.endpoint ?? `AWS region ${this.options.region}`;
      const status = error instanceof S3ServiceException ? ` (HTTP ${error.$metadata.httpStatusCode})` : '';
      throw new Error(
        `S3 bucket "${this.options.bucket}" at ${where} cannot be used: ${(error as Error).name}${status}`,
        { cause: error },
      );
    }
  }

  close() {
    this.client.destroy();
    this.browserClient?.destroy();
  }

  private objectKey(key: string) {
    if (!isValidKey(key)) throw new AppError('INVALID_REQUEST');
    return `${this.options.prefix}${key}`;
  }

  /** An object appears whole when its upload completes, so a fresh key needs nothing different. */
  async put(key: string, body: Readable, { maxBytes }: PutOptions) {
    const Key = this.objectKey(key);
    const limiter = new ByteLimit(maxBytes);
    const counted = pipeline(body, limiter, () => {});
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.options.bucket, Key, Body: counted },
      partSize: PART_BYTES,
      queueSize: 2,
      leavePartsOnError: false,
    });
    try {
      await upload.done();
    } catch (error) {
      // Stop reading a refused upload: the client is told at once, the rest of the body is not stored.
      body.destroy();
      throw limiter.exceeded ? new AppError('FILE_TOO_LARGE') : error;
    }
    return { size: limiter.bytes };
  }

  async get(key: string, range?: { start: number; end: number }) {
    const Key = this.objectKey(key);
    try {
      const object = await this.client.send(
        new GetObjectCommand({
          Bucket: this.options.bucket,
          Key,
          Range: range ? `bytes=${range.start}-${range.end}` : undefined,
        }),
      );
      const whole = range ? Number(object.ContentRange?.split('/')[1]) : object.ContentLength;
      return { stream: object.Body as Readable, size: whole ?? 0 };
    } catch (error) {
      if (isMissing(error)) throw new AppError('NOT_FOUND');
      throw error;
    }
  }

  /** The object's size, or null when there is none. */
  private async head(key: string) {
    const Key = this.objectKey(key);
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.options.bucket, Key }));
      return head.ContentLength ?? 0;
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async size(key: string) {
    const size = await this.head(key);
    if (size === null) throw new AppError('NOT_FOUND');
    return size;
  }

  async exists(key: string) {
    return (await this.head(key)) !== null;
  }

  async delete(key: string) {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.options.bucket, Key: this.objectKey(key) }));
  }

  async *list() {
    const { bucket: Bucket, prefix: Prefix } = this.options;
    let ContinuationToken: string | undefined;
    do {
      const page = await this.client.send(new ListObjectsV2Command({ Bucket, Prefix, ContinuationToken }));
      for (const object of page.Contents ?? []) {
        const key = object.Key?.slice(Prefix.length);
        if (key && isValidKey(key)) yield { key, size: object.Size ?? 0 };
      }
      ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (ContinuationToken);
  }

  signedUrl(key: string, options: SignedUrlOptions) {
    return this.links.url(key, options);
  }

  verifySignedUrl(query: SignedQuery) {
    return this.links.verify(query);
  }

  /**
   * An address in the bucket that ends when the link does. It is signed as of the start of the hour, so the same
   * link gives the same address all hour long and the browser's cache keeps the file (a cover, an avatar).
   */
  async directUrl(key: string, { expiresAt, contentType, contentDisposition }: DirectUrlOptions) {
    if (!this.browserClient) return null;
    const now = Math.floor(this.now() / 1000);
    const signedAt = now - (now % 3600);
    const command = new GetObjectCommand({
      Bucket: this.options.bucket,
      Key: this.objectKey(key),
      ResponseContentType: contentType,
      ResponseContentDisposition: contentDisposition,
    });
    return getSignedUrl(this.browserClient, command, {
      expiresIn: Math.min(PRESIGN_MAX_SECONDS, Math.max(1, expiresAt - signedAt)),
      signingDate: new Date(signedAt * 1000),
    });
  }

  /** Read off an address the SDK signs, so it is right for path-style, virtual-hosted and AWS's own hosts alike. */
  async directOrigin() {
    if (!this.browserClient) return null;
    const command = new GetObjectCommand({ Bucket: this.options.bucket, Key: this.objectKey('origin') });
    return new URL(await getSignedUrl(this.browserClient, command, { expiresIn: 60 })).origin;
  }
}
