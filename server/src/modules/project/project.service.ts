import path from 'node:path';
import type { TCreateProjectRequest, TProject, TUpdateProjectRequest } from '@aiedu/contracts';
import { ZCreateProjectRequest } from '@aiedu/contracts';
import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { writeAudit } from '../../platform/audit.js';
import type { AuthContext } from '../../platform/auth/tokens.js';
import type { AppContext } from '../../platform/context.js';
import type { Db } from '../../platform/db/client.js';
import { projectCollaborators, projects, users } from '../../platform/db/schema/index.js';
import { AppError } from '../../platform/errors.js';
import { assertContainerTypeOffered, offeredContainerTypes } from '../runtime/container-offer.js';
import type { RuntimeDriver } from '../runtime/runtime-driver.js';
import { assertQuota, visibleSize } from './file.service.js';
import { loadProjectFor, type ProjectRow } from './project-access.js';
import { projectExtras, type ProjectListRow } from './project.repository.js';
import { removeVersions } from './version.service.js';
import { copyVisible, emptyNotebook, writeFiles, writeNew } from './workspace-files.js';

export const STARTER_NOTEBOOK = 'main.ipynb';

/** Other modules name who may look at a project read-only through this (see `allowProjectReviewers`). */
export { allowProjectReviewers } from './project-access.js';

export function presentProject(
  row: ProjectListRow,
  caller: { userId: string },
  canEdit: boolean,
  reviewing = false,
): TProject {
  const p = row.project;
  return {
    id: p.id,
    ownerId: p.ownerId,
    ownerName: row.ownerName,
    name: p.name,
    description: p.description,
    tags: p.tags,
    access: p.access,
    type: p.type,
    runtimeType: p.runtimeType,
    environment: p.environment,
    framework: p.framework,
    labelFile: p.labelFile,
    courseTag: p.courseTag,
    direction: p.direction,
    studySection: p.studySection,
    tool: p.tool,
    forkedFrom: p.forkedFrom,
    canEdit,
    isOwner: p.ownerId === caller.userId,
    reviewing,
    latestVersion: row.latestVersion,
    forks: row.forks,
    createdAt: p.createdAt.toISOString(),
    updatedAt: p.updatedAt.toISOString(),
  };
}

export async function projectView(
  ctx: AppContext,
  auth: AuthContext,
  project: ProjectRow,
  canEdit: boolean,
  reviewing = false,
) {
  return presentProject({ project, ...(await projectExtras(ctx.db, project)) }, auth, canEdit, reviewing);
}

function checkTags(tags: string[] | undefined) {
  if (tags && new Set(tags.map((t) => t.toLowerCase())).size !== tags.length) throw new AppError('TAG_EXISTS');
}

/**
 * Creates a project with a starter notebook in its workspace, a copy of another project's files, or the `files`
 * given (paths inside the project; a course's starter content). `request` is null for the server's own seeding.
 */
export async function createProject(
  ctx: AppContext,
  driver: RuntimeDriver,
  request: FastifyRequest | null,
  auth: AuthContext,
  input: TCreateProjectRequest,
  copyFrom?: ProjectRow,
  files?: readonly { path: string; content: Buffer | string }[],
): Promise<ProjectRow> {
  const values = ZCreateProjectRequest.parse(input);
  checkTags(values.tags);
  // A type the customer does not offer is refused when asked for; a copy, or a project that named none, takes the
  // first type offered instead.
  const offered = await offeredContainerTypes(ctx.db, auth.customerId);
  if (!offered.includes(values.runtimeType)) {
    if (!copyFrom && input.runtimeType) throw new AppError('CONTAINER_TYPE_NOT_OFFERED', { offered });
    values.runtimeType = offered[0] ?? values.runtimeType;
  }
  const project = await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(projects)
      .values({
        ...values,
        customerId: auth.customerId,
        ownerId: auth.userId,
        forkedFrom: copyFrom?.id ?? null,
        publishedAt: values.access === 'public' ? ctx.now() : null,
      })
      .returning();
    if (request) {
      await writeAudit(tx, request, {
        module: 'project',
        operation: copyFrom ? 'fork' : 'create',
        params: { id: row!.id, name: values.name },
      });
    }
    return row!;
  });
  try {
    const workspace = driver.ensureWorkspace(project);
    if (copyFrom) await copyVisible(driver.workspaceDir(copyFrom), workspace);
    else if (files) await writeFiles(workspace, files);
    else await writeNew(path.join(workspace, STARTER_NOTEBOOK), emptyNotebook());
    driver.claim(project, workspace);
  } catch (error) {
    // Files that could not be written (a full disk, a file the copy cannot take) leave no project behind: an empty
    // or half-copied project would look like the owner's work was lost. The log keeps both steps.
    await driver.remove(project).catch(() => undefined);
    await ctx.db.transaction(async (tx) => {
      await tx.delete(projects).where(eq(projects.id, project.id));
      if (request) {
        await writeAudit(tx, request, {
          module: 'project',
          operation: 'delete',
          params: { id: project.id, reason: 'files not written' },
        });
      }
    });
    throw error;
  }
  return project;
}

