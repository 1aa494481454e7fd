import { z } from 'zod';
import {
  COURSE_LEVELS,
  COURSE_SCOPES,
  SETTABLE_COURSE_SCOPES,
  COURSE_STATUSES,
  QUESTION_TYPES,
  CATEGORY_KINDS,
  COURSE_SORTS,
  CATALOGUE_LIMITS,
  ADMIN_COURSE_SORT_FIELDS,
} from './course-constants.js';
import { ZHttpUrl } from './links.js';
import { EMAIL, LIMITS, PHONE } from './validation.js';
import { ZListQuery } from './user.js';
import { ZCheckTestResult, ZExperimentCheck } from './experiment-check.js';
export { ZPage } from './user.js';

const title = z.string().trim().min(1).max(LIMITS.courseTitle);
const tag = z.string().trim().min(1).max(20);

export const ZAiLink = z.object({ title: z.string().trim().min(1).max(LIMITS.courseTitle), url: ZHttpUrl });

/** Spec 5: a course's category (its direction and its stage) is required; the difficulty is not. */
const courseInfo = {
  name: title,
  description: z.string().trim().max(LIMITS.description),
  publicScope: z.enum(SETTABLE_COURSE_SCOPES),
  directionId: z.uuid(),
  stageId: z.uuid(),
  difficultyId: z.uuid().nullable(),
  tags: z.array(tag).max(LIMITS.tags),
  levels: z.array(z.enum(COURSE_LEVELS)).max(COURSE_LEVELS.length),
};

export const ZCourseInfoRequest = z.object({
  ...courseInfo,
  description: courseInfo.description.default(''),
  publicScope: courseInfo.publicScope.default('customer'),
  difficultyId: courseInfo.difficultyId.default(null),
  tags: courseInfo.tags.default([]),
  levels: courseInfo.levels.default(['any']),
});
export type TCourseInfoRequest = z.input<typeof ZCourseInfoRequest>;
/** Changes only the fields sent. */
export const ZUpdateCourseRequest = z.object(courseInfo).partial();

const option = z.string().trim().min(1).max(200);
const prompt = z.string().trim().min(1).max(2000);
const qid = z.string().min(1).max(40);

/** A question as the author writes it; `answer` holds the indexes of the right options. */
export const ZQuestion = z.discriminatedUnion('type', [
  z.object({
    id: qid,
    type: z.literal('single'),
    prompt,
    options: z.array(option).min(2).max(10),
    answer: z.array(z.number().int().min(0)).length(1),
  }),
  z.object({
    id: qid,
    type: z.literal('multiple'),
    prompt,
    options: z.array(option).min(2).max(10),
    answer: z.array(z.number().int().min(0)).min(1),
  }),
  z.object({ id: qid, type: z.literal('short'), prompt }),
  z.object({
    id: qid,
    type: z.literal('experiment'),
    prompt,
    projectId: z.uuid().nullable().default(null).describe('the template project each learner gets a copy of'),
    check: ZExperimentCheck.nullable().default(null).describe('hidden tests that score the learner’s notebook'),
  }),
]);
export type TQuestion = z.infer<typeof ZQuestion>;

export const ZTaskRequest = z.object({ title, questions: z.array(ZQuestion).min(1).max(50) });
export type TTaskRequest = z.input<typeof ZTaskRequest>;

export const ZSectionRequest = z.object({
  title: title.optional(),
  content: z.string().max(200_000).optional(),
  aiLinks: z.array(ZAiLink).max(10).optional(),
});

export const ZTitleRequest = z.object({ title });

/**
 * The whole outline of the version being written, in its new order: every chapter once, and every section of the
 * version once, under the chapter it is to sit in (a section may move to another chapter).
 */
export const ZOutlineRequest = z.object({
  chapters: z.array(z.object({ id: z.uuid(), sections: z.array(z.uuid()).max(LIMITS.sectionsPerCourse) })).max(1000),
});
export type TOutlineRequest = z.infer<typeof ZOutlineRequest>;
/** A new order of a section's tasks: every task of the section once. */
export const ZTaskOrderRequest = z.object({ ids: z.array(z.uuid()).max(LIMITS.tasksPerSection) });

export const ZResource = z.object({
  id: z.string(),
  name: z.string(),
  size: z.number(),
  mime: z.string(),
});
export type TResource = z.infer<typeof ZResource>;

