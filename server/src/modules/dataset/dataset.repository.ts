import type { ZDatasetListQuery } from '@aiedu/contracts';
import { and, asc, desc, eq, ilike, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db } from '../../platform/db/client.js';
import { likeText } from '../../platform/db/like.js';
import { datasetFiles, datasets, datasetVersions, users } from '../../platform/db/schema/index.js';
import type { DatasetRow } from './dataset-access.js';

export type VersionRow = typeof datasetVersions.$inferSelect;
type ListQuery = z.infer<typeof ZDatasetListQuery>;

const SORTS = { updatedAt: datasets.updatedAt, createdAt: datasets.createdAt, name: datasets.name } as const;
const ownerName = sql<string>`coalesce(nullif(${users.realName}, ''), ${users.username})`;

export interface DatasetListRow {
  dataset: DatasetRow;
  ownerName: string;
  current: Pick<VersionRow, 'id' | 'number' | 'fileCount' | 'totalBytes'> | null;
}

/**
 * One page of the datasets the caller may see: their own, the public ones of their tenant and those shared with a
 * group they belong to (`all`), or their own only (`mine`), with the filters of the query.
 */
export async function listDatasets(
  db: Db,
  caller: { userId: string; customerId: string | null },
  groupIds: string[],
  query: ListQuery,
) {
  const tenant = caller.customerId ? eq(datasets.customerId, caller.customerId) : isNull(datasets.customerId);
  const own = and(tenant, eq(datasets.ownerId, caller.userId));
  const visible =
    query.scope === 'mine'
      ? own
      : or(
          own,
          and(tenant, eq(datasets.access, 'public')),
          groupIds.length > 0 ? and(eq(datasets.access, 'group'), inArray(datasets.groupId, groupIds)) : undefined,
        );
  const filters: (SQL | undefined)[] = [visible];
  if (query.keyword) {
    const like = likeText(query.keyword);
    filters.push(or(ilike(datasets.name, like), ilike(datasets.description, like)));
  }
  if (query.tag) filters.push(sql`${query.tag} = any(${datasets.tags})`);
  if (query.access) filters.push(eq(datasets.access, query.access));
  if (query.groupId) filters.push(eq(datasets.groupId, query.groupId));
  const [field, direction] = (query.sort ?? 'updatedAt,desc').split(',') as [keyof typeof SORTS, string];
  const rows = await db
    .select({
      dataset: datasets,
      ownerName,
      currentId: datasetVersions.id,
      currentNumber: datasetVersions.number,
      currentFiles: datasetVersions.fileCount,
      currentBytes: datasetVersions.totalBytes,
      total: sql<number>`count(*) over ()`.mapWith(Number),
    })
    .from(datasets)
    .innerJoin(users, eq(users.id, datasets.ownerId))
    .leftJoin(datasetVersions, eq(datasetVersions.id, datasets.currentVersionId))
    .where(and(...filters))
    .orderBy(direction === 'asc' ? asc(SORTS[field]) : desc(SORTS[field]), desc(datasets.id))
    .limit(query.size)
    .offset((query.page - 1) * query.size);
  const total =
    rows[0]?.total ??
    (query.page === 1
      ? 0
      : Number(
          (
            await db
              .select({ n: sql<number>`count(*)` })
              .from(datasets)
              .where(and(...filters))
          )[0]?.n ?? 0,
        ));
  const list: DatasetListRow[] = rows.map((row) => ({
    dataset: row.dataset,
    ownerName: row.ownerName,
    current:
      row.currentId === null
        ? null
        : {
            id: row.currentId,
            number: row.currentNumber!,
            fileCount: row.currentFiles!,
            totalBytes: row.currentBytes!,
          },
  }));
  return { list, total, page: query.page, size: query.size };
}

export async function ownerNameOf(db: Db, userId: string) {
  const [row] = await db.select({ name: ownerName }).from(users).where(eq(users.id, userId));
  return row?.name ?? '';
}

export function versionsOf(db: Db, datasetId: string) {
  return db
    .select()
    .from(datasetVersions)
    .where(eq(datasetVersions.datasetId, datasetId))
    .orderBy(desc(datasetVersions.number));
}

export async function versionOf(db: Db, datasetId: string, versionId: string) {
  const [row] = await db
    .select()
    .from(datasetVersions)
    .where(and(eq(datasetVersions.id, versionId), eq(datasetVersions.datasetId, datasetId)));
  return row ?? null;
}

/** The newest ready version, which projects get: where `current_version_id` points. */
export async function newestReady(db: Db, datasetId: string) {
  const [row] = await db
    .select({ id: datasetVersions.id })
    .from(datasetVersions)
    .where(and(eq(datasetVersions.datasetId, datasetId), eq(datasetVersions.state, 'ready')))
    .orderBy(desc(datasetVersions.number))
    .limit(1);
  return row?.id ?? null;
}

/**
 * One folder level of a version under `prefix` ("" for the top, else a folder path ending in "/"): each name with
 * whether it is a file, and the files and bytes under it. Grouped by the database, so a folder of 20,000 files
 * answers a few rows.
 */
export async function folderLevel(db: Db, versionId: string, prefix: string) {
  // A literal, not a parameter: the grouped expression must read the same in the select and the group by.
  const rest = sql`substr(${datasetFiles.path}, ${sql.raw(String(prefix.length + 1))})`;
  const name = sql<string>`split_part(${rest}, '/', 1)`;
  const rows = await db
    .select({
      name,
      isFile: sql<boolean>`bool_or(strpos(${rest}, '/') = 0)`,
      files: sql<number>`count(*)`.mapWith(Number),
      bytes: sql<number>`coalesce(sum(${datasetFiles.size}), 0)`.mapWith(Number),
    })
    .from(datasetFiles)
    .where(
      prefix
        ? and(eq(datasetFiles.versionId, versionId), sql`starts_with(${datasetFiles.path}, ${prefix})`)
        : eq(datasetFiles.versionId, versionId),
    )
    .groupBy(sql`1`);
  return rows;
}

export async function fileOf(db: Db, versionId: string, path: string) {
  const [row] = await db
    .select({ path: datasetFiles.path, size: datasetFiles.size })
    .from(datasetFiles)
    .where(and(eq(datasetFiles.versionId, versionId), eq(datasetFiles.path, path)));
  return row ?? null;
}
