import { sql } from 'drizzle-orm';
import { index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id, updatedAt } from './columns.js';
import { courseSections } from './courses.js';
import { customers, schools } from './institutions.js';
import { teachingSchedules } from './schedules.js';
import { users } from './users.js';

/**
 * A lesson of a teaching schedule (spec 4's session): not started → teaching → finished. A schedule has at most one
 * lesson that is not finished. `section_id` is the section the teacher shows; `revision` grows with every change,
 * so a client that hears of changes out of order keeps the newest. It carries the schedule's customer and school
 * for the teaching statistics.
 */
export const classroomSessions = pgTable(
  'classroom_sessions',
  {
    id: id(),
    scheduleId: uuid('schedule_id')
      .notNull()
      .references(() => teachingSchedules.id, { onDelete: 'cascade' }),
    customerId: uuid('customer_id')
      .notNull()
      .references(() => customers.id),
    schoolId: uuid('school_id')
      .notNull()
      .references(() => schools.id),
    status: text('status', { enum: ['notStarted', 'teaching', 'finished'] })
      .notNull()
      .default('notStarted'),
    mode: text('mode', { enum: ['follow', 'free'] })
      .notNull()
      .default('follow'),
    sectionId: uuid('section_id').references(() => courseSections.id, { onDelete: 'set null' }),
    revision: integer('revision').notNull().default(0),
    openedBy: uuid('opened_by').references(() => users.id, { onDelete: 'set null' }),
    startedBy: uuid('started_by').references(() => users.id, { onDelete: 'set null' }),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('classroom_sessions_one_open')
      .on(t.scheduleId)
      .where(sql`${t.status} <> 'finished'`),
    index('classroom_sessions_schedule_idx').on(t.scheduleId, t.createdAt),
    index('classroom_sessions_started_idx').on(t.customerId, t.startedAt),
  ],
);

/**
 * A teacher's lesson notes on one section of a schedule (Markdown): shared by the schedule's teachers, never shown
 * to its students.
 */
export const lessonNotes = pgTable(
  'lesson_notes',
  {
    scheduleId: uuid('schedule_id')
      .notNull()
      .references(() => teachingSchedules.id, { onDelete: 'cascade' }),
    sectionId: uuid('section_id')
      .notNull()
      .references(() => courseSections.id, { onDelete: 'cascade' }),
    customerId: uuid('customer_id')
      .notNull()
      .references(() => customers.id),
    body: text('body').notNull(),
    updatedBy: uuid('updated_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.scheduleId, t.sectionId] })],
);