/** A question as a learner sees it: without the answer. */
export const ZLearnerQuestion = z.object({
  id: z.string(),
  type: z.enum(QUESTION_TYPES),
  prompt: z.string(),
  options: z.array(z.string()).optional(),
  /** An experiment: whether a template project is linked, and the learner's own copy once started. */
  experiment: z
    .object({
      linked: z.boolean(),
      projectId: z.string().nullable(),
      /** Whether an automatic check scores it (its tests stay on the server). */
      checked: z.boolean(),
      notebook: z.string().nullable().describe('the notebook the check runs'),
    })
    .optional(),
});

export const ZTask = z.object({ id: z.string(), title: z.string(), questions: z.array(ZQuestion) });
export const ZLearnerTask = z.object({ id: z.string(), title: z.string(), questions: z.array(ZLearnerQuestion) });

export const ZSection = z.object({
  id: z.string(),
  title: z.string(),
  content: z.string(),
  aiLinks: z.array(ZAiLink),
  tasks: z.array(ZTask),
  resources: z.array(ZResource),
});
export type TSection = z.infer<typeof ZSection>;

export const ZChapter = z.object({ id: z.string(), title: z.string(), sections: z.array(ZSection) });
export type TChapter = z.infer<typeof ZChapter>;

export const ZCourseSummary = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  coverUrl: z.string().nullable(),
  thumbUrl: z.string().nullable(),
  publicScope: z.enum(COURSE_SCOPES),
  directionId: z.string().nullable(),
  stageId: z.string().nullable(),
  difficultyId: z.string().nullable(),
  tags: z.array(z.string()),
  levels: z.array(z.enum(COURSE_LEVELS)),
  status: z.enum(COURSE_STATUSES),
  takenDown: z.boolean(),
  ownerName: z.string(),
  learners: z.number().int(),
  versionNumber: z.number().int().nullable(),
  publishedAt: z.string().nullable(),
});
export type TCourseSummary = z.infer<typeof ZCourseSummary>;

/** A teacher who may be, or is, a course's collaborator. */
export const ZCourseCollaborator = z.object({ id: z.string(), username: z.string(), name: z.string() });
export type TCourseCollaborator = z.infer<typeof ZCourseCollaborator>;

/** What authors see in the editor: the draft (or revision) content, the code and the collaborators. */
export const ZEditableCourse = ZCourseSummary.extend({
  code: z.string(),
  isOwner: z.boolean(),
  editingVersionId: z.string(),
  collaborators: z.array(ZCourseCollaborator),
  chapters: z.array(ZChapter),
});
export type TEditableCourse = z.infer<typeof ZEditableCourse>;

export const ZCatalogueSection = z.object({
  id: z.string(),
  title: z.string(),
  taskCount: z.number().int(),
  visited: z.boolean(),
  completed: z.boolean(),
});
export const ZCourseDetail = ZCourseSummary.extend({
  enrolled: z.boolean(),
  canEdit: z.boolean(),
  /** The version the caller learns (an enrolled learner's own), else the published one. */
  learnerVersionNumber: z.number().int().nullable(),
  progress: z.number().min(0).max(100),
  catalogue: z.array(z.object({ id: z.string(), title: z.string(), sections: z.array(ZCatalogueSection) })),
});
export type TCourseDetail = z.infer<typeof ZCourseDetail>;

export const ZLearnerSection = z.object({
  id: z.string(),
  title: z.string(),
  content: z.string(),
  aiLinks: z.array(ZAiLink),
  resources: z.array(ZResource),
  tasks: z.array(ZLearnerTask),
  nextSectionId: z.string().nullable(),
  completed: z.boolean(),
});
export type TLearnerSection = z.infer<typeof ZLearnerSection>;

export const ZCentreQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  size: z.coerce.number().int().min(1).max(100).default(20),
  keyword: z.string().trim().max(100).optional(),
  directionId: z.uuid().optional(),
  stageId: z.uuid().optional(),
  difficultyId: z.uuid().optional(),
  level: z.enum(COURSE_LEVELS).optional(),
  tag: z.string().trim().max(20).optional(),
  sort: z.enum(COURSE_SORTS).default('publishedAt,desc'),
});
export type TCentreQuery = Partial<z.output<typeof ZCentreQuery>>;

export const ZJoinRequest = z.object({ code: z.string().trim().toUpperCase() });

export const ZRecordRequest = z.object({
  seconds: z.number().int().min(0).max(3600).default(0),
  completed: z.boolean().default(false),
});

