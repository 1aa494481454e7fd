import { Readable } from 'node:stream';
import { eq } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import { datasetFiles, datasets, datasetVersions } from '../../platform/db/schema/index.js';
import type { FileStorage } from '../../platform/storage/storage.js';

/**
 * A dataset written straight to the database and storage, as an extracted upload leaves it: its version's files
 * under `datasets/<id>/v<n>/files/`, listed in `dataset_files`.
 */
export async function buildDataset(
  db: Db,
  storage: FileStorage,
  owner: { id: string; customerId: string | null },
  options: { name: string; access?: 'public' | 'private'; files?: Record<string, string>; ready?: boolean },
) {
  const [dataset] = await db
    .insert(datasets)
    .values({ customerId: owner.customerId, ownerId: owner.id, name: options.name, access: options.access })
    .returning();
  const version = await addDatasetVersion(db, storage, dataset!.id, owner, options.files ?? {}, options.ready);
  return { dataset: dataset!, version };
}

/** A new version of the dataset; a ready one becomes its current version. */
export async function addDatasetVersion(
  db: Db,
  storage: FileStorage,
  datasetId: string,
  owner: { id: string; customerId: string | null },
  files: Record<string, string>,
  ready = true,
) {
  const existing = await db.select().from(datasetVersions).where(eq(datasetVersions.datasetId, datasetId));
  const number = existing.length + 1;
  const storagePrefix = `datasets/${datasetId}/v${number}/`;
  const sizes = Object.entries(files).map(([path, text]) => ({ path, size: Buffer.byteLength(text) }));
  const [version] = await db
    .insert(datasetVersions)
    .values({
      datasetId,
      customerId: owner.customerId,
      number,
      state: ready ? 'ready' : 'processing',
      zipName: 'data.zip',
      fileCount: sizes.length,
      totalBytes: sizes.reduce((sum, f) => sum + f.size, 0),
      storagePrefix,
      createdBy: owner.id,
      readyAt: ready ? new Date() : null,
    })
    .returning();
  for (const [path, text] of Object.entries(files)) {
    await storage.put(`${storagePrefix}files/${path}`, Readable.from([Buffer.from(text)]), { maxBytes: 1e9 });
  }
  if (sizes.length > 0) await db.insert(datasetFiles).values(sizes.map((f) => ({ versionId: version!.id, ...f })));
  if (ready) await db.update(datasets).set({ currentVersionId: version!.id }).where(eq(datasets.id, datasetId));
  return version!;
}
