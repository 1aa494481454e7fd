import { ROLES, type TStudent, type TStudentDetail, type TTeacher } from '@aiedu/contracts';
import { and, asc, count, desc, eq, ilike, or, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { FastifyRequest } from 'fastify';
import { writeAudit } from '../../platform/audit.js';
import type { AuthContext } from '../../platform/auth/tokens.js';
import type { AppContext } from '../../platform/context.js';
import type { Db } from '../../platform/db/client.js';
import { classes, schools, students, teachers, users } from '../../platform/db/schema/index.js';
import { AppError } from '../../platform/errors.js';
import { assertAdminSetPassword, decodePassword } from '../../platform/password-policy.js';
import { hashPassword } from '../../platform/passwords.js';
import {
  callerScope,
  scopePlaceholders,
  scopeShape,
  scopeValues,
  scopeWhere,
  type Scope,
  type ScopeShape,
} from '../../platform/tenancy.js';
import { revokeSessionsOf } from '../auth/session.service.js';
import { assertAccountFree } from './account-clash.js';
import { setAlsoTeacher } from './also-teacher.service.js';
import { assertQuota } from './quota.service.js';
import { likeText } from '../../platform/db/like.js';
import { preparedStatements } from '../../platform/db/prepared.js';

type Kind = 'teacher' | 'student';

/** The query of the teacher and student lists. */
export const ZPeopleQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  size: z.coerce.number().int().min(1).max(100).default(20),
  keyword: z.string().trim().max(100).optional(),
  classId: z.uuid().optional(),
  schoolId: z.uuid().optional(),
  sort: z
    .string()
    .regex(/^(username|realName|createdAt),(asc|desc)$/)
    .optional(),
});

/**
 * Passwords chosen by administrators: the weak rule of spec 5 (6–20 visible ASCII characters); the user must change
 * it at first sign-in.
 */
export async function adminPasswordHash(encoded: string) {
  const plain = decodePassword(encoded);
  assertAdminSetPassword(plain);
  return hashPassword(plain);
}

async function schoolInScope(tx: Db, scope: Scope, schoolId: string) {
  const [school] = await tx
    .select({ id: schools.id, customerId: schools.customerId })
    .from(schools)
    .where(and(eq(schools.id, schoolId), scopeWhere(scope, { customerId: schools.customerId, schoolId: schools.id })));
  if (!school) throw new AppError('NOT_FOUND');
  return school;
}

/** Inserts an administrator-created account, which must change its password at first sign-in. */
async function insertAccount(
  tx: Db,
  values: {
    customerId: string;
    schoolId: string;
    username: string;
    realName: string;
    phone?: string | null;
    passwordHash: string;
    role: string;
  },
) {
  await assertAccountFree(tx, values.customerId, values);
  const [user] = await tx
    .insert(users)
    .values({ ...values, roles: [values.role], mustChangePassword: true })
    .onConflictDoNothing()
    .returning();
  if (!user) throw new AppError('USERNAME_TAKEN');
  return user;
}

/** The account columns a list shows: selecting only these keeps sorted pages narrow (no password hash). */
const ACCOUNT = {
  id: users.id,
  username: users.username,
  realName: users.realName,
  phone: users.phone,
  enabled: users.enabled,
  schoolId: users.schoolId,
  createdAt: users.createdAt,
};

function presentAccount(user: Pick<typeof users.$inferSelect, keyof typeof ACCOUNT>) {
  return {
    id: user.id,
    username: user.username,
    realName: user.realName,
    phone: user.phone,
    enabled: user.enabled,
    schoolId: user.schoolId,
    createdAt: user.createdAt.toISOString(),
  };
}

