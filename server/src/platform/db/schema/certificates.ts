import type { TCertDesign } from '@aiedu/contracts';
import { sql } from 'drizzle-orm';
import {
  boolean,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt, id, updatedAt } from './columns.js';
import { customers, schools } from './institutions.js';
import { users } from './users.js';

/**
 * A certificate template of a customer: its design (layout, background, the parts' places and styles) and its
 * number rule. Deleting one hides it from new issuances; certificates already issued keep their own frozen design.
 */
export const certificates = pgTable(
  'certificates',
  {
    id: id(),
    customerId: uuid('customer_id')
      .notNull()
      .references(() => customers.id),
    name: text('name').notNull(),
    type: text('type', { enum: ['teaching', 'activity', 'custom'] }).notNull(),
    remark: text('remark').notNull().default(''),
    creatorId: uuid('creator_id')
      .notNull()
      .references(() => users.id),
    layout: text('layout', { enum: ['portrait', 'landscape'] }).notNull(),
    design: jsonb('design').$type<TCertDesign>().notNull(),
    /** The number rule: 0–10 letters, then the issue date, then `number_digits` digits. */
    numberPrefix: text('number_prefix').notNull().default(''),
    numberDigits: integer('number_digits').notNull().default(4),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('certificates_customer_idx').on(t.customerId)],
);

/**
 * The last sequence number given out per number stem (the rule's letters and the issue date, `AB20261128`):
 * incremented in the transaction that numbers the certificates, so numbers are unique and gap-free within a day,
 * also when issuances run at once (the row's lock orders them; a rollback gives the numbers back).
 */
export const certificateCounters = pgTable('certificate_counters', {
  stem: text('stem').primaryKey(),
  last: integer('last').notNull().default(0),
});

/** One issuance: a template given to students for one achievement, reviewed first when the customer asks. */
export const certificateIssuances = pgTable(
  'certificate_issuances',
  {
    id: id(),
    customerId: uuid('customer_id')
      .notNull()
      .references(() => customers.id),
    certificateId: uuid('certificate_id')
      .notNull()
      .references(() => certificates.id),
    issuerId: uuid('issuer_id')
      .notNull()
      .references(() => users.id),
    /** The issuer's school when they issued it (none for an institution's administrators): a school's managers reach it. */
    schoolId: uuid('school_id').references(() => schools.id),
    awardFor: text('award_for').notNull(),
    issueDate: date('issue_date', { mode: 'string' }).notNull(),
    source: text('source', { enum: ['class', 'course', 'schedule', 'list', 'manual'] }).notNull(),
    sourceId: uuid('source_id'),
    state: text('state', { enum: ['pending', 'refused', 'withdrawn', 'issued'] }).notNull(),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('certificate_issuances_customer_idx').on(t.customerId, t.createdAt),
    index('certificate_issuances_issuer_idx').on(t.issuerId),
    index('certificate_issuances_school_idx').on(t.schoolId, t.createdAt),
  ],
);

/**
 * A holder's certificate. It is created with its issuance and numbered when the issuance is issued; `design` is
 * the template's design as it was then, so later edits of the template change no certificate already given.
 */
export const userCertificates = pgTable(
  'user_certificates',
  {
    id: id(),
    issuanceId: uuid('issuance_id')
      .notNull()
      .references(() => certificateIssuances.id, { onDelete: 'cascade' }),
    certificateId: uuid('certificate_id')
      .notNull()
      .references(() => certificates.id),
    customerId: uuid('customer_id')
      .notNull()
      .references(() => customers.id),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    holderName: text('holder_name').notNull(),
    awardFor: text('award_for').notNull(),
    number: text('number'),
    design: jsonb('design').$type<TCertDesign>(),
    state: text('state', { enum: ['valid', 'revoked'] })
      .notNull()
      .default('valid'),
    issuedAt: timestamp('issued_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    revokeReason: text('revoke_reason'),
    revokedBy: uuid('revoked_by').references(() => users.id),
    replacedById: uuid('replaced_by_id'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('user_certificates_number_idx')
      .on(t.number)
      .where(sql`${t.number} is not null`),
    index('user_certificates_issuance_idx').on(t.issuanceId),
    index('user_certificates_user_idx').on(t.userId),
    index('user_certificates_customer_idx').on(t.customerId, t.issuedAt),
  ],
);

/** A request for review of an issuance, and the auditor's decision: pending → approved, refused or withdrawn. */
export const certificateReviews = pgTable(
  'certificate_reviews',
  {
    id: id(),
    issuanceId: uuid('issuance_id')
      .notNull()
      .references(() => certificateIssuances.id, { onDelete: 'cascade' }),
    customerId: uuid('customer_id')
      .notNull()
      .references(() => customers.id),
    state: text('state', { enum: ['pending', 'approved', 'refused', 'withdrawn'] }).notNull(),
    reason: text('reason'),
    auditorId: uuid('auditor_id').references(() => users.id),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('certificate_reviews_issuance_idx').on(t.issuanceId),
    index('certificate_reviews_customer_state_idx').on(t.customerId, t.state),
  ],
);

/** The users of a customer who review its issuances. */
export const certificateAuditors = pgTable(
  'certificate_auditors',
  {
    id: id(),
    customerId: uuid('customer_id')
      .notNull()
      .references(() => customers.id),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    createdBy: uuid('created_by').references(() => users.id),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('certificate_auditors_customer_user_idx').on(t.customerId, t.userId)],
);

/** Per customer: whether its issuances wait for an auditor's approval. */
export const certificateSettings = pgTable(
  'certificate_settings',
  {
    customerId: uuid('customer_id')
      .notNull()
      .references(() => customers.id),
    reviewRequired: boolean('review_required').notNull().default(false),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.customerId] })],
);
