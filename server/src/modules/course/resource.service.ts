import { RESOURCE_PREVIEW_LIMITS } from '@aiedu/contracts';
import { eq } from 'drizzle-orm';
import type { AuthContext } from '../../platform/auth/tokens.js';
import type { AppContext } from '../../platform/context.js';
import { courseResources } from '../../platform/db/schema/index.js';
import { AppError } from '../../platform/errors.js';
import { loadForLearner } from './course-access.js';

/** Files over the preview limits are offered for download only (spec section 5). */
export function mayPreview(mime: string, size: number): boolean {
  if (mime.startsWith('video/')) return size <= RESOURCE_PREVIEW_LIMITS.videoBytes;
  if (mime.startsWith('audio/')) return size <= RESOURCE_PREVIEW_LIMITS.audioBytes;
  return size <= RESOURCE_PREVIEW_LIMITS.otherBytes;
}

/** A signed address of a resource of the caller's version (or any version for the course's authors). */
export async function resourceUrl(ctx: AppContext, auth: AuthContext, resourceId: string) {
  const [resource] = await ctx.db.select().from(courseResources).where(eq(courseResources.id, resourceId));
  if (!resource) throw new AppError('NOT_FOUND');
  const { role, enrolment } = await loadForLearner(ctx.db, auth, resource.courseId);
  if (!role) {
    if (!enrolment) throw new AppError('COURSE_NOT_JOINED');
    if (enrolment.versionId !== resource.versionId) throw new AppError('NOT_FOUND');
  }
  return signedResource(ctx, resource);
}

/**
 * Signed addresses of a resource of one of `versionIds`, for a reader the caller has checked (a teaching
 * schedule's teacher, for the versions it pins); any other resource is not found.
 */
export async function resourceOfVersions(ctx: AppContext, resourceId: string, versionIds: string[]) {
  const [resource] = await ctx.db.select().from(courseResources).where(eq(courseResources.id, resourceId));
  if (!resource || !versionIds.includes(resource.versionId)) throw new AppError('NOT_FOUND');
  return signedResource(ctx, resource);
}

function signedResource(ctx: AppContext, resource: typeof courseResources.$inferSelect) {
  const link = { expiresInSeconds: 6 * 3600, fileName: resource.name };
  return {
    url: ctx.storage.signedUrl(resource.storageKey, link),
    // A browser keeps an anchor's `download` name only for its own origin, not once a bucket answers the link.
    downloadUrl: ctx.storage.signedUrl(resource.storageKey, { ...link, attachment: true }),
    preview: mayPreview(resource.mime, resource.size),
    mime: resource.mime,
    name: resource.name,
    size: resource.size,
  };
}
