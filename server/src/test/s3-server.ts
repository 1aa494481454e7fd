import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import type { S3Options } from '../platform/storage/s3-storage.js';

export interface TestS3 {
  /** Options for S3Storage reaching the bucket `files` with the server's fixed credentials. */
  options(overrides?: Partial<S3Options>): S3Options;
  /** Every key in the bucket, prefix included, sorted. */
  keys(): Promise<string[]>;
  close(): Promise<void>;
}

/** An S3 server on a loopback port (s3rver, files in a temporary directory) holding one empty bucket, `files`. */
export async function startTestS3(): Promise<TestS3> {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'aiedu-s3-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: 'files' }],
  });
  const { port } = await server.run();
  const options = (overrides: Partial<S3Options> = {}): S3Options => ({
    bucket: 'files',
    prefix: '',
    endpoint: `http://127.0.0.1:${port}`,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    ...overrides,
  });
  const client = new S3Client({
    region: 'us-east-1',
    endpoint: `http://127.0.0.1:${port}`,
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
  return {
    options,
    async keys() {
      const listed = await client.send(new ListObjectsV2Command({ Bucket: 'files' }));
      return (listed.Contents ?? []).map((object) => object.Key!).sort();
    },
    async close() {
      client.destroy();
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
