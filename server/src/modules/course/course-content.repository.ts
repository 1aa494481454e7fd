import { and, asc, count, eq, inArray, ne, or, sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import type { Db } from '../../platform/db/client.js';
import {
  courseChapters,
  courseResources,
  courseSections,
  courses,
  courseTasks,
  courseVersions,
} from '../../platform/db/schema/index.js';

type Chapter = typeof courseChapters.$inferSelect;
type Section = typeof courseSections.$inferSelect;
type Task = typeof courseTasks.$inferSelect;
type Resource = typeof courseResources.$inferSelect;

export interface VersionTree {
  chapters: (Chapter & { sections: (Section & { tasks: Task[]; resources: Resource[] })[] })[];
}

/** Every chapter, section, task and resource of one version, in order. */
export async function loadVersionTree(db: Db, versionId: string): Promise<VersionTree> {
  const [chapters, sections, tasks, resources] = await Promise.all([
    db
      .select()
      .from(courseChapters)
      .where(eq(courseChapters.versionId, versionId))
      .orderBy(asc(courseChapters.position)),
    db
      .select()
      .from(courseSections)
      .where(eq(courseSections.versionId, versionId))
      .orderBy(asc(courseSections.position)),
    db.select().from(courseTasks).where(eq(courseTasks.versionId, versionId)).orderBy(asc(courseTasks.position)),
    db
      .select()
      .from(courseResources)
      .where(eq(courseResources.versionId, versionId))
      .orderBy(asc(courseResources.position)),
  ]);
  return {
    chapters: chapters.map((chapter) => ({
      ...chapter,
      sections: sections
        .filter((s) => s.chapterId === chapter.id)
        .map((s) => ({
          ...s,
          tasks: tasks.filter((t) => t.sectionId === s.id),
          resources: resources.filter((r) => r.sectionId === s.id),
        })),
    })),
  };
}

/** The sections of a version in reading order (chapter by chapter). */
export function sectionsInOrder(tree: VersionTree) {
  return tree.chapters.flatMap((c) => c.sections);
}

export async function countRows(
  db: Db,
  table: typeof courseSections | typeof courseTasks | typeof courseResources,
  column: 'versionId' | 'sectionId',
  value: string,
): Promise<number> {
  const col = column === 'versionId' ? table.versionId : (table as typeof courseTasks).sectionId;
  const [row] = await db.select({ n: count() }).from(table).where(eq(col, value));
  return row?.n ?? 0;
}

/** The position after the last one: deletions leave gaps, so counting the rows could repeat a position. */
export async function nextPosition(
  db: Db,
  table: typeof courseChapters | typeof courseSections | typeof courseTasks | typeof courseResources,
  where: ReturnType<typeof eq>,
): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`coalesce(max(${table.position}) + 1, 0)`.mapWith(Number) })
    .from(table)
    .where(where);
  return row?.n ?? 0;
}

/** Locks a course's row until the transaction ends: changes of its order wait for each other. */
export async function lockCourse(tx: Db, courseId: string) {
  await tx.select({ id: courses.id }).from(courses).where(eq(courses.id, courseId)).for('update');
}

/** The ids of a version's chapters and sections, the current children an order must name. */
export async function outlineIds(tx: Db, versionId: string) {
  const [chapters, sections] = await Promise.all([
    tx.select({ id: courseChapters.id }).from(courseChapters).where(eq(courseChapters.versionId, versionId)),
    tx.select({ id: courseSections.id }).from(courseSections).where(eq(courseSections.versionId, versionId)),
  ]);
  return { chapterIds: chapters.map((c) => c.id), sectionIds: sections.map((s) => s.id) };
}

/**
 * Writes the positions (and, for sections, the chapters) of many rows in one statement. Positions count within
 * each parent, as `nextPosition` does.
 */
