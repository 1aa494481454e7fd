import { rm } from 'node:fs/promises';
import path from 'node:path';
import { compareVersions, type TCreateVersionRequest, type TFileChange, type TProjectVersion } from '@aiedu/contracts';
import { and, desc, eq, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { writeAudit } from '../../platform/audit.js';
import type { AppContext } from '../../platform/context.js';
import { projectVersions, users } from '../../platform/db/schema/index.js';
import { AppError } from '../../platform/errors.js';
import type { RuntimeDriver } from '../runtime/runtime-driver.js';
import { assertQuota, versionsRoot, visibleSize } from './file.service.js';
import type { ProjectRow } from './project-access.js';
import { clearVisible, copyVisible, fileList } from './workspace-files.js';
import { userDisplayName } from '../../platform/db/user-name.js';

type VersionRow = typeof projectVersions.$inferSelect;

/**
 * Snapshots are kept by the server, outside the runtime's reach: `DATA_DIR/project-versions/<project>/<version>`.
 * They count toward the project owner's storage quota, as its workspace does.
 */
export const versionDir = (ctx: AppContext, projectId: string, versionId: string) =>
  path.join(versionsRoot(ctx, projectId), versionId);

function present(row: VersionRow, createdBy: string): TProjectVersion {
  return {
    id: row.id,
    version: `${row.major}.${row.minor}.${row.revision}`,
    major: row.major,
    minor: row.minor,
    revision: row.revision,
    description: row.description,
    snapshotNo: row.snapshotNo,
    fileCount: row.fileCount,
    createdBy,
    createdAt: row.createdAt.toISOString(),
  };
}

export async function listVersions(ctx: AppContext, projectId: string): Promise<TProjectVersion[]> {
  const rows = await ctx.db
    .select({ version: projectVersions, by: userDisplayName })
    .from(projectVersions)
    .innerJoin(users, eq(users.id, projectVersions.createdBy))
    .where(eq(projectVersions.projectId, projectId))
    .orderBy(desc(projectVersions.major), desc(projectVersions.minor), desc(projectVersions.revision));
  return rows.map((r) => present(r.version, r.by));
}

async function findVersion(ctx: AppContext, projectId: string, versionId: string) {
  const [row] = await ctx.db
    .select()
    .from(projectVersions)
    .where(and(eq(projectVersions.projectId, projectId), eq(projectVersions.id, versionId)));
  if (!row) throw new AppError('NOT_FOUND');
  return row;
}

/**
 * Saves the draft as a new version, which must be larger than the newest one (spec 5). Its copy of the files must
 * fit in the owner's storage quota (2003).
 */
export async function createVersion(
  ctx: AppContext,
  driver: RuntimeDriver,
  request: FastifyRequest,
  project: ProjectRow,
  input: TCreateVersionRequest,
): Promise<TProjectVersion> {
  const [newest] = await ctx.db
    .select()
    .from(projectVersions)
    .where(eq(projectVersions.projectId, project.id))
    .orderBy(desc(projectVersions.major), desc(projectVersions.minor), desc(projectVersions.revision))
    .limit(1);
  if (newest && compareVersions(input, newest) <= 0) throw new AppError('VERSION_NOT_NEWER');
  const [{ next } = { next: 1 }] = await ctx.db
    .select({ next: sql<number>`coalesce(max(${projectVersions.snapshotNo}), 0)::int + 1` })
    .from(projectVersions)
    .where(eq(projectVersions.projectId, project.id));
  const workspace = driver.ensureWorkspace(project);
  const files = await fileList(workspace);
  let bytes = 0;
  for (const file of files.values()) bytes += file.size;
  await assertQuota(ctx, driver, project.ownerId, bytes);
  const row = await ctx.db.transaction(async (tx) => {
    const [inserted] = await tx
      .insert(projectVersions)
      .values({
        ...input,
        projectId: project.id,
        customerId: project.customerId,
        snapshotNo: next,
        fileCount: files.size,
        createdBy: request.auth!.userId,
      })
      .returning();
    await writeAudit(tx, request, {
      module: 'project',
      operation: 'version',
      params: { id: project.id, version: `${input.major}.${input.minor}.${input.revision}` },
    });
    return inserted!;
  });
  try {
    await copyVisible(workspace, versionDir(ctx, project.id, row.id));
  } catch (error) {
    await ctx.db.delete(projectVersions).where(eq(projectVersions.id, row.id));
    throw error;
  }
  return present(row, '');
}

/**
 * Replaces the draft's files with those of a version; the runtime's hidden files stay. A restore that grows the
 * workspace must fit in the owner's storage quota (2003).
 */
export async function restoreVersion(
  ctx: AppContext,
  driver: RuntimeDriver,
  request: FastifyRequest,
  project: ProjectRow,
  versionId: string,
) {
  const version = await findVersion(ctx, project.id, versionId);
  const workspace = driver.ensureWorkspace(project);
  const snapshot = versionDir(ctx, project.id, version.id);
  const [incoming, replaced] = await Promise.all([visibleSize(snapshot), visibleSize(workspace)]);
  if (incoming > replaced) await assertQuota(ctx, driver, project.ownerId, incoming, replaced);
  await clearVisible(workspace);
  await copyVisible(snapshot, workspace);
  driver.claim(project, workspace);
  await ctx.db.transaction((tx) =>
    writeAudit(tx, request, { module: 'project', operation: 'restore', params: { id: project.id, versionId } }),
  );
}

/** The file lists of two versions (or the draft) side by side. */
export async function compareFileLists(
  ctx: AppContext,
  driver: RuntimeDriver,
  project: ProjectRow,
  from: string,
  to: string,
): Promise<TFileChange[]> {
  const folder = async (ref: string) =>
    ref === 'draft'
      ? driver.ensureWorkspace(project)
      : versionDir(ctx, project.id, (await findVersion(ctx, project.id, ref)).id);
  const a = await fileList(await folder(from));
  const b = await fileList(await folder(to));
  const paths = [...new Set([...a.keys(), ...b.keys()])].sort();
  return paths.map((p) => {
    const x = a.get(p);
    const y = b.get(p);
    const change = !x ? 'added' : !y ? 'removed' : x.hash === y.hash ? 'same' : 'changed';
    return { path: p, change, fromSize: x?.size ?? null, toSize: y?.size ?? null };
  });
}

export async function removeVersions(ctx: AppContext, projectId: string) {
  await rm(versionsRoot(ctx, projectId), { recursive: true, force: true });
}
