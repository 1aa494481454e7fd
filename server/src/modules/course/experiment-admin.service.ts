import type { TAdminExperiment } from '@aiedu/contracts';
import { sql } from 'drizzle-orm';
import type { AppContext } from '../../platform/context.js';
import { likeText } from '../../platform/db/like.js';
import {
  courses,
  courseTasks,
  courseVersions,
  experimentCopies,
  projects,
  users,
} from '../../platform/db/schema/index.js';

type Row = {
  project_id: string;
  name: string | null;
  owner: string | null;
  courses: { id: string; name: string }[];
  copies: number;
  total: number;
};

/**
 * Every template project an experiment question of a course names (in any version), with its owner, the courses
 * that use it (named by their published version, else their draft) and how many learner copies were made from it;
 * `keyword` matches the project's or a course's name. Newest use first is not kept, so they are sorted by name.
 */
export async function listExperiments(
  ctx: AppContext,
  query: { page: number; size: number; keyword?: string | undefined },
) {
  const keyword = query.keyword ? likeText(query.keyword) : null;
  const result = await ctx.db.execute<Row>(sql`
    with used as (
      select distinct (q->>'projectId')::uuid as project_id, t.course_id
      from ${courseTasks} t, jsonb_array_elements(t.questions) q
      where q->>'type' = 'experiment' and coalesce(q->>'projectId', '') <> ''
    ), named as (
      select u.project_id, c.id as course_id, v.name as course_name
      from used u
      join ${courses} c on c.id = u.course_id
      join ${courseVersions} v on v.id = coalesce(c.published_version_id, c.draft_version_id)
    ), listed as (
      select n.project_id, p.name, o.username as owner,
        json_agg(json_build_object('id', n.course_id, 'name', n.course_name) order by n.course_name) as courses,
        (select count(*)::int from ${experimentCopies} e where e.template_project_id = n.project_id) as copies
      from named n
      left join ${projects} p on p.id = n.project_id
      left join ${users} o on o.id = p.owner_id
      group by n.project_id, p.name, o.username
      having ${keyword}::text is null or p.name ilike ${keyword} or bool_or(n.course_name ilike ${keyword})
    )
    select *, count(*) over ()::int as total from listed
    order by name nulls last, project_id
    limit ${query.size} offset ${(query.page - 1) * query.size}`);
  const rows = (result as unknown as { rows: Row[] }).rows;
  const list: TAdminExperiment[] = rows.map((r) => ({
    projectId: r.project_id,
    name: r.name,
    owner: r.owner,
    courses: r.courses,
    copies: Number(r.copies),
  }));
  return { list, total: rows[0]?.total ?? 0, page: query.page, size: query.size };
}
