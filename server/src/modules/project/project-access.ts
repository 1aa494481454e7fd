import { and, eq, isNull, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { requireAuth } from '../../platform/auth/auth-guard.js';
import type { AuthContext } from '../../platform/auth/tokens.js';
import type { Db } from '../../platform/db/client.js';
import { preparedStatement } from '../../platform/db/prepared.js';
import { projectCollaborators, projects } from '../../platform/db/schema/index.js';
import { AppError } from '../../platform/errors.js';
import { isUuid } from '../../platform/ids.js';

export type ProjectRow = typeof projects.$inferSelect;
export type ProjectNeed = 'view' | 'edit' | 'own';
export type ProjectAccess = Awaited<ReturnType<typeof loadProjectFor>>;

/** Projects live in one tenant: the caller's customer, or the public space (no customer). */
export function sameTenant(customerId: string | null) {
  return customerId ? eq(projects.customerId, customerId) : isNull(projects.customerId);
}

/**
 * Whether a caller who is neither a member of a project nor allowed to see it as public may still look at it,
 * read-only: a course's teachers reviewing the copies their learners made of an experiment. The course module
 * registers its check here, so the project module never reads another module's tables.
 */
export type ReviewCheck = (db: Db, auth: AuthContext, projectId: string) => Promise<boolean>;
const reviewChecks = new Set<ReviewCheck>();

export function allowProjectReviewers(check: ReviewCheck) {
  reviewChecks.add(check);
}

/**
 * Whether a user belongs to a group (one that is not dismissed): the members of the group a project is shared with
 * may view and fork it, in any tenant. The group module registers its check here; access is computed on every
 * request, so leaving a group, being removed or the group's dismissal take access away at once.
 */
export type GroupMembershipCheck = (db: Db, userId: string, groupId: string) => Promise<boolean>;
let groupMembership: GroupMembershipCheck = async () => false;

export function allowProjectGroupMembers(check: GroupMembershipCheck) {
  groupMembership = check;
}

async function mayReview(db: Db, auth: AuthContext, projectId: string) {
  for (const check of reviewChecks) if (await check(db, auth, projectId)) return true;
  return false;
}

/** A project with whether the caller collaborates on it: the first read of every project route. */
const projectWithCollaborator = preparedStatement((db, name) =>
  db
    .select({ project: projects, collaborator: projectCollaborators.userId })
    .from(projects)
    .leftJoin(
      projectCollaborators,
      and(eq(projectCollaborators.projectId, projects.id), eq(projectCollaborators.userId, sql.placeholder('userId'))),
    )
    .where(eq(projects.id, sql.placeholder('projectId')))
    .prepare(name),
);

/**
 * The project when the caller may do what they need: owners may do everything; collaborators view and edit;
 * anyone of the same tenant may view a public project; a member of the group it is shared with (see
 * `allowProjectGroupMembers`) and a reviewer (see `allowProjectReviewers`) may view it, in any tenant. Another tenant's project, or a private one the caller is not part of, answers 404, so its
 * existence never leaks; a visible project the caller may not change answers 1007.
 */
export async function loadProjectFor(db: Db, auth: AuthContext, projectId: string, need: ProjectNeed) {
  if (!isUuid(projectId)) throw new AppError('NOT_FOUND');
  const [row] = await projectWithCollaborator(db).execute({ projectId, userId: auth.userId });
  if (!row) throw new AppError('NOT_FOUND');
  const inTenant = row.project.customerId === auth.customerId;
  const isOwner = inTenant && row.project.ownerId === auth.userId;
  const canEdit = isOwner || (inTenant && row.collaborator !== null);
  const grouped =
    !canEdit &&
    row.project.access === 'group' &&
    row.project.groupId !== null &&
    (await groupMembership(db, auth.userId, row.project.groupId));
  const reviewing = !canEdit && !grouped && (await mayReview(db, auth, projectId));
  const canView = canEdit || reviewing || grouped || (inTenant && row.project.access === 'public');
  if (!canView) throw new AppError('NOT_FOUND');
  if (need === 'edit' && !canEdit) throw new AppError('NO_EDIT_PERMISSION');
  if (need === 'own' && !isOwner) throw new AppError('NO_EDIT_PERMISSION');
  return { project: row.project, isOwner, canEdit, reviewing };
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** What the caller must be allowed on the project named by `:id`; checked before the body is validated. */
    project?: ProjectNeed;
  }
  interface FastifyRequest {
    /** The project of a route declared with `config.project`, once the caller's access is checked. */
    projectAccess: ProjectAccess | null;
  }
}

/**
 * Routes declare `config: { auth: 'required', project: 'view' | 'edit' | 'own' }`; the project is loaded and the
 * caller's access checked in one place, before anything of the request is looked at.
 */
export function registerProjectGuard(app: FastifyInstance, db: Db) {
  app.decorateRequest('projectAccess', null);
  app.addHook('preValidation', async (request) => {
    const need = request.routeOptions.config.project;
    if (!need) return;
    const { id } = request.params as { id?: string };
    request.projectAccess = await loadProjectFor(db, requireAuth(request), id ?? '', need);
  });
}

/** The checked project of a route declared with `config.project`. */
export function projectOf(request: FastifyRequest) {
  if (!request.projectAccess) throw new AppError('NOT_FOUND');
  return request.projectAccess;
}
