import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { ErrorName } from '@aiedu/contracts';
import { and, eq, lt, sql } from 'drizzle-orm';
import pLimit from 'p-limit';
import { ArchiveRefusal, type RefusalReason } from '../../platform/archive/refusal.js';
import { openZipFile, type CheckedZipFile, type ZipLimits } from '../../platform/archive/zip.js';
import type { AppContext } from '../../platform/context.js';
import { datasetFiles, datasets, datasetVersions } from '../../platform/db/schema/index.js';
import { AppError } from '../../platform/errors.js';
import type { DatasetRow } from './dataset-access.js';
import { newestReady, type VersionRow } from './dataset.repository.js';
import { datasetFileKey, deleteVersionObjects, versionPrefix } from './dataset-storage.js';

/** A dataset's zip is refused with the archive codes, each its own (the spreadsheet imports keep theirs). */
const REFUSALS: Record<RefusalReason, ErrorName> = {
  entries: 'ARCHIVE_TOO_MANY_FILES',
  bytes: 'ARCHIVE_TOO_LARGE',
  declared: 'ARCHIVE_TOO_LARGE',
  rows: 'ARCHIVE_TOO_LARGE',
  memory: 'ARCHIVE_TOO_LARGE',
  time: 'ARCHIVE_TOO_LARGE',
  ratio: 'ARCHIVE_RATIO',
  name: 'ARCHIVE_UNSAFE_PATH',
  link: 'ARCHIVE_UNSAFE_PATH',
  encrypted: 'ARCHIVE_ENCRYPTED',
  empty: 'ARCHIVE_EMPTY',
  unreadable: 'ARCHIVE_NOT_ZIP',
};

export function archiveError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  if (error instanceof ArchiveRefusal) return new AppError(REFUSALS[error.reason], error.toData());
  return new AppError('UNKNOWN');
}

/** An entry's size beyond which it is held to the ratio, and the ratio: data files compress, bombs far more. */
const MAX_RATIO = 200;

export function zipLimits(ctx: AppContext): ZipLimits {
  const { maxEntries, maxUnpackedBytes } = ctx.config.datasets;
  return { maxEntries, maxEntryBytes: maxUnpackedBytes, maxTotalBytes: maxUnpackedBytes, maxRatio: MAX_RATIO };
}

/** What archivers add for themselves: macOS's resource forks and Finder's folder settings. */
export const isArchiverLitter = (name: string) =>
  name.startsWith('__MACOSX/') || name === '.DS_Store' || name.endsWith('/.DS_Store');

/**
 * Checks a finished upload from the file on disk, before anything is extracted: a refusal throws the catalogue's
 * archive error and nothing is recorded. `usage` is what the owner already stores, against their quota.
 */
export async function checkDatasetZip(ctx: AppContext, file: string, usage: number): Promise<CheckedZipFile> {
  let zip: CheckedZipFile;
  try {
    zip = await openZipFile(file, zipLimits(ctx), isArchiverLitter);
  } catch (error) {
    throw archiveError(error);
  }
  if (zip.fileCount === 0) throw new AppError('ARCHIVE_EMPTY');
  if (usage + zip.totalBytes > ctx.config.userStorageQuotaBytes) throw new AppError('NO_SPACE');
  return zip;
}

/** The next version of a dataset, `processing`, numbered after the last (the dataset's row held meanwhile). */
export async function createVersion(
  ctx: AppContext,
  dataset: DatasetRow,
  zip: { name: string; bytes: number; totalBytes: number },
): Promise<VersionRow> {
  return ctx.db.transaction(async (tx) => {
    await tx.select({ id: datasets.id }).from(datasets).where(eq(datasets.id, dataset.id)).for('update');
    const [last] = await tx
      .select({ n: sql<number>`coalesce(max(${datasetVersions.number}), 0)` })
      .from(datasetVersions)
      .where(eq(datasetVersions.datasetId, dataset.id));
    const number = Number(last?.n ?? 0) + 1;
    const [row] = await tx
      .insert(datasetVersions)
      .values({
        datasetId: dataset.id,
        customerId: dataset.customerId,
        number,
        zipName: zip.name,
        zipBytes: zip.bytes,
        totalBytes: zip.totalBytes,
        storagePrefix: versionPrefix(dataset.id, number),
        createdBy: dataset.ownerId,
      })
      .returning();
    await tx.update(datasets).set({ updatedAt: ctx.now() }).where(eq(datasets.id, dataset.id));
    return row!;
  });
}

const FILE_ROWS_PER_INSERT = 500;
/**
 * Entries written at once. A file's write is a handful of file system calls, each a trip through the thread pool;
 * four in flight keep its four threads busy, while memory holds four entries' buffers at most.
 */
const EXTRACT_WINDOW = 4;
/** One extraction at a time per process: each streams one entry at a time, so memory stays flat. */
const extracting = pLimit(1);
const running = new Set<Promise<void>>();

/** Extractions under way in this process; closing the app waits for them. */
export const extractionsRunning = () => Promise.allSettled([...running]);

