import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import { datasets, datasetVersions } from '../../platform/db/schema/index.js';

/**
 * Bytes the datasets of a user take in storage: the unpacked files of every version that is not failed, and their
 * annotation files. They count in the owner's storage quota beside their projects.
 */
export async function datasetBytesOf(db: Db, ownerId: string): Promise<number> {
  const [row] = await db
    .select({
      bytes: sql<number>`coalesce(sum(${datasetVersions.totalBytes} + coalesce(${datasetVersions.annotationBytes}, 0)), 0)`,
    })
    .from(datasetVersions)
    .innerJoin(datasets, eq(datasets.id, datasetVersions.datasetId))
    .where(and(eq(datasets.ownerId, ownerId), sql`${datasetVersions.state} <> 'failed'`));
  return Number(row?.bytes ?? 0);
}
