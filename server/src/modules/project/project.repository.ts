import type { TProjectListQuery } from '@aiedu/contracts';
import { and, asc, count, desc, eq, ilike, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import { preparedStatement, preparedStatements } from '../../platform/db/prepared.js';
import { projectCollaborators, projects, users } from '../../platform/db/schema/index.js';
import type { ProjectRow } from './project-access.js';
import { likeText } from '../../platform/db/like.js';
import { userDisplayName } from '../../platform/db/user-name.js';

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

/** The filters a list query gives, as placeholders: which are given makes the statement's shape. */
const FILTERS = {
  keyword: () =>
    or(ilike(projects.name, sql.placeholder('keyword')), ilike(projects.description, sql.placeholder('keyword')))!,
  tag: () => sql`${sql.placeholder('tag')} = any(${projects.tags})`,
  type: () => eq(projects.type, sql.placeholder('type')),
  direction: () => eq(projects.direction, sql.placeholder('direction')),
  runtimeType: () => eq(projects.runtimeType, sql.placeholder('runtimeType')),
} as const;
type Filter = keyof typeof FILTERS;

interface ListShape {
  scope: 'public' | 'mine';
  publicSpace: boolean;
  filters: Filter[];
  sort: string;
}

function whereOf(shape: ListShape): SQL | undefined {
  const userId = sql.placeholder('userId');
  const shared = sql`select ${projectCollaborators.projectId} from ${projectCollaborators} where ${projectCollaborators.userId} = ${userId}`;
  const visibility =
    shape.scope === 'public'
      ? eq(projects.access, 'public')
      : or(eq(projects.ownerId, userId), sql`${projects.id} in (${shared})`);
  const tenant = shape.publicSpace
    ? isNull(projects.customerId)
    : eq(projects.customerId, sql.placeholder('customerId'));
  return and(tenant, visibility, ...shape.filters.map((filter) => FILTERS[filter]()));
}

/** A page of projects with their owner, forks, latest version and the total, for one shape of the query. */
const projectPage = preparedStatements((db, name, key) => {
  const shape = JSON.parse(key) as ListShape;
  const [field, direction] = shape.sort.split(',') as [keyof typeof SORTS, string];
  const order = direction === 'asc' ? asc(SORTS[field]) : desc(SORTS[field]);
  return db
    .select({
      project: projects,
      ownerName: userDisplayName,
      forks: sql<number>`(select count(*)::int from projects f where f.forked_from = ${projects.id})`,
      latestVersion: sql<string | null>`(select v.major || '.' || v.minor || '.' || v.revision from project_versions v
        where v.project_id = ${projects.id} order by v.major desc, v.minor desc, v.revision desc limit 1)`,
      // The total comes with the page, counted before the page is cut: one statement instead of two.
      total: sql<number>`count(*) over ()`.mapWith(Number),
    })
    .from(projects)
    .innerJoin(users, eq(users.id, projects.ownerId))
    .where(whereOf(shape))
    .orderBy(order, desc(projects.id))
    .limit(sql.placeholder('limit'))
    .offset(sql.placeholder('offset'))
    .prepare(name);
});

/** The total alone, for a page past the end (no row carries it). */
const projectCount = preparedStatements((db, name, key) =>
  db
    .select({ n: count() })
    .from(projects)
    .where(whereOf(JSON.parse(key) as ListShape))
    .prepare(name),
);

/** One page of projects of the caller's tenant: the public channel, or the caller's own and shared ones. */
export async function listProjects(
  db: Db,
  caller: { userId: string; customerId: string | null },
  scope: 'public' | 'mine',
  query: TProjectListQuery,
) {
  const { page, size } = query;
  const given = (Object.keys(FILTERS) as Filter[]).filter((filter) => Boolean(query[filter]));
  // The sort is one of the few the query schema lets through, so the shapes stay few.
  const sort = query.sort ?? 'updatedAt,desc';
  const key = JSON.stringify({ scope, publicSpace: caller.customerId === null, filters: given, sort });
  const values = {
    userId: caller.userId,
    customerId: caller.customerId,
    keyword: query.keyword ? likeText(query.keyword) : null,
    tag: query.tag ?? null,
    type: query.type ?? null,
    direction: query.direction ?? null,
    runtimeType: query.runtimeType ?? null,
    limit: size,
    offset: (page - 1) * size,
  };
  const rows = await projectPage(db, key).execute(values);
  const total =
    rows.length > 0 || page === 1 ? (rows[0]?.total ?? 0) : ((await projectCount(db, key).execute(values))[0]?.n ?? 0);
  const list: ProjectListRow[] = rows.map(({ total: _total, ...row }) => row);
  return { list, total, page, size };
}

/** A project's owner name, fork count and latest version, in one statement: every project page shows them. */
const extrasOf = preparedStatement((db, name) =>
  db
    .select({
      ownerName: userDisplayName,
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
