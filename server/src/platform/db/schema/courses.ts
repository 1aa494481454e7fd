import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt, id, updatedAt } from './columns.js';
import { groups } from './groups.js';
import { classes, customers } from './institutions.js';
import { projects } from './projects.js';
import { users } from './users.js';

/** Directions and stages of the course catalogue, kept by super administrators for every customer. */
export const courseCategories = pgTable(
  'course_categories',
  {
    id: id(),
    kind: text('kind', { enum: ['direction', 'stage'] }).notNull(),
    name: text('name').notNull(),
    createdAt: createdAt(),
  },
  (t) => [unique('course_categories_kind_name').on(t.kind, t.name)],
);

export const courseDifficulties = pgTable('course_difficulties', {
  id: id(),
  name: text('name').notNull().unique(),
  createdAt: createdAt(),
});

export const courseTags = pgTable('course_tags', {
  id: id(),
  name: text('name').notNull().unique(),
  createdAt: createdAt(),
});

/**
 * A course. Its information (name, description, cover, tags) and content live in versions: `published_version_id` is what new learners get, `draft_version_id`
 * is what authors edit (the first draft before publishing, or a revision while learners keep the published one).
 * `customer_id` is the owner's customer (null in the public space).
 */
export const courses = pgTable(
  'courses',
  {
    id: id(),
    customerId: uuid('customer_id').references(() => customers.id),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id),
    code: text('code').notNull().unique(),
    publicScope: text('public_scope', { enum: ['public', 'customer', 'private', 'group'] })
      .notNull()
      .default('customer'),
    /** The group it is shared with when its public scope is "group". */
    groupId: uuid('group_id').references(() => groups.id),
    directionId: uuid('direction_id').references(() => courseCategories.id, { onDelete: 'set null' }),
    stageId: uuid('stage_id').references(() => courseCategories.id, { onDelete: 'set null' }),
    difficultyId: uuid('difficulty_id').references(() => courseDifficulties.id, { onDelete: 'set null' }),
    levels: text('levels')
      .array()
      .notNull()
      .default(sql`'{any}'::text[]`),
    status: text('status', { enum: ['draft', 'published', 'closed'] })
      .notNull()
      .default('draft'),
    takenDown: boolean('taken_down').notNull().default(false),
    publishedVersionId: uuid('published_version_id'),
    draftVersionId: uuid('draft_version_id'),
    learnerCount: integer('learner_count').notNull().default(0),
    /** The starter course it was imported from, `slug:language` (null: written here). */
    starter: text('starter'),
    publishedAt: timestamp('published_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('courses_centre_idx').on(t.status, t.publicScope, t.publishedAt),
    // The centre's filters, newest first, and the catalogue's count of courses using an entry.
    index('courses_direction_idx').on(t.directionId, t.publishedAt),
    index('courses_stage_idx').on(t.stageId, t.publishedAt),
    index('courses_difficulty_idx').on(t.difficultyId, t.publishedAt),
    index('courses_customer_idx').on(t.customerId),
    index('courses_owner_idx').on(t.ownerId),
    index('courses_group_idx').on(t.groupId),
    check('courses_group_named', sql`${t.publicScope} <> 'group' or ${t.groupId} is not null`),
    check('courses_code_format', sql`${t.code} ~ '^[23456789ABCDEFGHJKMNPQRSTUVWXYZ]{6}$'`),
  ],
);

