import { sql, type SQLWrapper } from 'drizzle-orm';
import {
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  type AnyPgColumn,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt, id, updatedAt } from './columns.js';
import { users } from './users.js';

/** A customer is a tenant; a sub-customer is a customer with a parent. */
export const customers = pgTable(
  'customers',
  {
    id: id(),
    parentId: uuid('parent_id').references((): AnyPgColumn => customers.id),
    /** Kept as typed; unique and matched without regard to case (`customerCodeIs`). */
    code: text('code').notNull(),
    name: text('name').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    remark: text('remark').notNull().default(''),
    timeZone: text('time_zone').notNull().default('Asia/Shanghai'),
    schoolQuota: integer('school_quota'),
    teacherQuota: integer('teacher_quota'),
    studentQuota: integer('student_quota'),
    containerConcurrency: integer('container_concurrency'),
    maxStartsPerPerson: integer('max_starts_per_person'),
    studyConcurrency: integer('study_concurrency'),
    /** Container types its people may start (BASIC, ADVANCED, GPU). */
    containerTypes: text('container_types')
      .array()
      .notNull()
      .default(sql`'{BASIC}'::text[]`),
    /** Region by administrative-division codes (country `CN`, then province, city and district codes). */
    country: text('country').notNull().default(''),
    province: text('province').notNull().default(''),
    city: text('city').notNull().default(''),
    district: text('district').notNull().default(''),
    /** The super or customer administrator who created it (null for those made before creators were kept). */
    createdBy: uuid('created_by').references((): AnyPgColumn => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('customers_code_ci').on(sql`lower(${t.code})`),
    index('customers_parent_idx').on(t.parentId),
    check('customers_code_format', sql`${t.code} ~ '^[A-Za-z0-9]{6,20}$'`),
  ],
);

/** The customer a code names, compared without regard to case (`H2test01` names `h2test01`). */
export const customerCodeIs = (code: string | SQLWrapper) => sql`lower(${customers.code}) = lower(${code})`;

export const schools = pgTable(
  'schools',
  {
    id: id(),
    customerId: uuid('customer_id')
      .notNull()
      .references(() => customers.id),
    name: text('name').notNull(),
    eduStages: text('edu_stages')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    enabled: boolean('enabled').notNull().default(true),
    notes: text('notes').notNull().default(''),
    /** Found by learners of the public space in the profile's school search (off unless its administrators list it). */
    listed: boolean('listed').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('schools_customer_idx').on(t.customerId)],
);

/** `deleted`: a class without students taken out of every list (irreversible, like `dismissed`). */
export const CLASS_STATUSES = ['current', 'history', 'graduated', 'dismissed', 'deleted'] as const;

export const classes = pgTable(
  'classes',
  {
    id: id(),
    customerId: uuid('customer_id')
      .notNull()
      .references(() => customers.id),
    schoolId: uuid('school_id')
      .notNull()
      .references(() => schools.id),
    eduStage: text('edu_stage').notNull(),
    grade: integer('grade').notNull(),
    className: text('class_name').notNull(),
    startYear: integer('start_year').notNull(),
    classStatus: text('class_status', { enum: CLASS_STATUSES }).notNull().default('current'),
    /** The teacher who heads the class: the one who created it (null for a class an administrator created). */
    teacherId: uuid('teacher_id').references((): AnyPgColumn => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('classes_school_idx').on(t.schoolId),
    index('classes_customer_idx').on(t.customerId),
    index('classes_teacher_idx').on(t.teacherId),
  ],
);

/** When a customer's (or one school's) classes move up a grade by themselves: once, or every year at that time. */
export const upgradeSchedules = pgTable(
  'upgrade_schedules',
  {
    id: id(),
    customerId: uuid('customer_id')
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    schoolId: uuid('school_id').references(() => schools.id, { onDelete: 'cascade' }),
    runAt: timestamp('run_at', { withTimezone: true }).notNull(),
    repeat: text('repeat', { enum: ['once', 'yearly'] }).notNull(),
    lastRunAt: timestamp('last_run_at', { withTimezone: true }),
    active: boolean('active').notNull().default(true),
    createdAt: createdAt(),
  },
  (t) => [index('upgrade_schedules_due_idx').on(t.active, t.runAt)],
);

/** A school year or term of a customer (or of one of its schools), e.g. "2026–2027 autumn term". */
export const periods = pgTable(
  'periods',
  {
    id: id(),
    customerId: uuid('customer_id')
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    schoolId: uuid('school_id').references(() => schools.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    startDate: date('start_date').notNull(),
    endDate: date('end_date').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('periods_customer_idx').on(t.customerId, t.startDate),
    check('periods_dates', sql`${t.endDate} >= ${t.startDate}`),
  ],
);

/** A customer's own home page: three banners with links, up to six project types, footer sites; and module switches. */
export const customerHomes = pgTable('customer_homes', {
  customerId: uuid('customer_id')
    .primaryKey()
    .references(() => customers.id, { onDelete: 'cascade' }),
  banners: jsonb('banners').$type<{ imageKey: string; link: string }[]>().notNull().default([]),
  projectTypes: jsonb('project_types').$type<string[]>().notNull().default([]),
  footerSites: jsonb('footer_sites').$type<{ name: string; url: string }[]>().notNull().default([]),
  /** Navigation entries and features each side may use (teacher / student); absent means everything. */
  modules: jsonb('modules').$type<{ teacher: string[]; student: string[] } | null>(),
  updatedAt: updatedAt(),
});