export async function createTeacher(
  ctx: AppContext,
  request: FastifyRequest,
  auth: AuthContext,
  input: {
    schoolId: string;
    username: string;
    realName: string;
    phone?: string | undefined;
    remark: string;
    password: string;
  },
): Promise<TTeacher> {
  const scope = await callerScope(ctx.db, auth);
  const passwordHash = await adminPasswordHash(input.password);
  return ctx.db.transaction(async (tx) => {
    const school = await schoolInScope(tx as unknown as Db, scope, input.schoolId);
    await assertQuota(tx as unknown as Db, school.customerId, 'teacher');
    const user = await insertAccount(tx as unknown as Db, {
      customerId: school.customerId,
      schoolId: school.id,
      username: input.username,
      realName: input.realName,
      phone: input.phone ?? null,
      passwordHash,
      role: ROLES.teacher,
    });
    const [teacher] = await tx
      .insert(teachers)
      .values({
        userId: user.id,
        customerId: school.customerId,
        schoolId: school.id,
        remark: input.remark,
        createdBy: auth.userId,
      })
      .returning();
    await writeAudit(tx, request, {
      module: 'teacher',
      operation: 'create',
      params: input,
      customerId: school.customerId,
    });
    const [creator] = await tx.select({ username: users.username }).from(users).where(eq(users.id, auth.userId));
    return {
      ...presentAccount(user),
      remark: teacher!.remark,
      certified: teacher!.certified,
      alsoTeacher: teacher!.alsoTeacher,
      creator: creator?.username ?? null,
    };
  });
}

export async function createStudent(
  ctx: AppContext,
  request: FastifyRequest,
  auth: AuthContext,
  input: { classId: string; username: string; realName: string; schoolNumber?: string | undefined; password: string },
): Promise<TStudent> {
  const scope = await callerScope(ctx.db, auth);
  const passwordHash = await adminPasswordHash(input.password);
  return ctx.db.transaction(async (tx) => {
    const [klass] = await tx
      .select()
      .from(classes)
      .where(and(eq(classes.id, input.classId), eq(classes.classStatus, 'current'), scopeWhere(scope, classes)));
    if (!klass) throw new AppError('NOT_FOUND');
    await assertQuota(tx as unknown as Db, klass.customerId, 'student');
    const user = await insertAccount(tx as unknown as Db, {
      customerId: klass.customerId,
      schoolId: klass.schoolId,
      username: input.username,
      realName: input.realName,
      passwordHash,
      role: ROLES.student,
    });
    await tx.insert(students).values({
      userId: user.id,
      customerId: klass.customerId,
      schoolId: klass.schoolId,
      classId: klass.id,
      schoolNumber: input.schoolNumber ?? null,
    });
    await writeAudit(tx, request, {
      module: 'student',
      operation: 'create',
      params: input,
      customerId: klass.customerId,
    });
    return { ...presentAccount(user), classId: klass.id, schoolNumber: input.schoolNumber ?? null };
  });
}

export type PeopleQuery = z.infer<typeof ZPeopleQuery>;

const SORTABLE = { username: users.username, realName: users.realName, createdAt: users.createdAt } as const;

/** The username of whoever created a teacher (null: a school administrator who teaches, or made before it was kept). */
const teacherCreator = sql<string | null>`(select c.username from ${users} c where c.id = ${teachers.createdBy})`;

/** What makes a people list's statements: who is listed, the scope, the filters given and the sort. */
interface PeopleShape {
  kind: Kind;
  scope: ScopeShape;
  keyword: boolean;
  school: boolean;
  klass: boolean;
  sort: string;
}

function peopleWhere(shape: PeopleShape) {
  const table = shape.kind === 'teacher' ? teachers : students;
  const keyword = sql.placeholder('keyword');
  return and(
    scopePlaceholders(shape.scope, table),
    // The same scope on the account lets the planner walk the (customer, username) index in order.
    scopePlaceholders(shape.scope, { customerId: users.customerId, schoolId: users.schoolId }),
    shape.keyword ? or(ilike(users.username, keyword), ilike(users.realName, keyword)) : undefined,
    shape.school ? eq(table.schoolId, sql.placeholder('schoolId')) : undefined,
    shape.klass ? eq(students.classId, sql.placeholder('classId')) : undefined,
  );
}

