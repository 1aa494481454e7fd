import { sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import { courseChapters, courseSections, courseTasks, courseVersions } from '../../platform/db/schema/index.js';
import type { VersionInfo } from './course-summary.repository.js';

/** A version as the course detail shows it: its number, its information and its catalogue (titles, task counts). */
export interface VersionCatalogue {
  number: number | null;
  info: VersionInfo;
  chapters: { id: string; title: string; sections: { id: string; title: string; taskCount: number }[] }[];
}

/** Enough for the catalogues of the courses in active use; each entry is a few kilobytes. */
const MAX_ENTRIES = 2_000;
/**
 * A published version never changes (a revision is a new version), so an entry stays right for as long as it is
 * kept. The lifetime only bounds how long another server process shows a catalogue tag an administrator renamed.
 */
const TTL_MS = 60_000;

interface Entry {
  at: number;
  value: VersionCatalogue;
}

/** One cache per database, so test apps on their own databases never share entries. */
const caches = new WeakMap<Db, Map<string, Entry>>();

function cacheOf(db: Db) {
  let cache = caches.get(db);
  if (!cache) {
    cache = new Map();
    caches.set(db, cache);
  }
  return cache;
}

/** Forgets every cached catalogue of this database (after an administrator renames a catalogue tag). */
export function forgetCatalogues(db: Db) {
  caches.get(db)?.clear();
}

/** One query: the version's number and information, its chapters and sections in order, and their task counts. */
async function readCatalogue(db: Db, versionId: string): Promise<{ value: VersionCatalogue; published: boolean }> {
  const rows = await db
    .select({
      number: courseVersions.number,
      status: courseVersions.status,
      name: courseVersions.name,
      description: courseVersions.description,
      coverKey: courseVersions.coverKey,
      thumbKey: courseVersions.thumbKey,
      tags: courseVersions.tags,
      chapterId: courseChapters.id,
      chapterTitle: courseChapters.title,
      sectionId: courseSections.id,
      sectionTitle: courseSections.title,
      taskCount:
        sql<number>`(select count(*) from ${courseTasks} where ${courseTasks.sectionId} = ${courseSections.id})`.mapWith(
          Number,
        ),
    })
    .from(courseVersions)
    .leftJoin(courseChapters, sql`${courseChapters.versionId} = ${courseVersions.id}`)
    .leftJoin(courseSections, sql`${courseSections.chapterId} = ${courseChapters.id}`)
    .where(sql`${courseVersions.id} = ${versionId}`)
    .orderBy(courseChapters.position, courseChapters.id, courseSections.position, courseSections.id);
  const first = rows[0];
  if (!first) throw new Error(`Course version ${versionId} is missing`);
  const chapters: VersionCatalogue['chapters'] = [];
  for (const row of rows) {
    if (!row.chapterId) continue;
    let chapter = chapters.at(-1);
    if (chapter?.id !== row.chapterId) {
      chapter = { id: row.chapterId, title: row.chapterTitle!, sections: [] };
      chapters.push(chapter);
    }
    if (row.sectionId) chapter.sections.push({ id: row.sectionId, title: row.sectionTitle!, taskCount: row.taskCount });
  }
  const { number, name, description, coverKey, thumbKey, tags } = first;
  return {
    value: { number, info: { name, description, coverKey, thumbKey, tags }, chapters },
    published: first.status === 'published',
  };
}

/**
 * The catalogue of a version: from memory for a published version read in the last minute, else from the
 * database. Drafts are always read, since their authors change them.
 */
export async function loadCatalogue(db: Db, versionId: string, now: number = Date.now()): Promise<VersionCatalogue> {
  const cache = cacheOf(db);
  const hit = cache.get(versionId);
  if (hit && now - hit.at < TTL_MS) return hit.value;
  const { value, published } = await readCatalogue(db, versionId);
  if (published) {
    cache.delete(versionId);
    cache.set(versionId, { at: now, value });
    if (cache.size > MAX_ENTRIES) cache.delete(cache.keys().next().value!);
  }
  return value;
}
