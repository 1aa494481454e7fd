import { createHash } from 'node:crypto';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { AppContext } from '../../platform/context.js';
import { datasetFiles } from '../../platform/db/schema/index.js';
import type { VersionRow } from './dataset.repository.js';

/** Where a version's files live: `datasets/<datasetId>/v<number>/`, its files under `files/`. */
export const versionPrefix = (datasetId: string, number: number) => `datasets/${datasetId}/v${number}/`;

/** A storage key segment keeps its name when it is one of plain letters, digits, `-` and `.` (not starting `_`). */
const PLAIN_SEGMENT = /^[A-Za-z0-9-][\w.-]{0,99}$/;
const MAX_KEY = 512;
const hashed = (text: string) => `_${createHash('sha256').update(text).digest('base64url').slice(0, 27)}`;

/**
 * The storage key of a file of a version. Storage keys allow only plain ASCII segments, and a zip's names may be
 * in any script: a segment that is not plain becomes `_` and a hash of it (a plain one never starts with `_`, so
 * the two never meet), and a path still too long for a key becomes one hashed name. The path itself is kept in
 * `dataset_files`; this function is the one way from it to the bytes.
 */
export function datasetFileKey(version: Pick<VersionRow, 'storagePrefix'>, filePath: string): string {
  const base = `${version.storagePrefix}files/`;
  const key =
    base +
    filePath
      .split('/')
      .map((s) => (PLAIN_SEGMENT.test(s) ? s : hashed(s)))
      .join('/');
  return key.length <= MAX_KEY ? key : `${base}${hashed(filePath)}`;
}

export const annotationKey = (version: Pick<VersionRow, 'storagePrefix'>) => `${version.storagePrefix}annotation.json`;

/** Deletes every stored object of a version (its files, by the paths recorded, and its annotation). */
export async function deleteVersionObjects(ctx: AppContext, version: VersionRow, paths?: string[]) {
  const recorded =
    paths ??
    (
      await ctx.db.select({ path: datasetFiles.path }).from(datasetFiles).where(eq(datasetFiles.versionId, version.id))
    ).map((row) => row.path);
  for (const one of recorded) await ctx.storage.delete(datasetFileKey(version, one));
  if (version.annotationKey) await ctx.storage.delete(version.annotationKey);
  // On the local disk the folders stay behind once their files are gone.
  if (ctx.storage.localDir) {
    await rm(path.join(ctx.storage.localDir, ...version.storagePrefix.split('/').filter(Boolean)), {
      recursive: true,
      force: true,
    });
  }
}