/** A page of teachers or students, built once per shape (`platform/db/prepared.ts`). */
const peoplePage = preparedStatements((db, name, key) => {
  const shape = JSON.parse(key) as PeopleShape;
  const table = shape.kind === 'teacher' ? teachers : students;
  const [field, direction] = shape.sort.split(',');
  const column = SORTABLE[field as keyof typeof SORTABLE] ?? users.username;
  // Usernames are unique within a customer, so (username, customer) orders completely and matches the index.
  const tieBreak = column === users.username ? users.customerId : users.id;
  return db
    .select({ user: ACCOUNT, extra: table, creator: shape.kind === 'teacher' ? teacherCreator : sql<null>`null` })
    .from(table)
    .innerJoin(users, eq(users.id, table.userId))
    .where(peopleWhere(shape))
    .orderBy(direction === 'desc' ? desc(column) : asc(column), asc(tieBreak))
    .limit(sql.placeholder('limit'))
    .offset(sql.placeholder('offset'))
    .prepare(name);
});

/** How many the list holds; without a search text the account columns are not needed, so the rows alone are counted. */
const peopleCount = preparedStatements((db, name, key) => {
  const shape = JSON.parse(key) as PeopleShape;
  const table = shape.kind === 'teacher' ? teachers : students;
  const counted = shape.keyword
    ? db.select({ n: count() }).from(table).innerJoin(users, eq(users.id, table.userId)).where(peopleWhere(shape))
    : db
        .select({ n: count() })
        .from(table)
        .where(
          and(
            scopePlaceholders(shape.scope, table),
            shape.school ? eq(table.schoolId, sql.placeholder('schoolId')) : undefined,
            shape.klass ? eq(students.classId, sql.placeholder('classId')) : undefined,
          ),
        );
  return counted.prepare(name);
});

function peopleStatement(scope: Scope, kind: Kind, query: PeopleQuery) {
  const shape: PeopleShape = {
    kind,
    scope: scopeShape(scope),
    keyword: Boolean(query.keyword),
    school: Boolean(query.schoolId),
    klass: kind === 'student' && Boolean(query.classId),
    sort: query.sort ?? 'username,asc',
  };
  const values = {
    ...scopeValues(scope),
    keyword: query.keyword ? likeText(query.keyword) : null,
    schoolId: query.schoolId ?? null,
    classId: query.classId ?? null,
    limit: query.size,
    offset: (query.page - 1) * query.size,
  };
  return { key: JSON.stringify(shape), values };
}

/** One page of teachers or students in the scope (exports page through all of them). */
export async function selectPeople(db: Db, scope: Scope, kind: Kind, query: PeopleQuery) {
  const { key, values } = peopleStatement(scope, kind, query);
  const rows = await peoplePage(db, key).execute(values);
  return rows.map(({ user, extra, creator }) =>
    'remark' in extra
      ? {
          ...presentAccount(user),
          remark: extra.remark,
          certified: extra.certified,
          alsoTeacher: extra.alsoTeacher,
          creator,
        }
      : { ...presentAccount(user), classId: extra.classId, schoolNumber: extra.schoolNumber },
  );
}

export async function listPeople(ctx: AppContext, auth: AuthContext, kind: Kind, query: PeopleQuery) {
  const scope = await callerScope(ctx.db, auth);
  const { key, values } = peopleStatement(scope, kind, query);
  const [list, [total]] = await Promise.all([
    selectPeople(ctx.db, scope, kind, query),
    peopleCount(ctx.db, key).execute(values),
  ]);
  return { list, total: total?.n ?? 0, page: query.page, size: query.size };
}

/** One student of the scope with the names of their class and school (`1004` outside it). */
export async function getStudent(ctx: AppContext, auth: AuthContext, userId: string): Promise<TStudentDetail> {
  const scope = await callerScope(ctx.db, auth);
  const [row] = await ctx.db
    .select({
      user: ACCOUNT,
      classId: students.classId,
      schoolNumber: students.schoolNumber,
      className: classes.className,
      schoolName: schools.name,
    })
    .from(students)
    .innerJoin(users, eq(users.id, students.userId))
    .innerJoin(schools, eq(schools.id, students.schoolId))
    .leftJoin(classes, eq(classes.id, students.classId))
    .where(and(eq(students.userId, userId), scopeWhere(scope, students)));
  if (!row) throw new AppError('NOT_FOUND');
  return {
    ...presentAccount(row.user),
    classId: row.classId,
    schoolNumber: row.schoolNumber,
    className: row.className,
    schoolName: row.schoolName,
  };
}