export async function writeOrder(
  tx: Db,
  table: typeof courseChapters | typeof courseSections | typeof courseTasks,
  rows: { id: string; position: number; chapterId?: string }[],
) {
  if (rows.length === 0) return;
  const moves = table === courseSections;
  const values = sql.join(
    rows.map((r) =>
      moves ? sql`(${r.id}::uuid, ${r.position}::int, ${r.chapterId}::uuid)` : sql`(${r.id}::uuid, ${r.position}::int)`,
    ),
    sql`, `,
  );
  await tx.execute(sql`
    update ${table} set position = v.position${moves ? sql`, chapter_id = v.chapter_id` : sql``}
    from (values ${values}) as v(id, position${moves ? sql`, chapter_id` : sql``})
    where ${table.id} = v.id`);
}

/**
 * Copies a version's content into another (a revision starts as a copy of the published version). Resources
 * point at the same stored files; a file is deleted only when no version uses it any more.
 */
export async function copyVersion(tx: Db, courseId: string, fromVersionId: string, toVersionId: string) {
  const tree = await loadVersionTree(tx, fromVersionId);
  for (const chapter of tree.chapters) {
    const chapterId = uuidv7();
    await tx
      .insert(courseChapters)
      .values({ id: chapterId, courseId, versionId: toVersionId, title: chapter.title, position: chapter.position });
    for (const section of chapter.sections) {
      const sectionId = uuidv7();
      await tx.insert(courseSections).values({
        id: sectionId,
        courseId,
        versionId: toVersionId,
        chapterId,
        title: section.title,
        content: section.content,
        aiLinks: section.aiLinks,
        position: section.position,
      });
      if (section.tasks.length > 0) {
        await tx.insert(courseTasks).values(
          section.tasks.map((t) => ({
            courseId,
            versionId: toVersionId,
            sectionId,
            title: t.title,
            questions: t.questions,
            position: t.position,
          })),
        );
      }
      if (section.resources.length > 0) {
        await tx.insert(courseResources).values(
          section.resources.map((r) => ({
            courseId,
            versionId: toVersionId,
            sectionId,
            name: r.name,
            storageKey: r.storageKey,
            size: r.size,
            mime: r.mime,
            position: r.position,
          })),
        );
      }
    }
  }
}

/** Storage keys of a version's resources that no other version uses. */
export async function keysOnlyIn(db: Db, versionId: string): Promise<string[]> {
  const mine = await db
    .select({ key: courseResources.storageKey })
    .from(courseResources)
    .where(eq(courseResources.versionId, versionId));
  if (mine.length === 0) return [];
  const keys = mine.map((m) => m.key);
  const used = await db
    .select({ key: courseResources.storageKey, versionId: courseResources.versionId })
    .from(courseResources)
    .where(inArray(courseResources.storageKey, keys));
  return keys.filter((k) => !used.some((u) => u.key === k && u.versionId !== versionId));
}

/** A version's cover and thumbnail keys that no other version uses (a revision starts with the published cover). */
export async function coverKeysOnlyIn(db: Db, versionId: string): Promise<string[]> {
  const [mine] = await db
    .select({ coverKey: courseVersions.coverKey, thumbKey: courseVersions.thumbKey })
    .from(courseVersions)
    .where(eq(courseVersions.id, versionId));
  const keys = [mine?.coverKey, mine?.thumbKey].filter((k): k is string => Boolean(k));
  if (keys.length === 0) return [];
  const used = await db
    .select({ coverKey: courseVersions.coverKey, thumbKey: courseVersions.thumbKey })
    .from(courseVersions)
    .where(
      and(
        ne(courseVersions.id, versionId),
        or(inArray(courseVersions.coverKey, keys), inArray(courseVersions.thumbKey, keys)),
      ),
    );
  return keys.filter((k) => !used.some((u) => u.coverKey === k || u.thumbKey === k));
}

export async function versionNumber(db: Db, versionId: string | null): Promise<number | null> {
  if (!versionId) return null;
  const [row] = await db
    .select({ n: courseVersions.number })
    .from(courseVersions)
    .where(eq(courseVersions.id, versionId));
  return row?.n ?? null;
}
