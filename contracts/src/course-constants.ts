/**
 * The courses' constants: their states, scopes, sorts, limits and API paths. Kept apart from the schemas
 * (course.ts), so a page that needs only these does not load the schema library.
 */

/** Suitable levels of a course (spec section 3). */
export const COURSE_LEVELS = ['any', 'grade1_3', 'grade4_6', 'junior', 'senior'] as const;
/** Who finds a published course in the centre: everyone, the owner's customer, or only holders of the course code. */
export const COURSE_SCOPES = ['public', 'customer', 'private', 'group'] as const;
/** What a course's form may set: "group" is set by sharing the course with a group. */
export const SETTABLE_COURSE_SCOPES = [
  'public',
  'customer',
  'private',
] as const satisfies readonly (typeof COURSE_SCOPES)[number][];
/** Course states of spec section 4; `modifying` is a published course with a revision draft. */
export const COURSE_STATUSES = ['draft', 'published', 'modifying', 'closed'] as const;
export const QUESTION_TYPES = ['single', 'multiple', 'short', 'experiment'] as const;
export const CATEGORY_KINDS = ['direction', 'stage'] as const;
export const COURSE_SORTS = ['publishedAt,desc', 'learners,desc', 'name,asc'] as const;
/** Directions, stages, difficulties and tags as super administrators keep them. */
export const CATALOGUE_LIMITS = { categoryName: 30, difficultyName: 30, tagName: 20 } as const;
/** Fields the administrators' course list sorts by (`sort=field,asc|desc`); by default the latest change first. */
export const ADMIN_COURSE_SORT_FIELDS = ['updatedAt', 'createdAt', 'name', 'learners'] as const;
/** Course API paths (the spec's `/api/v1/courses` family). */
export const COURSE_API = {
  base: '/api/v1/courses',
  centre: '/api/v1/courses/centre',
  filters: '/api/v1/courses/filters',
  mine: '/api/v1/courses/mine',
  study: '/api/v1/courses/study',
  join: '/api/v1/courses/join',
  uploads: '/api/v1/courses/uploads',
  apply: '/api/v1/courses/applications',
  /** Whether the caller may create a course (the course centre asks before offering it). */
  authorStatus: '/api/v1/courses/author-status',
  /** One run of an experiment's automatic check (`/:checkId`). */
  checks: '/api/v1/courses/checks',
  /** The starter courses shipped with the platform, and their import (`/import`). */
  starter: '/api/v1/courses/starter',
  /** Every course of the caller's scope, for administrators (spec 7's `/api/v1/admin_super` family). */
  admin: '/api/v1/admin_super/courses',
  /** The template projects of the courses' experiments, for super administrators. */
  adminExperiments: '/api/v1/admin_super/experiments',
} as const;
/** Resumable uploads: the course, chapter and section travel in the tus Upload-Metadata header. */
export const RESOURCE_PREVIEW_LIMITS = {
  videoBytes: 2 * 1024 * 1024 * 1024,
  audioBytes: 200 * 1024 * 1024,
  otherBytes: 50 * 1024 * 1024,
} as const;