export const ZAnswer = z.object({
  questionId: qid,
  choices: z.array(z.number().int().min(0)).max(10).optional(),
  text: z.string().max(5000).optional(),
});
export const ZAttemptRequest = z.object({ answers: z.array(ZAnswer).max(50) });
export type TAttemptRequest = z.infer<typeof ZAttemptRequest>;

export const ZAttempt = z.object({
  id: z.string(),
  taskId: z.string(),
  userId: z.string(),
  learnerName: z.string(),
  status: z.enum(['graded', 'pending']),
  score: z.number().int().min(LIMITS.scoreMin).max(LIMITS.scoreMax).nullable(),
  /** Credit earned per auto-graded question, 0–1. */
  credits: z.record(z.string(), z.number()),
  /**
   * The score an automatic check of an experiment gave, 0–100; null until such a check exists or has run. The
   * teacher's `score` may take it or override it.
   */
  autoScore: z.number().int().min(LIMITS.scoreMin).max(LIMITS.scoreMax).nullable(),
  /** The checks the answer's experiments took their credit from, by question. */
  checks: z.record(
    z.string(),
    z.object({
      checkId: z.string(),
      status: z.enum(['passed', 'failed', 'error']),
      score: z.number().int(),
      tests: z.array(ZCheckTestResult),
    }),
  ),
  answers: z.array(ZAnswer),
  comment: z.string(),
  createdAt: z.string(),
});
export type TAttempt = z.infer<typeof ZAttempt>;

export const ZStartExperimentRequest = z.object({ questionId: qid });
/** The learner's copy of an experiment's template: `created` is false when an earlier press made it. */
export const ZExperimentStart = z.object({ projectId: z.string(), created: z.boolean() });
export type TExperimentStart = z.infer<typeof ZExperimentStart>;

/** A learner's copy of an experiment, as the course's teachers see it in the results. */
export const ZExperimentCopy = z.object({
  id: z.string(),
  taskId: z.string().nullable(),
  taskTitle: z.string(),
  questionId: z.string(),
  userId: z.string(),
  learnerName: z.string(),
  projectId: z.string(),
  createdAt: z.string(),
});
export type TExperimentCopy = z.infer<typeof ZExperimentCopy>;

export const ZGradeRequest = z.object({
  score: z.number().int().min(LIMITS.scoreMin).max(LIMITS.scoreMax),
  comment: z.string().trim().max(LIMITS.description).default(''),
});

export const ZSectionRecord = z.object({
  sectionId: z.string(),
  title: z.string(),
  visited: z.boolean(),
  secondsSpent: z.number().int(),
  completed: z.boolean(),
  lastVisitedAt: z.string().nullable(),
});
export const ZLearningRecord = z.object({
  courseId: z.string(),
  courseName: z.string(),
  versionNumber: z.number().int().nullable(),
  progress: z.number(),
  sections: z.array(ZSectionRecord),
  attempts: z.array(ZAttempt),
});
export type TLearningRecord = z.infer<typeof ZLearningRecord>;

export const ZMyStudyItem = ZCourseSummary.extend({
  progress: z.number(),
  learnerVersionNumber: z.number().int().nullable(),
});

export const ZCatalogueItem = z.object({ id: z.string(), name: z.string(), kind: z.enum(CATEGORY_KINDS).optional() });
export type TCatalogueItem = z.infer<typeof ZCatalogueItem>;

export const ZCategoryRequest = z.object({
  name: z.string().trim().min(1).max(CATALOGUE_LIMITS.categoryName),
  kind: z.enum(CATEGORY_KINDS),
});
export type TCategoryRequest = z.infer<typeof ZCategoryRequest>;
export const ZDifficultyRequest = z.object({ name: z.string().trim().min(1).max(CATALOGUE_LIMITS.difficultyName) });
export const ZTagRequest = z.object({ name: z.string().trim().min(1).max(CATALOGUE_LIMITS.tagName) });
export const ZCatalogueListQuery = ZListQuery.extend({ kind: z.enum(CATEGORY_KINDS).optional() });
/** A catalogue entry in the administration: `courses` counts the courses (not closed) that use it. */
export const ZCatalogueEntry = ZCatalogueItem.extend({ courses: z.number().int(), createdAt: z.string() });
export type TCatalogueEntry = z.infer<typeof ZCatalogueEntry>;
export const ZCourseFilters = z.object({
  directions: z.array(ZCatalogueItem),
  stages: z.array(ZCatalogueItem),
  difficulties: z.array(ZCatalogueItem),
  tags: z.array(ZCatalogueItem),
});
export type TCourseFilters = z.infer<typeof ZCourseFilters>;

