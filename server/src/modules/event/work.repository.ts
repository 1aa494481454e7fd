import type { TWork, WorkState } from '@aiedu/contracts';
import { and, asc, count, desc, eq, ilike, or, sql, type SQL } from 'drizzle-orm';
import type { AppContext } from '../../platform/context.js';
import type { Db } from '../../platform/db/client.js';
import { eventRegistrations, eventWorks, projects, projectVersions, schools } from '../../platform/db/schema/index.js';
import { AppError } from '../../platform/errors.js';

export type WorkRow = typeof eventWorks.$inferSelect;

/** How long a link to an event file (a cover, the judges' manual) stays valid. */
const LINK_SECONDS = 6 * 3600;

/** A signed link to a stored event file, or null without one. */
export const fileUrl = (ctx: AppContext, key: string | null) =>
  key ? ctx.storage.signedUrl(key, { expiresInSeconds: LINK_SECONDS }) : null;

export async function findWork(db: Db, workId: string): Promise<WorkRow> {
  const [row] = await db.select().from(eventWorks).where(eq(eventWorks.id, workId));
  if (!row) throw new AppError('NOT_FOUND');
  return row;
}

const selection = {
  work: eventWorks,
  teamName: eventRegistrations.teamName,
  schoolName: sql<string>`coalesce(${schools.name}, '')`,
  projectName: projects.name,
  major: projectVersions.major,
  minor: projectVersions.minor,
  revision: projectVersions.revision,
};

function joined(db: Db) {
  return db
    .select(selection)
    .from(eventWorks)
    .innerJoin(eventRegistrations, eq(eventRegistrations.id, eventWorks.registrationId))
    .leftJoin(schools, eq(schools.id, eventRegistrations.schoolId))
    .leftJoin(projects, eq(projects.id, eventWorks.projectId))
    .leftJoin(projectVersions, eq(projectVersions.id, eventWorks.projectVersionId));
}

type Joined = Awaited<ReturnType<ReturnType<typeof joined>['where']>>[number];

function present(ctx: AppContext, row: Joined): TWork {
  const w = row.work;
  return {
    id: w.id,
    eventId: w.eventId,
    registrationId: w.registrationId,
    teamName: row.teamName,
    schoolName: row.schoolName,
    trackId: w.trackId,
    name: w.name,
    description: w.description,
    tags: w.tags,
    link: w.link,
    coverUrl: fileUrl(ctx, w.coverKey),
    coverKey: w.coverKey,
    hasVideo: w.videoKey !== null,
    videoKey: w.videoKey,
    videoUrl: fileUrl(ctx, w.videoKey),
    projectId: w.projectId,
    projectName: row.projectName ?? null,
    projectVersion: row.major === null ? null : `${row.major}.${row.minor}.${row.revision}`,
    state: w.state,
    failReason: w.failReason,
    judgeGroup: w.judgeGroup,
    reviewRound: w.reviewRound,
    score: w.score,
    rank: w.rank,
    award: w.award,
    submittedAt: w.submittedAt?.toISOString() ?? null,
    updatedAt: w.updatedAt.toISOString(),
  };
}

export async function workViews(ctx: AppContext, where: SQL | undefined): Promise<TWork[]> {
  const rows = await joined(ctx.db).where(where).orderBy(desc(eventWorks.createdAt), asc(eventWorks.id));
  return rows.map((row) => present(ctx, row));
}

export async function workView(ctx: AppContext, workId: string): Promise<TWork> {
  const [view] = await workViews(ctx, eq(eventWorks.id, workId));
  if (!view) throw new AppError('NOT_FOUND');
  return view;
}

export async function pageOfWorks(
  ctx: AppContext,
  query: {
    eventId: string;
    state?: WorkState | undefined;
    trackId?: string | undefined;
    keyword?: string | undefined;
    page: number;
    size: number;
  },
) {
  const pattern = query.keyword ? `%${query.keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
  const where = and(
    eq(eventWorks.eventId, query.eventId),
    query.state ? eq(eventWorks.state, query.state) : undefined,
    query.trackId ? eq(eventWorks.trackId, query.trackId) : undefined,
    pattern ? or(ilike(eventWorks.name, pattern), ilike(eventRegistrations.teamName, pattern)) : undefined,
  );
  const [rows, [total]] = await Promise.all([
    joined(ctx.db)
      .where(where)
      .orderBy(desc(eventWorks.createdAt), asc(eventWorks.id))
      .limit(query.size)
      .offset((query.page - 1) * query.size),
    ctx.db
      .select({ n: count() })
      .from(eventWorks)
      .innerJoin(eventRegistrations, eq(eventRegistrations.id, eventWorks.registrationId))
      .where(where),
  ]);
  return { list: rows.map((row) => present(ctx, row)), total: total?.n ?? 0, page: query.page, size: query.size };
}
