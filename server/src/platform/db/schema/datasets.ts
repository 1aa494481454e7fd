import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uuid,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import { createdAt, id, updatedAt } from './columns.js';
import { groups } from './groups.js';
import { customers } from './institutions.js';
import { projects } from './projects.js';
import { users } from './users.js';

/**
 * A dataset: a zip of files with its description. `customer_id` is the owner's customer (null in the public space).
 * Its data live in versions: new data is a new version, never an edit of a published one. Once published it cannot
 * be edited or deleted; a public one can never be deleted; one shared with a group cannot be made private.
 */
export const datasets = pgTable(
  'datasets',
  {
    id: id(),
    customerId: uuid('customer_id').references(() => customers.id),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    explanation: text('explanation').notNull().default(''),
    tags: text('tags')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    access: text('access', { enum: ['public', 'private', 'group'] })
      .notNull()
      .default('private'),
    groupId: uuid('group_id').references(() => groups.id),
    /** The official course it belongs to (a course tag, as projects carry). */
    courseTag: text('course_tag').notNull().default(''),
    /** Annotation categories of an image dataset (at most 50). */
    annotationCategories: text('annotation_categories')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** The version projects get when they attach the dataset: the newest ready one. */
    currentVersionId: uuid('current_version_id').references((): AnyPgColumn => datasetVersions.id, {
      onDelete: 'set null',
    }),
    publishedAt: timestamp('published_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('datasets_customer_access_idx').on(t.customerId, t.access),
    index('datasets_owner_idx').on(t.ownerId),
    index('datasets_group_idx').on(t.groupId),
    check('datasets_group_named', sql`${t.access} <> 'group' or ${t.groupId} is not null`),
  ],
);

/** One upload of a dataset's zip, checked and extracted into storage under `storage_prefix`. */
export const datasetVersions = pgTable(
  'dataset_versions',
  {
    id: id(),
    datasetId: uuid('dataset_id')
      .notNull()
      .references((): AnyPgColumn => datasets.id, { onDelete: 'cascade' }),
    customerId: uuid('customer_id').references(() => customers.id),
    number: integer('number').notNull(),
    state: text('state', { enum: ['processing', 'ready', 'failed'] })
      .notNull()
      .default('processing'),
    /** The refusal's error code and detail when the zip was refused or extraction failed. */
    failure: text('failure'),
    zipName: text('zip_name').notNull(),
    zipBytes: bigint('zip_bytes', { mode: 'number' }).notNull().default(0),
    fileCount: integer('file_count').notNull().default(0),
    /** Inflated bytes of all files: what counts in the owner's storage. */
    totalBytes: bigint('total_bytes', { mode: 'number' }).notNull().default(0),
    storagePrefix: text('storage_prefix').notNull(),
    /** The annotation file (e.g. COCO JSON, at most 100 MB) stored beside the files. */
    annotationKey: text('annotation_key'),
    annotationName: text('annotation_name'),
    annotationBytes: bigint('annotation_bytes', { mode: 'number' }),
    createdBy: uuid('created_by')
      .notNull()
      .references(() => users.id),
    createdAt: createdAt(),
    readyAt: timestamp('ready_at', { withTimezone: true }),
  },
  (t) => [unique('dataset_versions_number').on(t.datasetId, t.number)],
);

/** A file of a dataset version, for the file tree and previews. */
export const datasetFiles = pgTable(
  'dataset_files',
  {
    versionId: uuid('version_id')
      .notNull()
      .references(() => datasetVersions.id, { onDelete: 'cascade' }),
    path: text('path').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.versionId, t.path] })],
);

/** A dataset attached to a project: mounted read-only in its runtime, with the synchronisation's state. */
export const projectDatasets = pgTable(
  'project_datasets',
  {
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    datasetId: uuid('dataset_id')
      .notNull()
      .references(() => datasets.id, { onDelete: 'cascade' }),
    customerId: uuid('customer_id').references(() => customers.id),
    /** The version mounted; moves to the dataset's current version when the project re-synchronises. */
    versionId: uuid('version_id').references(() => datasetVersions.id, { onDelete: 'set null' }),
    /** The folder name under the runtime's datasets folder. */
    mountName: text('mount_name').notNull(),
    syncState: text('sync_state', { enum: ['inProgress', 'success', 'failure'] })
      .notNull()
      .default('inProgress'),
    syncError: text('sync_error'),
    attachedBy: uuid('attached_by')
      .notNull()
      .references(() => users.id),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.datasetId] }),
    unique('project_datasets_mount').on(t.projectId, t.mountName),
    index('project_datasets_dataset_idx').on(t.datasetId),
  ],
);
