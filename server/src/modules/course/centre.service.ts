import { ROLES, type TCourseDetail } from '@aiedu/contracts';
import type { z } from 'zod';
import type { ZCentreQuery } from '@aiedu/contracts';
import { and, asc, desc, eq, ilike, or, sql, type SQL } from 'drizzle-orm';
import type { AuthContext } from '../../platform/auth/tokens.js';
import type { AppContext } from '../../platform/context.js';
import { coursePackages, courses, learningRecords, users } from '../../platform/db/schema/index.js';
import { loadCatalogue } from './catalogue-cache.js';
import { centrePage } from './centre-cache.js';
import { loadForLearner } from './course-access.js';
import { infoVersion, summaryFields } from './course-summary.repository.js';
import { presentSummary } from './course.presenter.js';
import { likeText } from '../../platform/db/like.js';
import { preparedStatement } from '../../platform/db/prepared.js';

/** Published, open courses the caller may find: public ones, their customer's, and their course packages'. */
export function discoverableWhere(auth: AuthContext | null): SQL {
  const open = and(eq(courses.status, 'published'), eq(courses.takenDown, false))!;
  if (auth?.roles.includes(ROLES.super)) return and(open, sql`${courses.publicScope} <> 'private'`)!;
  const visible: SQL[] = [eq(courses.publicScope, 'public')];
  if (auth?.customerId) {
    visible.push(and(eq(courses.publicScope, 'customer'), eq(courses.customerId, auth.customerId))!);
    visible.push(
      sql`exists (select 1 from ${coursePackages} where ${courses.id} = any(${coursePackages.courseIds}) and ${auth.customerId}::uuid = any(${coursePackages.customerIds}))`,
    );
  }
  return and(open, or(...visible))!;
}

const SORTS = {
  'publishedAt,desc': [desc(courses.publishedAt), desc(courses.id)],
  'learners,desc': [desc(courses.learnerCount), desc(courses.id)],
  'name,asc': [asc(infoVersion.name), asc(courses.id)],
} as const;

/**
 * The course centre and course list: filters, text search, sort, one page. Name, description and tags are the
 * published version's, the information new learners get. The page's ids and the total are found on the courses
 * alone (their published version joins only to filter or sort by it); owners and information are read for the
 * page's rows only.
 */
/**
 * A page of the course centre as its answer's JSON (`serialize` makes it from the page), kept as that: a kept page
 * costs a visitor neither a query nor serialising.
 */
export function centreJson(
  ctx: AppContext,
  auth: AuthContext | null,
  query: z.output<typeof ZCentreQuery>,
  serialize: (page: Awaited<ReturnType<typeof readCentre>>) => string,
): Promise<string> {
  // What a caller may find depends only on being a super administrator, their customer, or neither.
  const scope = auth?.roles.includes(ROLES.super) ? 'super' : (auth?.customerId ?? 'visitor');
  return centrePage(ctx.db, `${scope}\n${JSON.stringify(query)}`, ctx.config.courseCentreCacheSeconds, async () =>
    serialize(await readCentre(ctx, auth, query)),
  );
}

async function readCentre(ctx: AppContext, auth: AuthContext | null, query: z.output<typeof ZCentreQuery>) {
  const where = and(
    discoverableWhere(auth),
    query.directionId ? eq(courses.directionId, query.directionId) : undefined,
    query.stageId ? eq(courses.stageId, query.stageId) : undefined,
    query.difficultyId ? eq(courses.difficultyId, query.difficultyId) : undefined,
    query.level ? sql`${query.level} = any(${courses.levels})` : undefined,
    query.tag ? sql`${query.tag} = any(${infoVersion.tags})` : undefined,
    query.keyword
      ? or(ilike(infoVersion.name, likeText(query.keyword)), ilike(infoVersion.description, likeText(query.keyword)))
      : undefined,
  );
  const byInfo = Boolean(query.tag || query.keyword || query.sort === 'name,asc');
  let ids = ctx.db
    .select({ id: courses.id, total: sql<number>`count(*) over ()`.as('total') })
    .from(courses)
    .$dynamic();
  if (byInfo) ids = ids.innerJoin(infoVersion, eq(infoVersion.id, courses.publishedVersionId));
  const page = ids
    .where(where)
    .orderBy(...SORTS[query.sort])
    .limit(query.size)
    .offset((query.page - 1) * query.size)
    .as('centre_page');
  const rows = await ctx.db
    .select({ ...summaryFields(infoVersion.number), total: page.total })
    .from(page)
    .innerJoin(courses, eq(courses.id, page.id))
    .innerJoin(users, eq(users.id, courses.ownerId))
    .innerJoin(infoVersion, eq(infoVersion.id, courses.publishedVersionId))
    .orderBy(...SORTS[query.sort]);
  return {
    list: rows.map((r) =>
      presentSummary(ctx.storage, r.course, { info: r.info, ownerName: r.owner, versionNumber: r.number }),
    ),
    total: Number(rows[0]?.total ?? 0),
    page: query.page,
    size: query.size,
  };
}

const learnerRecords = preparedStatement((db, name) =>
  db
    .select()
    .from(learningRecords)
    .where(
      and(
        eq(learningRecords.courseId, sql.placeholder('courseId')),
        eq(learningRecords.userId, sql.placeholder('userId')),
      ),
    )
    .prepare(name),
);

/** Completed and visited sections of one learner in one course. */
export function recordsOf(ctx: AppContext, courseId: string, userId: string) {
  return learnerRecords(ctx.db).execute({ courseId, userId });
}

/**
 * Course detail with the catalogue of the version the caller learns, and their progress in it. Its name, cover
 * and tags are that version's too: a learner on version 1 sees version 1's until the teacher moves them.
 */
export async function getCourseDetail(
  ctx: AppContext,
  auth: AuthContext | null,
  courseId: string,
): Promise<TCourseDetail> {
  const { course, role, enrolment, ownerName, publishedNumber } = await loadForLearner(ctx.db, auth, courseId);
  const versionId = enrolment?.versionId ?? course.publishedVersionId ?? course.draftVersionId!;
  const [version, records] = await Promise.all([
    loadCatalogue(ctx.db, versionId),
    enrolment && auth ? recordsOf(ctx, course.id, auth.userId) : Promise.resolve([]),
  ]);
  const byId = new Map(records.map((r) => [r.sectionId, r]));
  const sections = version.chapters.flatMap((c) => c.sections);
  const done = sections.filter((s) => byId.get(s.id)?.completedAt).length;
  return {
    ...presentSummary(ctx.storage, course, { info: version.info, ownerName, versionNumber: publishedNumber }),
    enrolled: Boolean(enrolment),
    canEdit: Boolean(role),
    learnerVersionNumber: version.number,
    progress: sections.length ? Math.round((100 * done) / sections.length) : 0,
    catalogue: version.chapters.map((c) => ({
      id: c.id,
      title: c.title,
      sections: c.sections.map((s) => {
        const record = byId.get(s.id);
        return {
          id: s.id,
          title: s.title,
          taskCount: s.taskCount,
          visited: Boolean(record),
          completed: Boolean(record?.completedAt),
        };
      }),
    })),
  };
}