export const ZCourseCollaboratorsRequest = z.object({ usernames: z.array(z.string().trim().min(1).max(30)).max(20) });
export const ZCollaboratorSearchQuery = z.object({ keyword: z.string().trim().max(30).default('') });

/** One version of a course as its authors see it in the list of versions. */
export const ZCourseVersion = z.object({
  id: z.string(),
  /** 1, 2, … once published; null for the draft being written or an abandoned revision. */
  number: z.number().int().nullable(),
  status: z.enum(['draft', 'published', 'abandoned']),
  name: z.string(),
  /** The version new learners get. */
  current: z.boolean(),
  /** The version the editor writes (the first draft, or a revision). */
  editing: z.boolean(),
  learners: z.number().int(),
  createdAt: z.string(),
  publishedAt: z.string().nullable(),
});
export type TCourseVersion = z.infer<typeof ZCourseVersion>;

/** Whether the caller may create a course, and where their teacher certification stands. */
export const ZCourseAuthorStatus = z.object({
  canCreate: z.boolean(),
  certification: z
    .object({ status: z.enum(['pending', 'certified', 'rejected']), reason: z.string() })
    .nullable()
    .describe('The latest request for teacher certification, if any'),
});
export type TCourseAuthorStatus = z.infer<typeof ZCourseAuthorStatus>;

export const ZAdminCourseQuery = ZListQuery.extend({
  keyword: z.string().trim().max(100).optional().describe('part of the name, the code or the owner’s name'),
  status: z.enum(COURSE_STATUSES).optional(),
  sort: z
    .string()
    .regex(new RegExp(`^(${ADMIN_COURSE_SORT_FIELDS.join('|')}),(asc|desc)$`))
    .default('updatedAt,desc'),
});
export type TAdminCourseQuery = z.input<typeof ZAdminCourseQuery>;
/** A course in the administrators' list: its state, owner and institution. */
export const ZAdminCourse = z.object({
  id: z.string(),
  code: z.string(),
  name: z.string(),
  status: z.enum(COURSE_STATUSES),
  takenDown: z.boolean(),
  publicScope: z.enum(COURSE_SCOPES),
  ownerName: z.string(),
  customerName: z.string().nullable().describe('null: the public space'),
  versionNumber: z.number().int().nullable(),
  learners: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type TAdminCourse = z.infer<typeof ZAdminCourse>;
export const ZMoveLearnersRequest = z.object({ userIds: z.array(z.uuid()).max(1000).optional() });
export const ZAssignClassRequest = z.object({ classId: z.uuid() });
export const ZTakeDownRequest = z.object({ takenDown: z.boolean() });

export const ZCourseApplyRequest = z.object({
  name: z.string().trim().min(1).max(LIMITS.realName),
  phone: z.string().trim().regex(PHONE),
  email: z.string().trim().regex(EMAIL),
  remark: z.string().trim().max(LIMITS.remark).default(''),
});
export type TCourseApplyRequest = z.input<typeof ZCourseApplyRequest>;

export const ZCoursePackageRequest = z.object({
  name: z.string().trim().min(1).max(LIMITS.courseTitle),
  courseIds: z.array(z.uuid()).max(500),
});
export const ZPackageCustomersRequest = z.object({ customerIds: z.array(z.uuid()).max(1000) });
export type TCoursePackageRequest = z.infer<typeof ZCoursePackageRequest>;
const ZNamed = z.object({ id: z.string(), name: z.string() });
/** A course package with the names of its courses (their published version's) and of the customers given it. */
export const ZCoursePackage = z.object({
  id: z.string(),
  name: z.string(),
  courseIds: z.array(z.string()),
  customerIds: z.array(z.string()),
  courses: z.array(ZNamed),
  customers: z.array(ZNamed),
  createdAt: z.string(),
});
export type TCoursePackage = z.infer<typeof ZCoursePackage>;

/** A template project that courses' experiment questions copy for their learners (`admin_super/experiments`). */
export const ZAdminExperiment = z.object({
  projectId: z.string(),
  name: z.string().nullable().describe('null: the template project was deleted'),
  owner: z.string().nullable().describe('username of the project owner'),
  courses: z.array(z.object({ id: z.string(), name: z.string() })),
  copies: z.number().int().describe("learners' copies made from it"),
});
export type TAdminExperiment = z.infer<typeof ZAdminExperiment>;
