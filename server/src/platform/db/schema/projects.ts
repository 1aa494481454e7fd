import { sql } from 'drizzle-orm';
import {
  check,
  date,
  index,
  integer,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  unique,
  uuid,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import { createdAt, id, updatedAt } from './columns.js';
import { groups } from './groups.js';
import { customers } from './institutions.js';
import { users } from './users.js';

/** A notebook project. `customer_id` is null in the public space. Its files live in the runtime workspace. */
export const projects = pgTable(
  'projects',
  {
    id: id(),
    /** A small number per project: the local runtime derives the project's own system user id from it. */
    seq: serial('seq').notNull().unique(),
    customerId: uuid('customer_id').references(() => customers.id),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    tags: text('tags')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    access: text('access', { enum: ['public', 'private', 'group'] })
      .notNull()
      .default('private'),
    /** The group it is shared with when its access is "group". */
    groupId: uuid('group_id').references(() => groups.id),
    type: text('type').notNull().default(''),
    runtimeType: text('runtime_type', { enum: ['BASIC', 'ADVANCED', 'GPU'] })
      .notNull()
      .default('BASIC'),
    environment: text('environment', { enum: ['python', 'ai'] })
      .notNull()
      .default('python'),
    framework: text('framework').notNull().default(''),
    labelFile: text('label_file').notNull().default(''),
    courseTag: text('course_tag').notNull().default(''),
    direction: text('direction').notNull().default(''),
    studySection: text('study_section').notNull().default(''),
    tool: text('tool').notNull().default(''),
    forkedFrom: uuid('forked_from').references((): AnyPgColumn => projects.id, { onDelete: 'set null' }),
    /** Set the first time the project is made public: it can never return to private. */
    publishedAt: timestamp('published_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('projects_customer_access_idx').on(t.customerId, t.access),
    index('projects_owner_idx').on(t.ownerId),
    index('projects_group_idx').on(t.groupId),
    check('projects_group_named', sql`${t.access} <> 'group' or ${t.groupId} is not null`),
    check('projects_public_final', sql`${t.publishedAt} is null or ${t.access} <> 'private'`),
  ],
);

export const projectCollaborators = pgTable(
  'project_collaborators',
  {
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    customerId: uuid('customer_id').references(() => customers.id),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.userId] }), index('project_collaborators_user_idx').on(t.userId)],
);

/** A saved version: a snapshot of the workspace files, numbered per project. */
export const projectVersions = pgTable(
  'project_versions',
  {
    id: id(),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    customerId: uuid('customer_id').references(() => customers.id),
    major: integer('major').notNull(),
    minor: integer('minor').notNull(),
    revision: integer('revision').notNull(),
    description: text('description').notNull(),
    snapshotNo: integer('snapshot_no').notNull(),
    fileCount: integer('file_count').notNull().default(0),
    createdBy: uuid('created_by')
      .notNull()
      .references(() => users.id),
    createdAt: createdAt(),
  },
  (t) => [
    unique('project_versions_number').on(t.projectId, t.major, t.minor, t.revision),
    unique('project_versions_snapshot').on(t.projectId, t.snapshotNo),
    check(
      'project_versions_segments',
      sql`${t.major} between 0 and 100 and ${t.minor} between 0 and 100 and ${t.revision} between 0 and 100`,
    ),
  ],
);

/** The runtime (container) of a project: at most one per project. */
export const runtimes = pgTable(
  'runtimes',
  {
    projectId: uuid('project_id')
      .primaryKey()
      .references(() => projects.id, { onDelete: 'cascade' }),
    customerId: uuid('customer_id').references(() => customers.id),
    startedBy: uuid('started_by').references(() => users.id),
    runtimeType: text('runtime_type', { enum: ['BASIC', 'ADVANCED', 'GPU'] }).notNull(),
    state: text('state', { enum: ['NA', 'BOOTING', 'RUNNING', 'STOPPING', 'STOPPED', 'FAILED'] })
      .notNull()
      .default('NA'),
    stopReason: text('stop_reason', { enum: ['user', 'idle', 'computeExhausted', 'crashed', 'shutdown', 'diskFull'] }),
    startedAt: timestamp('started_at', { withTimezone: true }),
    /** Compute time is debited up to here. */
    debitedAt: timestamp('debited_at', { withTimezone: true }),
    /** The server process that runs it (`server_instances.id`); the gateway of any other process forwards to it. */
    holder: uuid('holder'),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('runtimes_customer_state_idx').on(t.customerId, t.state),
    index('runtimes_user_idx').on(t.startedBy),
    index('runtimes_holder_idx').on(t.holder),
  ],
);

/**
 * A server process serving this database, with the address the others reach it at. It writes `heartbeat_at` every
 * 10 s; one silent for 45 s is gone, and the runtimes it held are marked crashed.
 */
export const serverInstances = pgTable('server_instances', {
  id: uuid('id').primaryKey(),
  url: text('url').notNull(),
  startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
  heartbeatAt: timestamp('heartbeat_at', { withTimezone: true }).notNull(),
});

/** The weekly compute allowance of a customer's users per runtime type, in minutes. */
export const computeAllowances = pgTable(
  'compute_allowances',
  {
    customerId: uuid('customer_id')
      .notNull()
      .references(() => customers.id),
    runtimeType: text('runtime_type', { enum: ['BASIC', 'ADVANCED', 'GPU'] }).notNull(),
    weeklyMinutes: integer('weekly_minutes').notNull(),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.customerId, t.runtimeType] })],
);

/** Minutes a user spent per runtime type in one week (keyed by the Monday in the customer's zone). */
export const computeUsage = pgTable(
  'compute_usage',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    customerId: uuid('customer_id').references(() => customers.id),
    runtimeType: text('runtime_type', { enum: ['BASIC', 'ADVANCED', 'GPU'] }).notNull(),
    weekStart: date('week_start').notNull(),
    usedMinutes: integer('used_minutes').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.userId, t.runtimeType, t.weekStart] })],
);

/** Package installs and uninstalls of a project's virtual environment, one running at a time. */
export const packageOperations = pgTable(
  'package_operations',
  {
    id: id(),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    customerId: uuid('customer_id').references(() => customers.id),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    kind: text('kind', { enum: ['install', 'uninstall'] }).notNull(),
    name: text('name').notNull(),
    state: text('state', {
      enum: ['init', 'waiting', 'installing', 'uninstalling', 'success', 'fail', 'cancelled'],
    })
      .notNull()
      .default('init'),
    message: text('message').notNull().default(''),
    /** The server process that runs it (`server_instances.id`); one of a process that stopped beating never ends. */
    holder: uuid('holder'),
    createdAt: createdAt(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [index('package_operations_project_idx').on(t.projectId, t.createdAt)],
);
