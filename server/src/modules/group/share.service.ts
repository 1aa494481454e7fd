import type { TGroupCourse, TGroupProject } from '@aiedu/contracts';
import type { FastifyRequest } from 'fastify';
import { writeAudit } from '../../platform/audit.js';
import type { AuthContext } from '../../platform/auth/tokens.js';
import type { AppContext } from '../../platform/context.js';
import type { Db } from '../../platform/db/client.js';
import { AppError } from '../../platform/errors.js';
import {
  groupCourseOwner,
  listGroupCourses,
  releaseGroupCourses,
  shareCourseWithGroup,
} from '../course/course-groups.js';
import {
  groupProjectOwner,
  listGroupProjects,
  releaseGroupProjects,
  shareProjectWithGroup,
} from '../project/project-groups.js';
import type { GroupAccess } from './group-access.js';

type PageQuery = { page: number; size: number; keyword?: string | undefined };

/** Whether the caller may take something out of the group: its owner, or the group's owner. */
const mayUnshare = (access: GroupAccess, auth: AuthContext, ownerId: string) =>
  access.role === 'owner' || ownerId === auth.userId;

export async function listSharedProjects(ctx: AppContext, auth: AuthContext, access: GroupAccess, query: PageQuery) {
  const { rows, total } = await listGroupProjects(ctx.db, access.group.id, query);
  const list: TGroupProject[] = rows.map(({ total: _total, ...r }) => ({
    ...r,
    updatedAt: r.updatedAt.toISOString(),
    canUnshare: mayUnshare(access, auth, r.ownerId),
  }));
  return { list, total, page: query.page, size: query.size };
}

export async function listSharedCourses(ctx: AppContext, auth: AuthContext, access: GroupAccess, query: PageQuery) {
  const { rows, total } = await listGroupCourses(ctx.db, ctx.storage, access.group.id, query);
  const list: TGroupCourse[] = rows.map((r) => ({
    ...r,
    updatedAt: r.updatedAt.toISOString(),
    canUnshare: mayUnshare(access, auth, r.ownerId),
  }));
  return { list, total, page: query.page, size: query.size };
}

/** A member shares a project they own with the group: its members may then view and fork it. */
export async function shareProject(
  ctx: AppContext,
  request: FastifyRequest,
  auth: AuthContext,
  access: GroupAccess,
  projectId: string,
) {
  await ctx.db.transaction(async (tx) => {
    await shareProjectWithGroup(tx as unknown as Db, auth, projectId, access.group.id);
    await writeAudit(tx, request, {
      module: 'group',
      operation: 'shareProject',
      params: { id: access.group.id, projectId },
    });
  });
}

/** The project's owner or the group's owner takes a project out of the group: it is private again. */
export async function unshareProject(
  ctx: AppContext,
  request: FastifyRequest,
  auth: AuthContext,
  access: GroupAccess,
  projectId: string,
) {
  const ownerId = await groupProjectOwner(ctx.db, projectId, access.group.id);
  if (!ownerId) throw new AppError('NOT_FOUND');
  if (!mayUnshare(access, auth, ownerId)) throw new AppError('NO_EDIT_PERMISSION');
  await ctx.db.transaction(async (tx) => {
    await releaseGroupProjects(tx as unknown as Db, access.group.id, { projectId });
    await writeAudit(tx, request, {
      module: 'group',
      operation: 'unshareProject',
      params: { id: access.group.id, projectId },
    });
  });
}

/** A member shares a course they own with the group: its members may then find, join and learn it. */
export async function shareCourse(
  ctx: AppContext,
  request: FastifyRequest,
  auth: AuthContext,
  access: GroupAccess,
  courseId: string,
) {
  await ctx.db.transaction(async (tx) => {
    await shareCourseWithGroup(tx as unknown as Db, auth, courseId, access.group.id);
    await writeAudit(tx, request, {
      module: 'group',
      operation: 'shareCourse',
      params: { id: access.group.id, courseId },
    });
  });
}

/** The course's owner or the group's owner takes a course out of the group: it is private again. */
export async function unshareCourse(
  ctx: AppContext,
  request: FastifyRequest,
  auth: AuthContext,
  access: GroupAccess,
  courseId: string,
) {
  const ownerId = await groupCourseOwner(ctx.db, courseId, access.group.id);
  if (!ownerId) throw new AppError('NOT_FOUND');
  if (!mayUnshare(access, auth, ownerId)) throw new AppError('NO_EDIT_PERMISSION');
  await ctx.db.transaction(async (tx) => {
    await releaseGroupCourses(tx as unknown as Db, access.group.id, { courseId });
    await writeAudit(tx, request, {
      module: 'group',
      operation: 'unshareCourse',
      params: { id: access.group.id, courseId },
    });
  });
}
