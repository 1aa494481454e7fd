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
});
export type TCreateAdminUserRequest = z.infer<typeof ZCreateAdminUserRequest>;

export const ZUpdateAdminUserRequest = z.object({
  realName: z.string().trim().min(1).max(LIMITS.realName).optional(),
  phone: z.string().regex(PHONE).nullable().optional(),
  alsoTeacher: z.boolean().optional(),
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

/** One node of the administrative divisions: country `CN`, then provinces, cities and districts by code. */
export const ZArea = z.object({ code: z.string(), name: z.string(), leaf: z.boolean() });
export type TArea = z.infer<typeof ZArea>;