/** Changes a project's fields. A public project can never become private again (spec 4). */
export async function updateProject(
  ctx: AppContext,
  request: FastifyRequest,
  project: ProjectRow,
  input: TUpdateProjectRequest,
): Promise<ProjectRow> {
  checkTags(input.tags);
  if (input.access === 'private' && project.publishedAt) throw new AppError('PROJECT_PUBLIC_FINAL');
  if (input.runtimeType && input.runtimeType !== project.runtimeType)
    await assertContainerTypeOffered(ctx.db, project.customerId, input.runtimeType);
  const publishedAt = input.access === 'public' && !project.publishedAt ? ctx.now() : project.publishedAt;
  return ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .update(projects)
      // The form sets public or private: either takes the project out of the group it was shared with.
      .set({ ...input, publishedAt, ...(input.access ? { groupId: null } : {}) })
      .where(eq(projects.id, project.id))
      .returning();
    await writeAudit(tx, request, { module: 'project', operation: 'update', params: { id: project.id, ...input } });
    return row!;
  });
}

export async function deleteProject(
  ctx: AppContext,
  driver: RuntimeDriver,
  request: FastifyRequest | null,
  project: ProjectRow,
) {
  await driver.remove(project);
  await removeVersions(ctx, project.id);
  await ctx.db.transaction(async (tx) => {
    await tx.delete(projects).where(eq(projects.id, project.id));
    if (request) await writeAudit(tx, request, { module: 'project', operation: 'delete', params: { id: project.id } });
  });
}

function copyFields(project: ProjectRow): TCreateProjectRequest {
  return {
    name: project.name,
    description: project.description,
    tags: project.tags,
    access: 'private',
    type: project.type,
    runtimeType: project.runtimeType,
    environment: project.environment,
    framework: project.framework,
    labelFile: project.labelFile,
    courseTag: project.courseTag,
    direction: project.direction,
    studySection: project.studySection,
    tool: project.tool,
  };
}

/**
 * A copy of a project the caller may see, owned by the caller and private. Reviewers only look: no copies. The
 * copied files count for the caller, so they must fit in the caller's storage quota (2003).
 */
export async function forkProject(
  ctx: AppContext,
  driver: RuntimeDriver,
  request: FastifyRequest,
  auth: AuthContext,
  projectId: string,
) {
  const { project, reviewing } = await loadProjectFor(ctx.db, auth, projectId, 'view');
  if (reviewing) throw new AppError('NO_EDIT_PERMISSION');
  await assertQuota(ctx, driver, auth.userId, await visibleSize(driver.workspaceDir(project)));
  return createProject(ctx, driver, request, auth, copyFields(project), project);
}

/**
 * A private copy of a template for `owner`, who need not be able to see the template: the caller (a course handing
 * out an experiment) has checked the right to it. It runs on `db`, so a caller's transaction can include it.
 * Answers null when the template is gone.
 */
export async function copyTemplateFor(
  ctx: AppContext,
  db: Db,
  driver: RuntimeDriver,
  request: FastifyRequest,
  owner: AuthContext,
  templateId: string,
): Promise<{ id: string } | null> {
  const [template] = await db.select().from(projects).where(eq(projects.id, templateId));
  if (!template) return null;
  const copy = await createProject({ ...ctx, db }, driver, request, owner, copyFields(template), template);
  return { id: copy.id };
}

/**
 * Refuses (404) a project the caller may not see as its member or as a public project of their tenant, e.g. as a
 * course's template: what a teacher only reviews is never handed out.
 */
export async function assertProjectVisible(ctx: AppContext, auth: AuthContext, projectId: string) {
  const { reviewing } = await loadProjectFor(ctx.db, auth, projectId, 'view');
  if (reviewing) throw new AppError('NOT_FOUND');
}

export async function listCollaborators(ctx: AppContext, projectId: string) {
  return ctx.db
    .select({ userId: users.id, username: users.username, realName: users.realName })
    .from(projectCollaborators)
    .innerJoin(users, eq(users.id, projectCollaborators.userId))
    .where(eq(projectCollaborators.projectId, projectId));
}

/** Replaces the collaborators with the named users of the same tenant; unknown names answer 404. */
export async function setCollaborators(
  ctx: AppContext,
  request: FastifyRequest,
  project: ProjectRow,
  usernames: string[],
) {
  const wanted = [...new Set(usernames)];
  const found = wanted.length
    ? await ctx.db
        .select({ id: users.id })
        .from(users)
        .where(
          and(
            inArray(users.username, wanted),
            project.customerId ? eq(users.customerId, project.customerId) : isNull(users.customerId),
          ),
        )
    : [];
  if (found.length !== wanted.length) throw new AppError('NOT_FOUND');
  await ctx.db.transaction(async (tx) => {
    await tx.delete(projectCollaborators).where(eq(projectCollaborators.projectId, project.id));
    const rows = found
      .filter((u) => u.id !== project.ownerId)
      .map((u) => ({ projectId: project.id, userId: u.id, customerId: project.customerId }));
    if (rows.length) await tx.insert(projectCollaborators).values(rows);
    await writeAudit(tx, request, {
      module: 'project',
      operation: 'collaborators',
      params: { id: project.id, usernames },
    });
  });
}
