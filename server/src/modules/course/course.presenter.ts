import type { TCourseSummary, TQuestion } from '@aiedu/contracts';
import type { FileStorage } from '../../platform/storage/storage.js';
import type { StoredQuestion } from '../../platform/db/schema/index.js';
import type { CourseRow } from './course-access.js';

const URL_TTL = 24 * 3600;

/** The state of spec section 4: a published course with a draft is being modified. */
export function courseStatus(course: CourseRow): TCourseSummary['status'] {
  if (course.status === 'published' && course.draftVersionId) return 'modifying';
  return course.status;
}

export function presentSummary(
  storage: FileStorage,
  course: CourseRow,
  extra: { ownerName: string; versionNumber: number | null },
): TCourseSummary {
  return {
    id: course.id,
    name: course.name,
    description: course.description,
    coverUrl: course.coverKey ? storage.signedUrl(course.coverKey, { expiresInSeconds: URL_TTL }) : null,
    thumbUrl: course.thumbKey ? storage.signedUrl(course.thumbKey, { expiresInSeconds: URL_TTL }) : null,
    publicScope: course.publicScope,
    directionId: course.directionId,
    stageId: course.stageId,
    difficultyId: course.difficultyId,
    tags: course.tags,
    levels: course.levels as TCourseSummary['levels'],
    status: courseStatus(course),
    takenDown: course.takenDown,
    ownerName: extra.ownerName,
    learners: course.learnerCount,
    versionNumber: extra.versionNumber,
    publishedAt: course.publishedAt?.toISOString() ?? null,
  };
}

/** Questions as stored are the author's; learners get them without answers. */
export function presentQuestion(q: StoredQuestion): TQuestion {
  return q as TQuestion;
}

/** `copies`: the learner's experiment copies by template project. */
export function learnerQuestion(q: StoredQuestion, copies: ReadonlyMap<string, string>) {
  return {
    id: q.id,
    type: q.type,
    prompt: q.prompt,
    ...(q.options ? { options: q.options } : {}),
    ...(q.type === 'experiment'
      ? { experiment: { linked: Boolean(q.projectId), projectId: (q.projectId && copies.get(q.projectId)) || null } }
      : {}),
  };
}
