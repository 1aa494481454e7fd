import { eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../../platform/db/client.js';
import { courses, courseVersions, users } from '../../platform/db/schema/index.js';
import type { CourseRow } from './course-access.js';
import { userDisplayName } from '../../platform/db/user-name.js';

/** A course's information as one version holds it: learners on that version keep seeing it. */
export interface VersionInfo {
  name: string;
  description: string;
  coverKey: string | null;
  thumbKey: string | null;
  tags: string[];
}

/** The version whose information a list shows; the published version's number is shown beside it. */
export const infoVersion = alias(courseVersions, 'info_version');
export const publishedVersion = alias(courseVersions, 'published_version');

export const infoColumns = {
  name: infoVersion.name,
  description: infoVersion.description,
  coverKey: infoVersion.coverKey,
  thumbKey: infoVersion.thumbKey,
  tags: infoVersion.tags,
};

/** What a course summary is made of: the course, its owner's name, a version number and a version's information. */
export const summaryFields = <N extends typeof infoVersion.number | typeof publishedVersion.number>(number: N) => ({
  course: courses,
  owner: userDisplayName,
  number,
  info: infoColumns,
});

/**
 * Courses with their owner's name, the published version's number and the information of the version authors
 * write (the draft, else the published one). The caller adds `where` and order.
 */
export function selectEditingSummaries(db: Db) {
  return db
    .select(summaryFields(publishedVersion.number))
    .from(courses)
    .innerJoin(users, eq(users.id, courses.ownerId))
    .innerJoin(infoVersion, eq(infoVersion.id, sql`coalesce(${courses.draftVersionId}, ${courses.publishedVersionId})`))
    .leftJoin(publishedVersion, eq(publishedVersion.id, courses.publishedVersionId))
    .$dynamic();
}

/** One course's owner name, published version number and the information of the version named. */
export async function loadSummaryParts(db: Db, course: CourseRow, infoVersionId: string) {
  const [row] = await db
    .select({ owner: userDisplayName, number: publishedVersion.number, info: infoColumns })
    .from(infoVersion)
    .innerJoin(users, eq(users.id, course.ownerId))
    .leftJoin(publishedVersion, sql`${publishedVersion.id} = ${course.publishedVersionId}`)
    .where(eq(infoVersion.id, infoVersionId));
  if (!row) throw new Error(`Course version ${infoVersionId} is missing`);
  return { ownerName: row.owner, versionNumber: row.number, info: row.info };
}
