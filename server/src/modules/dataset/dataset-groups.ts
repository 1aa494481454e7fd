import { and, count, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import { datasets } from '../../platform/db/schema/index.js';

/**
 * Datasets leave a group with their owner: when the owner quits or is removed (`ownerId`), or the group is
 * dismissed (every owner). They no longer name the group; one shared only with the group is private again, a public
 * one stays public. Their attachments in other members' projects stop synchronising at the next check, since the
 * members no longer see them. Nothing is deleted.
 */
export async function releaseGroupDatasets(db: Db, groupId: string, options: { ownerId?: string }) {
  await db
    .update(datasets)
    .set({
      groupId: null,
      access: sql`case when ${datasets.access} = 'group' then 'private' else ${datasets.access} end`,
    })
    .where(and(eq(datasets.groupId, groupId), options.ownerId ? eq(datasets.ownerId, options.ownerId) : undefined));
}

/** How many datasets each group holds (group-only and public ones that name it). */
export async function countGroupDatasets(db: Db, groupIds: string[]): Promise<Map<string, number>> {
  if (groupIds.length === 0) return new Map();
  const rows = await db
    .select({ groupId: datasets.groupId, n: count() })
    .from(datasets)
    .where(inArray(datasets.groupId, groupIds))
    .groupBy(datasets.groupId);
  return new Map(rows.map((r) => [r.groupId!, r.n]));
}
