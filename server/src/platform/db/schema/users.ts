import { sql } from 'drizzle-orm';
import { boolean, check, date, index, pgTable, text, unique, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id, updatedAt } from './columns.js';
import { classes, customers, schools } from './institutions.js';

/** Stands for "no customer" in unique indexes, so the public space is one scope. */
export const PUBLIC_SPACE = '00000000-0000-0000-0000-000000000000';

/**
 * Roles super administrators define: a built-in administrator role (`base_role`) narrowed to some of its
 * permissions, none of them while switched off. Platform-wide, like the course catalogue; names are unique
 * without regard to case.
 */
export const customRoles = pgTable(
  'custom_roles',
  {
    id: id(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    baseRole: text('base_role').notNull(),
    permissions: text('permissions')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    enabled: boolean('enabled').notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('custom_roles_name').on(sql`lower(${t.name})`)],
);

/**
 * Every account. `customer_id` is null for the public space (self-registered learners and super administrators).
 * Usernames, phones and emails are unique within one customer or within the public space. Emails are kept in lower
 * case (spec 5), so the unique index and every lookup ignore the case people type them in.
 */
export const users = pgTable(
  'users',
  {
    id: id(),
    customerId: uuid('customer_id').references(() => customers.id),
    schoolId: uuid('school_id').references(() => schools.id),
    username: text('username').notNull(),
    passwordHash: text('password_hash').notNull(),
    /** Set when an administrator chose the password: the user must change it at next login. */
    mustChangePassword: boolean('must_change_password').notNull().default(false),
    roles: text('roles')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** A custom role narrowing the account's administrator role (deleting a role some account holds is refused). */
    customRoleId: uuid('custom_role_id').references(() => customRoles.id),
    realName: text('real_name').notNull().default(''),
    nickname: text('nickname').notNull().default(''),
    phone: text('phone'),
    email: text('email'),
    enabled: boolean('enabled').notNull().default(true),
    gender: text('gender', { enum: ['male', 'female', 'unknown'] })
      .notNull()
      .default('unknown'),
    birthDay: date('birth_day'),
    /** What the user says they are in their profile: 'teacher' or 'student'. */
    identity: text('identity', { enum: ['teacher', 'student'] }),
    province: text('province').notNull().default(''),
    city: text('city').notNull().default(''),
    schoolName: text('school_name').notNull().default(''),
    signature: text('signature').notNull().default(''),
    avatarKey: text('avatar_key'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    unique('users_scope_username').on(t.customerId, t.username).nullsNotDistinct(),
    uniqueIndex('users_scope_phone')
      .on(sql`coalesce(${t.customerId}, '${sql.raw(PUBLIC_SPACE)}'::uuid)`, t.phone)
      .where(sql`${t.phone} is not null`),
    uniqueIndex('users_scope_email')
      .on(sql`coalesce(${t.customerId}, '${sql.raw(PUBLIC_SPACE)}'::uuid)`, t.email)
      .where(sql`${t.email} is not null`),
    check('users_email_lowercase', sql`${t.email} = lower(${t.email})`),
    index('users_school_idx').on(t.schoolId),
    index('users_custom_role_idx').on(t.customRoleId),
    // `%keyword%` searches of the administration lists (pg_trgm, created before the migrations).
    index('users_username_trgm_idx').using('gin', t.username.op('gin_trgm_ops')),
    index('users_real_name_trgm_idx').using('gin', t.realName.op('gin_trgm_ops')),
  ],
);

/**
 * The space an account belongs to (its customer, or the public space) in the very form the phone and email indexes
 * hold it: a lookup by phone or email compares this with the space, so each is one index probe however many
 * accounts a customer has.
 */
export const accountSpace = sql`coalesce(${users.customerId}, '${sql.raw(PUBLIC_SPACE)}'::uuid)`;

export const teachers = pgTable(
  'teachers',
  {
    userId: uuid('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    customerId: uuid('customer_id')
      .notNull()
      .references(() => customers.id),
    schoolId: uuid('school_id')
      .notNull()
      .references(() => schools.id),
    remark: text('remark').notNull().default(''),
    certified: boolean('certified').notNull().default(false),
    /** A school administrator who also teaches. */
    alsoTeacher: boolean('also_teacher').notNull().default(false),
    createdBy: uuid('created_by').references(() => users.id),
    createdAt: createdAt(),
  },
  (t) => [index('teachers_school_idx').on(t.schoolId)],
);

export const students = pgTable(
  'students',
  {
    userId: uuid('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    customerId: uuid('customer_id')
      .notNull()
      .references(() => customers.id),
    schoolId: uuid('school_id')
      .notNull()
      .references(() => schools.id),
    classId: uuid('class_id').references(() => classes.id),
    schoolNumber: text('school_number'),
    createdAt: createdAt(),
  },
  (t) => [index('students_class_idx').on(t.classId), index('students_school_idx').on(t.schoolId)],
);
