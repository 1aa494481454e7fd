import type { TProjectListQuery } from '@aiedu/contracts';
import { and, asc, count, desc, eq, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import { preparedStatement } from '../../platform/db/prepared.js';
import { projectCollaborators, projects, users } from '../../platform/db/schema/index.js';
import { sameTenant, type ProjectRow } from './project-access.js';
import { likeText } from '../../platform/db/like.js';

const SORTS = {
  updatedAt: projects.updatedAt,
  createdAt: projects.createdAt,
  name: projects.name,
  forks: sql`(select count(*) from projects f where f.forked_from = ${projects.id})`,
} as const;

export interface ProjectListRow {
  project: ProjectRow;
  ownerName: string;
  forks: number;
  latestVersion: string | null;
}

function filters(query: TProjectListQuery): SQL[] {
  const where: SQL[] = [];
  if (query.keyword)
    where.push(
      or(ilike(projects.name, likeText(query.keyword)), ilike(projects.description, likeText(query.keyword)))!,
    );
  if (query.tag) where.push(sql`${query.tag} = any(${projects.tags})`);
  if (query.type) where.push(eq(projects.type, query.type));
  if (query.direction) where.push(eq(projects.direction, query.direction));
  if (query.runtimeType) where.push(eq(projects.runtimeType, query.runtimeType));
  return where;
}

/** One page of projects of the caller's tenant: the public channel, or the caller's own and shared ones. */
export async function listProjects(
  db: Db,
  caller: { userId: string; customerId: string | null },
  scope: 'public' | 'mine',
  query: TProjectListQuery,
) {
  const { page, size } = query;
  const shared = db
    .select({ id: projectCollaborators.projectId })
    .from(projectCollaborators)
    .where(eq(projectCollaborators.userId, caller.userId));
  const visibility =
    scope === 'public'
      ? eq(projects.access, 'public')
      : or(eq(projects.ownerId, caller.userId), inArray(projects.id, shared));
  const where = and(sameTenant(caller.customerId), visibility, ...filters(query));
  const [field, direction] = (query.sort ?? 'updatedAt,desc').split(',') as [keyof typeof SORTS, string];
  const order = direction === 'asc' ? asc(SORTS[field]) : desc(SORTS[field]);
  const rows = await db
    .select({
      project: projects,
      ownerName: sql<string>`coalesce(nullif(${users.realName}, ''), ${users.username})`,
      forks: sql<number>`(select count(*)::int from projects f where f.forked_from = ${projects.id})`,
      latestVersion: sql<string | null>`(select v.major || '.' || v.minor || '.' || v.revision from project_versions v
        where v.project_id = ${projects.id} order by v.major desc, v.minor desc, v.revision desc limit 1)`,
      // The total comes with the page, counted before the page is cut: one statement instead of two.
      total: sql<number>`count(*) over ()`.mapWith(Number),
    })
    .from(projects)
    .innerJoin(users, eq(users.id, projects.ownerId))
    .where(where)
    .orderBy(order, desc(projects.id))
    .limit(size)
    .offset((page - 1) * size);
  // A page past the end has no row to carry the total.
  const total =
    rows.length > 0 || page === 1
      ? (rows[0]?.total ?? 0)
      : ((await db.select({ n: count() }).from(projects).where(where))[0]?.n ?? 0);
  const list: ProjectListRow[] = rows.map(({ total: _total, ...row }) => row);
  return { list, total, page, size };
}

/** A project's owner name, fork count and latest version, in one statement: every project page shows them. */
const extrasOf = preparedStatement((db, name) =>
  db
    .select({
      ownerName: sql<string>`coalesce(nullif(${users.realName}, ''), ${users.username})`,
      forks: sql<number>`(select count(*)::int from projects f where f.forked_from = ${sql.placeholder('projectId')})`,
      latestVersion: sql<string | null>`(select v.major || '.' || v.minor || '.' || v.revision from project_versions v
        where v.project_id = ${sql.placeholder('projectId')} order by v.major desc, v.minor desc, v.revision desc limit 1)`,
    })
    .from(users)
    .where(eq(users.id, sql.placeholder('ownerId')))
    .prepare(name),
);

export async function projectExtras(db: Db, project: ProjectRow) {
  const [extras] = await extrasOf(db).execute({ projectId: project.id, ownerId: project.ownerId });
  return {
    ownerName: extras?.ownerName ?? '',
    forks: Number(extras?.forks ?? 0),
    latestVersion: extras?.latestVersion ?? null,
  };
}
