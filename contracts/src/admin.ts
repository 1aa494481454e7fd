import { z } from 'zod';
import { ROLES } from './constants.js';
import { LIMITS, PHONE, USERNAME } from './validation.js';

/** A school year or term: the customer's, or one school's. Dates are `YYYY-MM-DD`. */
export const ZPeriod = z.object({
  id: z.string(),
  customerId: z.string(),
  schoolId: z.string().nullable(),
  name: z.string(),
  startDate: z.string(),
  endDate: z.string(),
  createdAt: z.string(),
});
export type TPeriod = z.infer<typeof ZPeriod>;

const isoDate = z.iso.date();

export const ZPeriodRequest = z
  .object({
    name: z.string().trim().min(1).max(30),
    startDate: isoDate,
    endDate: isoDate,
    schoolId: z.uuid().nullable().optional(),
  })
  .refine((p) => p.endDate >= p.startDate, { message: 'the end is before the start', path: ['endDate'] });
export type TPeriodRequest = z.infer<typeof ZPeriodRequest>;

/** Administrator accounts an institution administrator manages through `/api/v1/user`. */
export const ADMIN_ROLES = [
  ROLES.customerAdmin,
  ROLES.subCustomerAdmin,
  ROLES.schoolAdmin,
  ROLES.organizeAdmin,
] as const;
export type AdminRole = (typeof ADMIN_ROLES)[number];
/** Roles bound to one school: the account needs a school. */
export const SCHOOL_ROLES: readonly string[] = [ROLES.schoolAdmin, ROLES.organizeAdmin];

export const ZAdminUser = z.object({
  id: z.string(),
  customerId: z.string().nullable(),
  schoolId: z.string().nullable(),
  username: z.string(),
  realName: z.string(),
  phone: z.string().nullable(),
  roles: z.array(z.string()),
  enabled: z.boolean(),
  /** A school's administrator who also teaches: a teacher of that school as well (ROLE_TEACHER). */
  alsoTeacher: z.boolean(),
  /** The custom role narrowing the account's administrator role, if any. */
  customRoleId: z.string().nullable(),
  customRoleName: z.string().nullable(),
  createdAt: z.string(),
});
export type TAdminUser = z.infer<typeof ZAdminUser>;

export const ZCreateAdminUserRequest = z.object({
  customerId: z.uuid().optional(),
  schoolId: z.uuid().nullable().optional(),
  username: z.string().trim().min(3).max(30).regex(USERNAME),
  realName: z.string().trim().min(1).max(LIMITS.realName),
  phone: z.string().regex(PHONE).nullable().optional(),
  role: z.enum(ADMIN_ROLES),
  password: z.string().min(1).max(200).describe('base64 of the UTF-8 password (6–20 characters)'),
  alsoTeacher: z.boolean().optional().describe('school roles only: the account teaches at its school too'),
  customRoleId: z
    .uuid()
    .nullable()
    .optional()
    .describe('a switched-on custom role whose base role is `role`: the account gets its permissions only'),
});
export type TCreateAdminUserRequest = z.infer<typeof ZCreateAdminUserRequest>;

export const ZUpdateAdminUserRequest = z.object({
  realName: z.string().trim().min(1).max(LIMITS.realName).optional(),
  phone: z.string().regex(PHONE).nullable().optional(),
  alsoTeacher: z.boolean().optional(),
  customRoleId: z.uuid().nullable().optional().describe('null: the full permissions of the built-in role'),
});
export type TUpdateAdminUserRequest = z.infer<typeof ZUpdateAdminUserRequest>;

export const ADMIN_USER_SORT_FIELDS = ['username', 'realName', 'createdAt'] as const;

export const ZAdminUserListQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  size: z.coerce.number().int().min(1).max(100).default(20),
  keyword: z.string().trim().max(100).optional().describe('part of the username or name'),
  role: z.enum(ADMIN_ROLES).optional(),
  sort: z
    .string()
    .regex(new RegExp(`^(${ADMIN_USER_SORT_FIELDS.join('|')}),(asc|desc)$`))
    .optional(),
});

export const ZIdsRequest = z.object({ ids: z.array(z.uuid()).min(1).max(500) });

export const ZRole = z.object({ role: z.string(), permissions: z.array(z.string()) });

/** The paths of the roles (`/api/v1/role`): the built-in table, the custom roles, and the caller's own. */
export const ROLE_API = {
  base: '/api/v1/role',
  search: '/api/v1/role/search',
  mine: '/api/v1/role/mine',
  batchDelete: '/api/v1/role/batch-delete',
} as const;

/**
 * A role super administrators define: a built-in administrator role (`baseRole`, which decides where its holders
 * belong and what they see) narrowed to some of that role's permissions. Built-in roles are fixed.
 */
export const ZCustomRole = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  baseRole: z.enum(ADMIN_ROLES),
  permissions: z.array(z.string()),
  enabled: z.boolean(),
  accounts: z.number().int().describe("administrator accounts of the caller's scope holding it"),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type TCustomRole = z.infer<typeof ZCustomRole>;

export const CUSTOM_ROLE_LIMITS = { name: 30, description: 100 } as const;

const ZRoleName = z
  .string()
  .trim()
  .min(1)
  .max(CUSTOM_ROLE_LIMITS.name)
  .refine((name) => !/^ROLE_/i.test(name), { message: 'ROLE_ names belong to the built-in roles' });

export const ZCreateCustomRoleRequest = z.object({
  name: ZRoleName,
  description: z.string().trim().max(CUSTOM_ROLE_LIMITS.description).default(''),
  baseRole: z.enum(ADMIN_ROLES),
  permissions: z.array(z.string()).min(1).max(100).describe("some of the base role's permissions"),
});
export type TCreateCustomRoleRequest = z.infer<typeof ZCreateCustomRoleRequest>;

/** Changes only the fields sent; the base role stays what it was made with. */
export const ZUpdateCustomRoleRequest = z.object({
  name: ZRoleName.optional(),
  description: z.string().trim().max(CUSTOM_ROLE_LIMITS.description).optional(),
  permissions: z.array(z.string()).min(1).max(100).optional(),
});
export type TUpdateCustomRoleRequest = z.infer<typeof ZUpdateCustomRoleRequest>;

export const ZCustomRoleListQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  size: z.coerce.number().int().min(1).max(100).default(20),
  keyword: z.string().trim().max(100).optional().describe('part of the name or description'),
  baseRole: z.enum(ADMIN_ROLES).optional(),
  enabled: z.enum(['true', 'false']).optional(),
});
export type TCustomRoleListQuery = z.infer<typeof ZCustomRoleListQuery>;

/** The caller's custom role (`GET /api/v1/role/mine`), which the web's menus narrow the roles' screens by. */
export const ZMyRole = z.object({
  customRole: z
    .object({
      id: z.string(),
      name: z.string(),
      baseRole: z.string(),
      permissions: z.array(z.string()),
      enabled: z.boolean(),
    })
    .nullable(),
});
export type TMyRole = z.infer<typeof ZMyRole>;

/** Ids of `/api/v1/role/:id`: a custom role's UUID, or a built-in role's name (refused: they are fixed). */
export const ZRoleIdsRequest = z.object({ ids: z.array(z.string().min(1).max(64)).min(1).max(500) });

/** One node of the administrative divisions: country `CN`, then provinces, cities and districts by code. */
export const ZArea = z.object({ code: z.string(), name: z.string(), leaf: z.boolean() });
export type TArea = z.infer<typeof ZArea>;