/**
 * Edits a teacher's name, phone, remark and (for a school administrator who teaches) whether they still teach, or a
 * student's name, class and school number, within the scope.
 */
export async function updatePerson(
  ctx: AppContext,
  request: FastifyRequest,
  auth: AuthContext,
  kind: Kind,
  userId: string,
  input: {
    realName?: string | undefined;
    phone?: string | null | undefined;
    remark?: string | undefined;
    classId?: string | undefined;
    schoolNumber?: string | null | undefined;
    alsoTeacher?: boolean | undefined;
  },
) {
  const scope = await callerScope(ctx.db, auth);
  const table = kind === 'teacher' ? teachers : students;
  await ctx.db.transaction(async (tx) => {
    const [target] = await tx
      .select({ id: table.userId, customerId: table.customerId, schoolId: table.schoolId })
      .from(table)
      .where(and(eq(table.userId, userId), scopeWhere(scope, table)));
    if (!target) throw new AppError('NOT_FOUND');
    const account = { realName: input.realName, ...(kind === 'teacher' ? { phone: input.phone } : {}) };
    await assertAccountFree(tx as unknown as Db, target.customerId, account, userId);
    if (Object.values(account).some((v) => v !== undefined)) {
      await tx.update(users).set(account).where(eq(users.id, userId));
    }
    if (kind === 'teacher' && input.remark !== undefined) {
      await tx.update(teachers).set({ remark: input.remark }).where(eq(teachers.userId, userId));
    }
    if (kind === 'student' && (input.classId !== undefined || input.schoolNumber !== undefined)) {
      if (input.classId) {
        const [klass] = await tx
          .select({ id: classes.id })
          .from(classes)
          .where(
            and(
              eq(classes.id, input.classId),
              eq(classes.schoolId, target.schoolId),
              eq(classes.classStatus, 'current'),
            ),
          );
        if (!klass) throw new AppError('NOT_FOUND');
      }
      await tx
        .update(students)
        .set({ classId: input.classId, schoolNumber: input.schoolNumber })
        .where(eq(students.userId, userId));
    }
    if (kind === 'teacher' && input.alsoTeacher !== undefined) {
      const [account] = await tx.select().from(users).where(eq(users.id, userId));
      await setAlsoTeacher(tx as unknown as Db, account!, input.alsoTeacher, auth.userId);
    }
    await writeAudit(tx, request, {
      module: kind,
      operation: 'update',
      params: { userId, ...input },
      customerId: target.customerId,
    });
  });
}

/** Switches an account on or off, or sets a new password the user must change; only within the caller's scope. */
export async function changeAccount(
  ctx: AppContext,
  request: FastifyRequest,
  auth: AuthContext,
  kind: Kind,
  userId: string,
  change: { enabled: boolean } | { password: string },
) {
  const scope = await callerScope(ctx.db, auth);
  const table = kind === 'teacher' ? teachers : students;
  const values =
    'enabled' in change
      ? { enabled: change.enabled }
      : { passwordHash: await adminPasswordHash(change.password), mustChangePassword: true };
  const ended = await ctx.db.transaction(async (tx) => {
    const [target] = await tx
      .select({ id: table.userId, customerId: table.customerId })
      .from(table)
      .where(and(eq(table.userId, userId), scopeWhere(scope, table)));
    if (!target) throw new AppError('NOT_FOUND');
    await tx.update(users).set(values).where(eq(users.id, userId));
    const ending =
      'password' in change || !change.enabled
        ? await revokeSessionsOf(tx as unknown as Db, { userId }, ctx.now())
        : undefined;
    const operation = 'enabled' in change ? 'switch' : 'reset-password';
    await writeAudit(tx, request, {
      module: kind,
      operation,
      params: { userId, ...change },
      customerId: target.customerId,
    });
    return ending;
  });
  if (ended) ctx.sessions.ended(ended);
}
