import { eq } from 'drizzle-orm';
import { LRUCache } from 'lru-cache';
import type { Db } from '../../platform/db/client.js';
import { courseVersions } from '../../platform/db/schema/index.js';
import { loadVersionTree, type VersionTree } from './course-content.repository.js';

/** A version's content with its name and number, as learners' sections and records read it. */
export interface KeptVersion {
  name: string;
  number: number | null;
  tree: VersionTree;
}

/**
 * Versions kept: the courses learners are in this term. An entry holds the version's whole text, so the bound is
 * by count of a school's active courses, not by their size.
 */
const MAX_ENTRIES = 500;

/** One cache per database, so test apps on their own databases never share entries. */
const caches = new WeakMap<Db, LRUCache<string, KeptVersion>>();

/**
 * A version's chapters, sections, tasks and resources with its name and number: from memory for a published
 * version (a published version never changes: a revision is a new version), else from the database (five
 * statements, sent together). Drafts are always read, since their authors change them. Callers must not change
 * what they are given: it is shared.
 */
export async function keptVersion(db: Db, versionId: string): Promise<KeptVersion> {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new LRUCache({ max: MAX_ENTRIES })));
  const hit = cache.get(versionId);
  if (hit) return hit;
  const [[version], tree] = await Promise.all([
    db
      .select({ name: courseVersions.name, number: courseVersions.number, status: courseVersions.status })
      .from(courseVersions)
      .where(eq(courseVersions.id, versionId)),
    loadVersionTree(db, versionId),
  ]);
  if (!version) throw new Error(`Course version ${versionId} is missing`);
  const kept = { name: version.name, number: version.number, tree };
  if (version.status === 'published') cache.set(versionId, kept);
  return kept;
}
