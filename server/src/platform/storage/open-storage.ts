import path from 'node:path';
import type { Config } from '../../config.js';
import { loadOrCreateSecret } from '../secrets.js';
import { LocalDiskStorage } from './local-storage.js';
import { S3Storage } from './s3-storage.js';
import type { FileStorage } from './storage.js';

/**
 * The storage the configuration names: the S3 bucket when `S3_BUCKET` is set (checked: it throws a message naming
 * the bucket when it cannot be used), otherwise `DATA_DIR/files`.
 */
export async function openStorage(config: Config): Promise<FileStorage & { close?(): void }> {
  const fileUrlSecret = loadOrCreateSecret(config.dataDir, 'file-url.key', config.fileUrlSecret);
  if (!config.s3) return new LocalDiskStorage(path.join(config.dataDir, 'files'), fileUrlSecret);
  const s3 = new S3Storage(config.s3, fileUrlSecret);
  try {
    await s3.check();
  } catch (error) {
    s3.close();
    throw error;
  }
  return s3;
}
