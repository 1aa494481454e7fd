import type { TCourseSummary, TQuestion } from '@aiedu/contracts';
import type { FileStorage } from '../../platform/storage/storage.js';
import type { StoredQuestion } from '../../platform/db/schema/index.js';
import type { CourseRow } from './course-access.js';
import type { VersionInfo } from './course-summary.repository.js';

const URL_TTL = 24 * 3600;

/** The state of spec section 4: a published course with a draft is being modified. */
export function courseStatus(course: CourseRow): TCourseSummary['status'] {
  if (course.status === 'published' && course.draftVersionId) return 'modifying';
  return course.status;
}

/** A course with the information of one of its versions (`info`) and the published version's number. */
export function presentSummary(
  storage: FileStorage,
  course: CourseRow,
  extra: { info: VersionInfo; ownerName: string; versionNumber: number | null },
): TCourseSummary {
  const { info } = extra;
  return {
    id: course.id,
    name: info.name,
    description: info.description,
    coverUrl: info.coverKey ? storage.signedUrl(info.coverKey, { expiresInSeconds: URL_TTL }) : null,
    thumbUrl: info.thumbKey ? storage.signedUrl(info.thumbKey, { expiresInSeconds: URL_TTL }) : null,
    publicScope: course.publicScope,
    directionId: course.directionId,
    stageId: course.stageId,
    difficultyId: course.difficultyId,
    tags: info.tags,
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
      ? {
          experiment: {
            linked: Boolean(q.projectId),
            projectId: (q.projectId && copies.get(q.projectId)) || null,
            // Whether a check scores it and which notebook; its tests and solution stay here.
            checked: Boolean(q.check),
            notebook: q.check?.notebook ?? null,
          },
        }
      : {}),
  };
}
