import { index, integer, pgTable, primaryKey, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id, updatedAt } from './columns.js';
import { courses, courseTasks, courseVersions } from './courses.js';
import { classes, customers, schools } from './institutions.js';
import { users } from './users.js';

/**
 * A teaching schedule (spec 3): a teacher's class learning pinned course versions from a start time. It belongs to
 * the school of the teacher who created it. `deleted_at`: taken out of every list (students' too) while the
 * learning records and answers of its students stay with the courses.
 */
export const teachingSchedules = pgTable(
  'teaching_schedules',
  {
    id: id(),
    customerId: uuid('customer_id')
      .notNull()
      .references(() => customers.id),
    schoolId: uuid('school_id')
      .notNull()
      .references(() => schools.id),
    name: text('name').notNull(),
    startAt: timestamp('start_at', { withTimezone: true }).notNull(),
    status: text('status', { enum: ['notStarted', 'inProgress', 'finished'] })
      .notNull()
      .default('notStarted'),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('teaching_schedules_customer_idx').on(t.customerId, t.status),
    index('teaching_schedules_school_idx').on(t.schoolId),
  ],
);

const scheduleRef = () =>
  uuid('schedule_id')
    .notNull()
    .references(() => teachingSchedules.id, { onDelete: 'cascade' });

/** The course versions a schedule teaches: a revision of the course changes nothing until the teacher moves it. */
export const scheduleCourses = pgTable(
  'schedule_courses',
  {
    scheduleId: scheduleRef(),
    courseId: uuid('course_id')
      .notNull()
      .references(() => courses.id, { onDelete: 'cascade' }),
    versionId: uuid('version_id')
      .notNull()
      .references(() => courseVersions.id),
    position: integer('position').notNull(),
  },
  (t) => [primaryKey({ columns: [t.scheduleId, t.courseId] })],
);

export const scheduleTeachers = pgTable(
  'schedule_teachers',
  {
    scheduleId: scheduleRef(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.scheduleId, t.userId] }), index('schedule_teachers_user_idx').on(t.userId)],
);

/** The classes whose students (as they are at any moment) learn in the schedule. */
export const scheduleClasses = pgTable(
  'schedule_classes',
  {
    scheduleId: scheduleRef(),
    classId: uuid('class_id')
      .notNull()
      .references(() => classes.id),
  },
  (t) => [primaryKey({ columns: [t.scheduleId, t.classId] }), index('schedule_classes_class_idx').on(t.classId)],
);

/** Students picked one by one, besides the classes' students. */
export const scheduleStudents = pgTable(
  'schedule_students',
  {
    scheduleId: scheduleRef(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.scheduleId, t.userId] }), index('schedule_students_user_idx').on(t.userId)],
);

/**
 * A task of one of the schedule's course versions, given to its students with an optional due time. Answers are the
 * course's task attempts; after the due time (the server's clock) the course refuses new ones from the
 * schedule's students.
 */
export const scheduleTasks = pgTable(
  'schedule_tasks',
  {
    id: id(),
    scheduleId: scheduleRef(),
    courseId: uuid('course_id')
      .notNull()
      .references(() => courses.id, { onDelete: 'cascade' }),
    taskId: uuid('task_id')
      .notNull()
      .references(() => courseTasks.id, { onDelete: 'cascade' }),
    dueAt: timestamp('due_at', { withTimezone: true }),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [unique('schedule_tasks_once').on(t.scheduleId, t.taskId), index('schedule_tasks_task_idx').on(t.taskId)],
);

/** One student's own due time of a task, set when a teacher reopens it for them (null: no due time for them). */
export const scheduleTaskReopenings = pgTable(
  'schedule_task_reopenings',
  {
    scheduleTaskId: uuid('schedule_task_id')
      .notNull()
      .references(() => scheduleTasks.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    dueAt: timestamp('due_at', { withTimezone: true }),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.scheduleTaskId, t.userId] })],
);
