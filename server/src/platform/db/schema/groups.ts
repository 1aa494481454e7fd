import { sql } from 'drizzle-orm';
import { boolean, index, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id, updatedAt } from './columns.js';
import { customers } from './institutions.js';
import { users } from './users.js';

/**
 * A group: a club or team that may cross classes and schools. `customer_id` is the owner's customer (null in the
 * public space). A dismissed group keeps its rows (nothing of its members is deleted) but no longer gives access.
 */
export const groups = pgTable(
  'groups',
  {
    id: id(),
    customerId: uuid('customer_id').references(() => customers.id),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    coverKey: text('cover_key'),
    /** The human-facing invitation code; reset replaces it, so the old one stops working at once. */
    inviteCode: text('invite_code').notNull(),
    inviteEnabled: boolean('invite_enabled').notNull().default(true),
    /** Whether joining by code waits for the owner's approval. */
    joinReview: boolean('join_review').notNull().default(false),
    dismissedAt: timestamp('dismissed_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('groups_invite_code_idx').on(t.inviteCode),
    index('groups_customer_idx').on(t.customerId),
    index('groups_owner_idx').on(t.ownerId),
  ],
);

/** A member of a group; the owner is a member with the role "owner". */
export const groupMembers = pgTable(
  'group_members',
  {
    groupId: uuid('group_id')
      .notNull()
      .references(() => groups.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    /** The member's own customer (null in the public space): a group may cross schools. */
    customerId: uuid('customer_id').references(() => customers.id),
    role: text('role', { enum: ['owner', 'member'] })
      .notNull()
      .default('member'),
    /** How the member came in: created the group, added by the owner, joined by code, or batch-registered. */
    joinedVia: text('joined_via', { enum: ['created', 'added', 'code', 'batch'] }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.groupId, t.userId] }), index('group_members_user_idx').on(t.userId)],
);

/** A request to join by code that waits for the owner's review: pending → approved or refused. */
export const groupJoinRequests = pgTable(
  'group_join_requests',
  {
    id: id(),
    groupId: uuid('group_id')
      .notNull()
      .references(() => groups.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    customerId: uuid('customer_id').references(() => customers.id),
    state: text('state', { enum: ['pending', 'approved', 'refused'] })
      .notNull()
      .default('pending'),
    /** The owner's reason when refused. */
    reason: text('reason').notNull().default(''),
    decidedBy: uuid('decided_by').references(() => users.id),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('group_join_requests_pending_idx')
      .on(t.groupId, t.userId)
      .where(sql`${t.state} = 'pending'`),
    index('group_join_requests_user_idx').on(t.userId),
  ],
);