export const courseVersions = pgTable(
  'course_versions',
  {
    id: id(),
    courseId: uuid('course_id')
      .notNull()
      .references(() => courses.id, { onDelete: 'cascade' }),
    /** 1, 2, … once published; null while a draft. */
    number: integer('number'),
    status: text('status', { enum: ['draft', 'published', 'abandoned'] })
      .notNull()
      .default('draft'),
    /** The course's information as of this version: learners on it keep seeing it while a revision changes it. */
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    coverKey: text('cover_key'),
    thumbKey: text('thumb_key'),
    tags: text('tags')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    publishedAt: timestamp('published_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('course_versions_course_idx').on(t.courseId),
    unique('course_versions_number').on(t.courseId, t.number),
  ],
);

const versionRef = () =>
  uuid('version_id')
    .notNull()
    .references(() => courseVersions.id, { onDelete: 'cascade' });
/** The person a row belongs to; it goes with their account. */
const userRef = () =>
  uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' });
const courseRef = () =>
  uuid('course_id')
    .notNull()
    .references(() => courses.id, { onDelete: 'cascade' });

export const courseChapters = pgTable(
  'course_chapters',
  {
    id: id(),
    courseId: courseRef(),
    versionId: versionRef(),
    title: text('title').notNull(),
    position: integer('position').notNull(),
  },
  (t) => [index('course_chapters_version_idx').on(t.versionId, t.position)],
);

export const courseSections = pgTable(
  'course_sections',
  {
    id: id(),
    courseId: courseRef(),
    versionId: versionRef(),
    chapterId: uuid('chapter_id')
      .notNull()
      .references(() => courseChapters.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    content: text('content').notNull().default(''),
    aiLinks: jsonb('ai_links').$type<{ title: string; url: string }[]>().notNull().default([]),
    position: integer('position').notNull(),
  },
  (t) => [
    index('course_sections_chapter_idx').on(t.chapterId, t.position),
    index('course_sections_version_idx').on(t.versionId),
  ],
);

export interface StoredQuestion {
  id: string;
  type: 'single' | 'multiple' | 'short' | 'experiment';
  prompt: string;
  options?: string[];
  answer?: number[];
  /** An experiment's template project. */
  projectId?: string | null;
  /** An experiment's automatic check: hidden tests that never reach learners. */
  check?: StoredCheck | null;
}

/** One hidden test of an experiment's check: passes when its code raises nothing in the notebook's kernel state. */
export interface StoredCheckTest {
  name: string;
  /** Shown to the learner when the test fails. */
  hint: string;
  points: number;
  code: string;
}

export interface StoredCheck {
  /** The notebook checked, a path in the learner's copy. */
  notebook: string;
  timeoutSeconds: number;
  tests: StoredCheckTest[];
  /** A reference solution notebook (JSON), for the author's trial runs only. */
  solution: string | null;
}

/** What one test of a check did: the learner and the teacher see it; the test's code never leaves the server. */
export interface CheckTestResult {
  name: string;
  points: number;
  passed: boolean;
  message: string;
}

/** A finished check as kept with an answer to its task. */
export interface AttemptCheckResult {
  checkId: string;
  status: 'passed' | 'failed' | 'error';
  score: number;
  tests: CheckTestResult[];
}

export const courseTasks = pgTable(
  'course_tasks',
  {
    id: id(),
    courseId: courseRef(),
    versionId: versionRef(),
    sectionId: uuid('section_id')
      .notNull()
      .references(() => courseSections.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    questions: jsonb('questions').$type<StoredQuestion[]>().notNull(),
    position: integer('position').notNull(),
  },
  (t) => [index('course_tasks_section_idx').on(t.sectionId, t.position)],
);

export const courseResources = pgTable(
  'course_resources',
  {
    id: id(),
    courseId: courseRef(),
    versionId: versionRef(),
    sectionId: uuid('section_id')
      .notNull()
      .references(() => courseSections.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    storageKey: text('storage_key').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    mime: text('mime').notNull(),
    position: integer('position').notNull(),
  },
  (t) => [index('course_resources_section_idx').on(t.sectionId)],
);

export const courseCollaborators = pgTable(
  'course_collaborators',
  {
    courseId: courseRef(),
    userId: userRef(),
  },
  (t) => [primaryKey({ columns: [t.courseId, t.userId] }), index('course_collaborators_user_idx').on(t.userId)],
);

/** A learner in a course, on the version they started (until the teacher moves them). */
export const courseEnrolments = pgTable(
  'course_enrolments',
  {
    id: id(),
    courseId: courseRef(),
    userId: userRef(),
    customerId: uuid('customer_id').references(() => customers.id),
    versionId: versionRef(),
    /** `schedule`: a teaching schedule of the learner's class pinned the version. */
    joinedVia: text('joined_via', { enum: ['code', 'class', 'centre', 'schedule'] }).notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [unique('course_enrolments_user').on(t.courseId, t.userId), index('course_enrolments_user_idx').on(t.userId)],
);

/** One learner's record of one section: visited, time spent, completed. */
export const learningRecords = pgTable(
  'learning_records',
  {
    id: id(),
    courseId: courseRef(),
    userId: userRef(),
    customerId: uuid('customer_id').references(() => customers.id),
    sectionId: uuid('section_id')
      .notNull()
      .references(() => courseSections.id, { onDelete: 'cascade' }),
    secondsSpent: integer('seconds_spent').notNull().default(0),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    lastVisitedAt: timestamp('last_visited_at', { withTimezone: true }).notNull().defaultNow(),
    createdAt: createdAt(),
  },
  (t) => [
    unique('learning_records_user_section').on(t.userId, t.sectionId),
    index('learning_records_course_idx').on(t.courseId, t.userId),
  ],
);

export const taskAttempts = pgTable(
  'task_attempts',
  {
    id: id(),
    courseId: courseRef(),
    taskId: uuid('task_id')
      .notNull()
      .references(() => courseTasks.id, { onDelete: 'cascade' }),
    userId: userRef(),
    customerId: uuid('customer_id').references(() => customers.id),
    answers: jsonb('answers').$type<{ questionId: string; choices?: number[]; text?: string }[]>().notNull(),
    credits: jsonb('credits').$type<Record<string, number>>().notNull(),
    status: text('status', { enum: ['graded', 'pending'] }).notNull(),
    score: integer('score'),
    /** What an automatic check of an experiment scored, until a teacher sets `score` (null: no check ran). */
    autoScore: integer('auto_score'),
    /** The checks the answer took its experiments' credit from, by question. */
    checks: jsonb('checks').$type<Record<string, AttemptCheckResult>>().notNull().default({}),
    comment: text('comment').notNull().default(''),
    gradedBy: uuid('graded_by').references(() => users.id),
    createdAt: createdAt(),
  },
  (t) => [
    index('task_attempts_task_idx').on(t.taskId, t.userId),
    index('task_attempts_course_idx').on(t.courseId, t.userId),
    check('task_attempts_score_range', sql`${t.score} is null or (${t.score} between 0 and 100)`),
    check('task_attempts_auto_score_range', sql`${t.autoScore} is null or (${t.autoScore} between 0 and 100)`),
  ],
);

/**
 * A learner's copy of an experiment's template project, made once per course, learner and template: the unique
 * key lets concurrent presses of "Start experiment" make one copy. `project_id` is set in the transaction that
 * claims the row; deleting the copy deletes the row, so the next press makes a new one. The template is kept by
 * id only: the copy stays when the template goes.
 */
export const experimentCopies = pgTable(
  'experiment_copies',
  {
    id: id(),
    courseId: courseRef(),
    userId: userRef(),
    customerId: uuid('customer_id').references(() => customers.id),
    templateProjectId: uuid('template_project_id').notNull(),
    projectId: uuid('project_id').references(() => projects.id, { onDelete: 'cascade' }),
    /** Where the learner first pressed "Start experiment". */
    taskId: uuid('task_id').references(() => courseTasks.id, { onDelete: 'set null' }),
    questionId: text('question_id').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    unique('experiment_copies_once').on(t.courseId, t.userId, t.templateProjectId),
    index('experiment_copies_project_idx').on(t.projectId),
  ],
);

/**
 * One run of an experiment's automatic check on a learner's notebook (or an author's trial, `trial` set): the
 * notebook executed top to bottom in the project's own sandbox, then the hidden tests in the same kernel state.
 * `running` until it ends; `passed` (every test), `failed` (some test) or `error` (timeout, crash, memory, no
 * notebook: `reason`) after.
 */
export const experimentChecks = pgTable(
  'experiment_checks',
  {
    id: id(),
    courseId: courseRef(),
    taskId: uuid('task_id')
      .notNull()
      .references(() => courseTasks.id, { onDelete: 'cascade' }),
    questionId: text('question_id').notNull(),
    userId: userRef(),
    customerId: uuid('customer_id').references(() => customers.id),
    projectId: uuid('project_id').references(() => projects.id, { onDelete: 'set null' }),
    /** An author's trial: against the template or the reference solution; never counts for anyone. */
    trial: text('trial', { enum: ['template', 'solution'] }),
    status: text('status', { enum: ['running', 'passed', 'failed', 'error'] }).notNull(),
    score: integer('score'),
    tests: jsonb('tests').$type<CheckTestResult[]>().notNull().default([]),
    reason: text('reason', { enum: ['timeout', 'crashed', 'memory', 'notebook', 'runtime'] }),
    /** The notebook's first error or the end of the sandbox's output, for the learner to act on. */
    detail: text('detail').notNull().default(''),
    /** The process that runs it: a check whose process ended is failed by the next one to look. */
    holder: text('holder'),
    durationMs: integer('duration_ms'),
    createdAt: createdAt(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    index('experiment_checks_learner_idx').on(t.taskId, t.userId, t.questionId, t.createdAt),
    index('experiment_checks_user_idx').on(t.userId, t.createdAt),
    check('experiment_checks_score_range', sql`${t.score} is null or (${t.score} between 0 and 100)`),
  ],
);

/** A course given to a class by its teacher: the class's students join it. */
export const courseClassAssignments = pgTable(
  'course_class_assignments',
  {
    courseId: courseRef(),
    classId: uuid('class_id')
      .notNull()
      .references(() => classes.id, { onDelete: 'cascade' }),
    customerId: uuid('customer_id')
      .notNull()
      .references(() => customers.id),
    assignedBy: uuid('assigned_by').references(() => users.id),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.courseId, t.classId] }), index('course_class_assignments_class_idx').on(t.classId)],
);

/** Course packages that super administrators assign to customers. */
export const coursePackages = pgTable('course_packages', {
  id: id(),
  name: text('name').notNull(),
  courseIds: uuid('course_ids')
    .array()
    .notNull()
    .default(sql`'{}'::uuid[]`),
  customerIds: uuid('customer_ids')
    .array()
    .notNull()
    .default(sql`'{}'::uuid[]`),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/** "Apply for courses": contact details kept for administrators, who follow up within 3 working days. */
export const courseApplications = pgTable('course_applications', {
  id: id(),
  customerId: uuid('customer_id').references(() => customers.id),
  userId: uuid('user_id').references(() => users.id),
  name: text('name').notNull(),
  phone: text('phone').notNull(),
  email: text('email').notNull(),
  remark: text('remark').notNull().default(''),
  createdAt: createdAt(),
});