/**
 * Extracts a checked zip into storage, in the background: the zip is moved out of the upload folder first (`held`),
 * its files are written one by one and recorded in batches, then the version is ready and becomes the current one.
 * On any failure what was written is deleted and the version is failed with the reason. The zip file is removed
 * either way.
 */
export function extractInBackground(ctx: AppContext, version: VersionRow, zip: CheckedZipFile, held: string) {
  const job = extracting(() => extract(ctx, version, zip))
    .catch(() => undefined)
    .finally(() => rm(held, { force: true }));
  const tracked = job.then(() => undefined);
  running.add(tracked);
  void tracked.finally(() => running.delete(tracked));
}

/** Moves the finished upload to where it is checked and waits for its extraction, out of the folder tus sweeps. */
export async function holdZip(ctx: AppContext, file: string, uploadId: string) {
  const held = path.join(ctx.config.dataDir, 'uploads', 'dataset-zips', `${uploadId}.zip`);
  await mkdir(path.dirname(held), { recursive: true });
  await rename(file, held);
  return held;
}

async function extract(ctx: AppContext, version: VersionRow, zip: CheckedZipFile) {
  const written: string[] = [];
  let pending: { versionId: string; path: string; size: number }[] = [];
  let bytes = 0;
  // Rows are inserted one batch after another, beside the writes: no entry waits for an insert.
  let inserted: Promise<void> = Promise.resolve();
  const flush = () => {
    if (pending.length === 0) return;
    const rows = pending;
    pending = [];
    inserted = inserted.then(async () => {
      await ctx.db.insert(datasetFiles).values(rows);
    });
    // A failed insert is answered where the extraction waits for the inserts, not as an unhandled rejection.
    inserted.catch(() => undefined);
  };
  try {
    await zip.each(async (entry, open) => {
      const body = await open();
      // The refusal reaches the write below; a late second report of it must not go unheard.
      body.on('error', () => undefined);
      // Fresh: nothing reads a version's files before it is ready, and a failed one's are deleted.
      await ctx.storage.put(datasetFileKey(version, entry.name), body, { maxBytes: entry.size, fresh: true });
      written.push(entry.name);
      bytes += entry.size;
      pending.push({ versionId: version.id, path: entry.name, size: entry.size });
      if (pending.length >= FILE_ROWS_PER_INSERT) flush();
    }, EXTRACT_WINDOW);
    flush();
    await inserted;
    await ctx.db.transaction(async (tx) => {
      await tx
        .update(datasetVersions)
        .set({ state: 'ready', fileCount: written.length, totalBytes: bytes, readyAt: ctx.now() })
        .where(eq(datasetVersions.id, version.id));
      const current = await newestReady(tx, version.datasetId);
      await tx
        .update(datasets)
        .set({ currentVersionId: current, updatedAt: ctx.now() })
        .where(eq(datasets.id, version.datasetId));
    });
  } catch (error) {
    await inserted.catch(() => undefined);
    // An AppError's message is its name in the catalogue.
    const name = archiveError(error).message;
    await deleteVersionObjects(ctx, version, written).catch(() => undefined);
    await ctx.db.delete(datasetFiles).where(eq(datasetFiles.versionId, version.id));
    await ctx.db
      .update(datasetVersions)
      .set({ state: 'failed', failure: name, fileCount: 0, totalBytes: 0 })
      .where(and(eq(datasetVersions.id, version.id), eq(datasetVersions.state, 'processing')));
    throw error;
  }
}

/** Longer than any extraction of the largest zip allowed takes: a version processing longer lost its process. */
export const STALE_PROCESSING_MS = 6 * 3_600_000;

/**
 * Fails the versions whose extraction stopped with its process (a restart, a crash): what they wrote is deleted,
 * and they answer 1010 so the owner uploads again. Run when a process starts and every hour.
 */
export async function failStaleVersions(ctx: AppContext) {
  const stale = await ctx.db
    .select()
    .from(datasetVersions)
    .where(
      and(
        eq(datasetVersions.state, 'processing'),
        lt(datasetVersions.createdAt, new Date(ctx.now().getTime() - STALE_PROCESSING_MS)),
      ),
    );
  // Zips whose extraction stopped with their process wait in vain: deleted once as old as a stale version.
  const held = path.join(ctx.config.dataDir, 'uploads', 'dataset-zips');
  for (const name of await readdir(held).catch(() => [] as string[])) {
    const info = await stat(path.join(held, name)).catch(() => null);
    if (info && ctx.now().getTime() - info.mtimeMs > STALE_PROCESSING_MS)
      await rm(path.join(held, name), { force: true });
  }
  for (const version of stale) {
    await deleteVersionObjects(ctx, version);
    await ctx.db.delete(datasetFiles).where(eq(datasetFiles.versionId, version.id));
    await ctx.db
      .update(datasetVersions)
      .set({ state: 'failed', failure: 'LOADING_FAILED', fileCount: 0, totalBytes: 0 })
      .where(and(eq(datasetVersions.id, version.id), eq(datasetVersions.state, 'processing')));
  }
  return stale.length;
}
