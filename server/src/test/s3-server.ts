import { createHash, createHmac } from 'node:crypto';
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
    directDownloads: false,
    publicEndpoint: undefined,
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

/** RFC 3986 encoding, as SigV4 canonical query strings use it. */
const rfc3986 = (value: string) =>
  encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/**
 * Whether a presigned GET address carries a valid AWS Signature Version 4 for its own host, path and query, worked
 * out here from the protocol's definition. s3rver accepts any V4 signature, so tests check addresses with this.
 */
export function presignedSignatureMatches(address: string, secretAccessKey = 'S3RVER'): boolean {
  const url = new URL(address);
  const query = url.searchParams;
  if (query.get('X-Amz-Algorithm') !== 'AWS4-HMAC-SHA256' || query.get('X-Amz-SignedHeaders') !== 'host') return false;
  const [, date, region, service] = (query.get('X-Amz-Credential') ?? '').split('/');
  const canonicalQuery = [...query]
    .filter(([name]) => name !== 'X-Amz-Signature')
    .map(([name, value]) => `${rfc3986(name)}=${rfc3986(value)}`)
    .sort()
    .join('&');
  const canonicalRequest = ['GET', url.pathname, canonicalQuery, `host:${url.host}\n`, 'host', 'UNSIGNED-PAYLOAD'];
  const scope = `${date}/${region}/${service}/aws4_request`;
  const hash = createHash('sha256').update(canonicalRequest.join('\n')).digest('hex');
  const stringToSign = ['AWS4-HMAC-SHA256', query.get('X-Amz-Date'), scope, hash].join('\n');
  const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data).digest();
  let key = hmac(`AWS4${secretAccessKey}`, date!);
  for (const part of [region!, service!, 'aws4_request']) key = hmac(key, part);
  return hmac(key, stringToSign).toString('hex') === query.get('X-Amz-Signature');
}
